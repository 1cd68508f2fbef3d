package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.DeviceMarker;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.storage.MiniHdfs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI on a pool with devices on HDFS (docs/distributed-storage.md, "The CLI"): the metadata
 * device local, two devices on one in-process cluster, the client's settings given with {@code
 * --hadoop-conf}; and the errors of a NameNode that does not answer and of a policy HDFS lacks.
 */
class HdfsPoolCliTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  @TempDir Path dir;
  private StringWriter out;
  private StringWriter err;

  private int run(List<String> args) {
    out = new StringWriter();
    err = new StringWriter();
    return MosaicCli.run(
        args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
  }

  /** The command with {@code --devices} and the cluster's client settings. */
  private static List<String> command(Path devices, String... args) {
    List<String> all = new java.util.ArrayList<>(Arrays.asList(args));
    all.addAll(List.of("--devices", devices.toString()));
    // One replica, as the cluster's DataNodes have one storage type each, and the rest of
    // MiniHdfs's client settings.
    MiniHdfs.CLIENT_SETTINGS.forEach((k, v) -> all.addAll(List.of("--hadoop-conf", k + "=" + v)));
    return all;
  }

  private Path pool(String nn, String fastPolicy) throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.createDirectories(dir.resolve("pool/local"));
    Files.writeString(
        file,
        """
        [[device]]
        id = "local"
        path = "pool/local"
        capacity = "1 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "60 ct"
        metadata = true

        [[device]]
        id = "fast"
        uri = "%1$s/mosaic/fast"
        storage_policy = "%2$s"
        capacity = "1 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "40 ct"

        [[device]]
        id = "archive"
        uri = "%1$s/mosaic/archive"
        storage_policy = "COLD"
        capacity = "2 GB"
        threads = 1
        codec = "zstd"
        cost_per_gb = "2 ct"
        """
            .formatted(nn, fastPolicy));
    return file;
  }

  private static String nn() {
    return HDFS.uri().toString().replaceAll("/$", "");
  }

  @Test
  void devicesAndCalibrateWorkOnHdfsDevices() throws IOException {
    Path devices = pool(nn(), "ALL_SSD");
    assertThat(run(command(devices, "devices"))).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("local (metadata)", dir.resolve("pool/local").toString())
        .contains(nn() + "/mosaic/fast", nn() + "/mosaic/archive")
        .contains("3 devices, configuration OK.");
    // Loading the pool marked each HDFS folder and set its policy.
    var fs = HDFS.fileSystem();
    assertThat(fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/mosaic/fast")).getName())
        .isEqualTo("ALL_SSD");
    assertThat(fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/mosaic/archive")).getName())
        .isEqualTo("COLD");

    int status =
        run(
            command(
                devices,
                "calibrate",
                "--sample-size",
                "2 MiB",
                "--codecs",
                "none,lz4",
                "--seek-probes",
                "8",
                "--cpu-sample-sf",
                "0"));
    assertThat(status).as(err.toString()).isZero();
    Path modelFile = dir.resolve("pool/local/device-model.toml");
    assertThat(out.toString()).contains("Wrote " + modelFile, "fast", "archive");
    Map<String, DeviceModel> models = DeviceModelFile.read(modelFile);
    assertThat(models).containsOnlyKeys("local", "fast", "archive");
    assertThat(models.get("fast").raw().bytesPerSecond()).isPositive();
    assertThat(models.get("archive").threads()).isEqualTo(1);
    // Calibration leaves only each device's marker on HDFS.
    for (String device : List.of("fast", "archive")) {
      assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/mosaic/" + device)))
          .extracting(FileStatus::getPath)
          .extracting(org.apache.hadoop.fs.Path::getName)
          .containsExactly(DeviceMarker.FILE);
    }
  }

  @Test
  void anUnreachableNameNodeAndAnUnknownPolicyNameTheDeviceAndTheFix() throws IOException {
    // Port 1 on this host: nothing listens there.
    Path devices = pool("hdfs://127.0.0.1:1", "ALL_SSD");
    assertThat(run(command(devices, "devices"))).isEqualTo(MosaicCli.INPUT_ERROR);
    assertThat(err.toString())
        .contains("mosaic devices: ")
        .contains("device 'fast' field 'uri'")
        .contains("hdfs://127.0.0.1:1/mosaic/fast")
        .contains("unreachable", "check the host and port in the URI");

    devices = pool(nn(), "FASTEST");
    assertThat(run(command(devices, "devices"))).isEqualTo(MosaicCli.INPUT_ERROR);
    assertThat(err.toString())
        .contains("device 'fast' field 'storage_policy': bad value \"FASTEST\"")
        .contains("use one of", "ALL_SSD");

    // A URI without a host: the parser names the field before anything is contacted.
    Files.writeString(
        devices, Files.readString(devices).replace(nn() + "/mosaic/fast", "hdfs:/mosaic/fast"));
    assertThat(run(command(devices, "devices"))).isEqualTo(MosaicCli.INPUT_ERROR);
    assertThat(err.toString()).contains("device 'fast' field 'uri'", "hdfs:/mosaic/fast");

    // A setting that is not key=value is a usage error of the option.
    assertThat(run(List.of("devices", "--devices", devices.toString(), "--hadoop-conf", "x")))
        .isEqualTo(MosaicCli.USAGE_ERROR);
    assertThat(err.toString()).contains("--hadoop-conf");
  }

  @Test
  void hadoopConfDirIsReadAndTheOptionWinsOverIt() throws IOException {
    Path conf = Files.createDirectories(dir.resolve("hadoop-conf"));
    Files.writeString(
        conf.resolve("core-site.xml"),
        """
        <configuration>
          <property><name>ipc.client.connect.timeout</name><value>1234</value></property>
          <property><name>fs.defaultFS</name><value>%s</value></property>
        </configuration>
        """
            .formatted(nn()));
    Files.writeString(
        conf.resolve("hdfs-site.xml"),
        """
        <configuration>
          <property><name>dfs.replication</name><value>2</value></property>
        </configuration>
        """);
    Configuration c = HadoopOptions.configuration(conf.toString(), Map.of("dfs.replication", "1"));
    assertThat(c.get("ipc.client.connect.timeout")).isEqualTo("1234");
    assertThat(c.get("fs.defaultFS")).isEqualTo(nn());
    assertThat(c.get("dfs.replication")).isEqualTo("1");
    assertThat(HadoopOptions.configuration(conf.toString(), Map.of()).get("dfs.replication"))
        .isEqualTo("2");
    assertThat(HadoopOptions.configuration(null, Map.of()).get("fs.defaultFS"))
        .isEqualTo("file:///");

    assertThatThrownBy(
            () -> HadoopOptions.configuration(dir.resolve("missing").toString(), Map.of()))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("HADOOP_CONF_DIR=" + dir.resolve("missing") + " is not a directory");
  }

  /**
   * A table whose location is an {@code hdfs://} URI, through the table commands: imported from
   * Parquet, migrated between HDFS devices, traced and collected (docs/distributed-storage.md).
   */
  @Test
  void tableCommandsTakeAnHdfsTableLocation() throws IOException {
    Path devices = pool(nn(), "ALL_SSD");
    String table = nn() + "/cli/orders";
    long rows = importOrders(devices, table);
    assertThat(err.toString()).contains("at " + table);
    assertThat(HDFS.fileSystem().exists(new org.apache.hadoop.fs.Path("/cli/orders/_manifests")))
        .isTrue();

    assertThat(run(command(devices, "migrate", "--table", table, "--set", "o_comment=archive")))
        .as(err.toString())
        .isZero();
    io.mosaic.table.MosaicTable opened =
        io.mosaic.table.MosaicTable.open(
            table, io.mosaic.device.DevicePool.load(devices, HDFS.conf()));
    assertThat(opened.lockFree()).isTrue();
    assertThat(opened.latest().rowCount()).isEqualTo(rows);
    assertThat(opened.latest().segments())
        .filteredOn(seg -> seg.column().equals("o_comment"))
        .isNotEmpty()
        .allSatisfy(seg -> assertThat(seg.device()).isEqualTo("archive"));
    assertThat(HDFS.blockTypes("/mosaic/archive").values())
        .isNotEmpty()
        .allSatisfy(
            types -> assertThat(types).containsOnly(org.apache.hadoop.fs.StorageType.ARCHIVE));
    assertThat(run(command(devices, "gc", "--table", table))).as(err.toString()).isZero();
  }

  /**
   * A local table moves its root to HDFS (docs/distributed-storage.md, "Moving a local pool to
   * HDFS"): {@code clone} to an {@code hdfs://} root copies every segment, here on an HDFS device,
   * to a new lock-free table with the same rows; a root moved by hand on HDFS adopts its folders;
   * and a table on HDFS clones back to a local root.
   */
  @Test
  void cloneMovesATableRootToHdfsAndBack() throws IOException {
    Path devices = pool(nn(), "ALL_SSD");
    Path local = dir.resolve("pool/local/orders");
    long rows = importOrders(devices, local.toString());
    String remote = nn() + "/cli/clones/orders";
    assertThat(run(command(devices, "clone", "--table", local.toString(), "--to", remote)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("cloned table orders v2 to orders (" + remote + "): ")
        .contains("now at version 2");

    io.mosaic.device.DevicePool pool = io.mosaic.device.DevicePool.load(devices, HDFS.conf());
    io.mosaic.table.MosaicTable source = io.mosaic.table.MosaicTable.open(local.toString(), pool);
    io.mosaic.table.MosaicTable clone = io.mosaic.table.MosaicTable.open(remote, pool);
    assertThat(clone.lockFree()).isTrue();
    assertThat(clone.latest().tableId()).isNotEqualTo(source.latest().tableId());
    assertThat(clone.latest().segments())
        .isNotEmpty()
        .allSatisfy(seg -> assertThat(seg.device()).isEqualTo("fast"));
    List<List<Object>> sourceRows = rows(source);
    assertThat(sourceRows).hasSize((int) rows);
    assertThat(rows(clone)).isEqualTo(sourceRows);

    // The root moved by hand on HDFS: writes and gc through it wait for adopt, then work.
    String moved = nn() + "/cli/clones/orders_moved";
    assertThat(
            HDFS.fileSystem()
                .rename(
                    new org.apache.hadoop.fs.Path("/cli/clones/orders"),
                    new org.apache.hadoop.fs.Path("/cli/clones/orders_moved")))
        .isTrue();
    assertThat(run(command(devices, "gc", "--table", moved))).isNotZero();
    assertThat(err.toString()).contains("mosaic adopt");
    assertThat(run(command(devices, "adopt", "--table", moved))).as(err.toString()).isZero();
    assertThat(out.toString()).contains("now owns its segment folders on fast");
    assertThat(run(command(devices, "gc", "--table", moved))).as(err.toString()).isZero();

    // And back to a local root.
    Path back = dir.resolve("pool/local/orders_back");
    assertThat(run(command(devices, "clone", "--table", moved, "--to", back.toString())))
        .as(err.toString())
        .isZero();
    assertThat(rows(io.mosaic.table.MosaicTable.open(back.toString(), pool))).isEqualTo(sourceRows);
  }

  /** Imports the orders test table from Parquet into a new table at {@code table}; its rows. */
  private long importOrders(Path devices, String table) throws IOException {
    Path parquet = dir.resolve("orders.parquet");
    long rows = UnclearErrorsTest.writeOrders(parquet);
    assertThat(
            run(
                command(
                    devices,
                    "import",
                    "--table",
                    table,
                    "--create",
                    "--device",
                    "fast",
                    parquet.toString())))
        .as(err.toString())
        .isZero();
    return rows;
  }

  private static List<List<Object>> rows(io.mosaic.table.MosaicTable table) throws IOException {
    try (var alloc = new org.apache.arrow.memory.RootAllocator()) {
      return io.mosaic.table.TableRoundTripTest.rows(table, table.latest(), alloc);
    }
  }
}
