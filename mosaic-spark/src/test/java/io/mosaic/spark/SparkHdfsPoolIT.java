package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.format.Manifest;
import io.mosaic.scan.ScanRequest;
import io.mosaic.scan.SegmentHosts;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.table.MosaicTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.read.InputPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog whose pool has devices on HDFS (docs/spark.md, "Devices on HDFS"): the pool is opened
 * with the session's Hadoop configuration ({@code spark.hadoop.*}) on the driver, the same settings
 * travel with each partition to the executors, and a catalog whose NameNode does not answer or
 * whose policy HDFS lacks fails with the device and the fix. Planned partitions prefer the hosts
 * holding their blocks (docs/distributed-storage.md, "Locality"). An integration test only so that
 * it shares the failsafe JVM's MiniDFS with {@link HdfsLocalClusterIT}: a cluster start is seconds
 * of CI.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkHdfsPoolIT {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  private Path dir;
  private SparkSession spark;

  private static String pool(String nn, String policy) {
    return SparkTestTables.NVME
        + """

        [[device]]
        id = "fast"
        uri = "%1$s/mosaic/fast"
        storage_policy = "%2$s"
        capacity = "1 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "60 ct"

        [[device]]
        id = "archive"
        uri = "%1$s/mosaic/archive"
        storage_policy = "COLD"
        capacity = "2 GB"
        threads = 1
        codec = "zstd"
        cost_per_gb = "2 ct"
        """
            .formatted(nn, policy);
  }

  private static String nn() {
    return HDFS.uri().toString().replaceAll("/$", "");
  }

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    Files.createDirectories(dir.resolve("pool/nvme"));
    Path good = Files.writeString(dir.resolve("devices.toml"), pool(nn(), "ALL_SSD"));
    // Port 1 on this host: nothing listens there.
    Path gone = Files.writeString(dir.resolve("gone.toml"), pool("hdfs://127.0.0.1:1", "ALL_SSD"));
    Path badPolicy = Files.writeString(dir.resolve("bad.toml"), pool(nn(), "FASTEST"));
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-hdfs-pool")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2");
    // The client settings of the cluster (MiniHdfs): one replica, small blocks, ...
    MiniHdfs.CLIENT_SETTINGS.forEach((k, v) -> builder.config("spark.hadoop." + k, v));
    String local = dir.resolve("warehouse").toString();
    for (var catalog :
        List.of(
            List.of("mosaic", good, local),
            List.of("gone", gone, local),
            List.of("bad", badPolicy, local),
            // Namespaces and tables on HDFS too.
            List.of("onhdfs", good, nn() + "/catalog"))) {
      String name = (String) catalog.get(0);
      builder
          .config("spark.sql.catalog." + name, MosaicCatalog.class.getName())
          .config("spark.sql.catalog." + name + ".devices", catalog.get(1).toString())
          .config("spark.sql.catalog." + name + ".warehouse", catalog.get(2).toString());
    }
    spark = builder.getOrCreate();
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private MosaicCatalog catalog(String name) {
    return (MosaicCatalog) spark.sessionState().catalogManager().catalog(name);
  }

  @Test
  void aCatalogLoadsAndListsAPoolWithHdfsDevicesAndShipsItsSettings() throws Exception {
    spark.sql("CREATE NAMESPACE mosaic.hdfs");
    assertThat(spark.sql("SHOW NAMESPACES IN mosaic").collectAsList())
        .extracting(r -> r.getString(0))
        .contains("hdfs");
    List<Device> devices = catalog("mosaic").pool().devices();
    assertThat(devices).extracting(Device::id).containsExactly("nvme", "fast", "archive");
    assertThat(devices.get(1).spec().location().toString()).isEqualTo(nn() + "/mosaic/fast");
    var fs = HDFS.fileSystem();
    assertThat(fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/mosaic/fast")).getName())
        .isEqualTo("ALL_SSD");
    assertThat(fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/mosaic/archive")).getName())
        .isEqualTo("COLD");

    spark.sql(
        "CREATE TABLE mosaic.hdfs.t (id BIGINT, name STRING)"
            + " TBLPROPERTIES ('default_device' = 'nvme')");
    assertThat(spark.sql("SHOW TABLES IN mosaic.hdfs").collectAsList())
        .extracting(r -> r.getString(1))
        .containsExactly("t");

    // Rows written to a table whose segments go to the HDFS device, and read back.
    spark.sql(
        "CREATE TABLE mosaic.hdfs.on_hdfs (id BIGINT, name STRING)"
            + " TBLPROPERTIES ('default_device' = 'fast')");
    spark.sql(
        "INSERT INTO mosaic.hdfs.on_hdfs SELECT id, concat('n', id) FROM range(0, 5000, 1, 2)");
    assertThat(
            spark
                .sql("SELECT count(*), sum(id), max(name) FROM mosaic.hdfs.on_hdfs")
                .collectAsList()
                .get(0)
                .toString())
        .isEqualTo("[5000,12497500,n999]");
    List<org.apache.hadoop.fs.LocatedFileStatus> segments = new java.util.ArrayList<>();
    var files = fs.listFiles(new org.apache.hadoop.fs.Path("/mosaic/fast"), true);
    while (files.hasNext()) {
      var f = files.next();
      if (f.getPath().getName().endsWith(".parquet")) {
        segments.add(f);
      }
    }
    assertThat(segments).as("the table's segments on the HDFS device").isNotEmpty();
    for (var f : segments) {
      for (var block : f.getBlockLocations()) {
        assertThat(block.getStorageTypes())
            .as(f.getPath().toString())
            .containsOnly(org.apache.hadoop.fs.StorageType.SSD);
      }
    }

    // What an executor gets: the spark.hadoop.* settings, after Java serialization.
    MosaicSparkTable table =
        (MosaicSparkTable) catalog("mosaic").loadTable(Identifier.of(new String[] {"hdfs"}, "t"));
    MosaicOptions shipped = roundTrip(table.options());
    assertThat(shipped.hadoop())
        .containsEntry("dfs.replication", "1")
        .containsEntry("dfs.blocksize", Long.toString(MiniHdfs.BLOCK_SIZE));
    assertThat(shipped.hadoopConfiguration().getInt("dfs.replication", 3)).isEqualTo(1);
    assertThat(shipped.pool().device("fast").spec().location())
        .isEqualTo(devices.get(1).spec().location());
  }

  /**
   * A table whose metadata is on HDFS too: saved to and loaded from its {@code hdfs://} location,
   * appended to by a second job, kept with the lock-free protocol (docs/format.md, "Commits without
   * POSIX locks"), and its scans traced on HDFS.
   */
  @Test
  void aTableAtAnHdfsLocationIsWrittenAppendedAndReadLockFree() throws Exception {
    String location = nn() + "/warehouse/events";
    String devices = dir.resolve("devices.toml").toString();
    spark
        .range(0, 3000, 1, 2)
        .selectExpr("id", "concat('e', id) AS name")
        .write()
        .format("mosaic")
        .option("devices", devices)
        .option("default_device", "fast")
        .save(location);
    spark
        .range(3000, 4000, 1, 2)
        .selectExpr("id", "concat('e', id) AS name")
        .write()
        .format("mosaic")
        .option("devices", devices)
        .mode("append")
        .save(location);
    var back = spark.read().format("mosaic").option("devices", devices).load(location);
    assertThat(back.selectExpr("count(*)", "sum(id)", "count(distinct name)").first().toString())
        .isEqualTo("[4000,7998000,4000]");
    io.mosaic.table.MosaicTable table =
        io.mosaic.table.MosaicTable.open(location, catalog("mosaic").pool());
    assertThat(table.lockFree()).isTrue();
    assertThat(table.versions()).containsExactly(1L, 2L, 3L);
    var fs = HDFS.fileSystem();
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/warehouse/events/_manifests"))).isTrue();
    assertThat(io.mosaic.trace.TraceLog.of(table).read(1)).isNotEmpty();
  }

  /**
   * A catalog whose warehouse is an {@code hdfs://} URI: namespaces and tables are there, tables
   * take the lock-free protocol, and the path-based source reaches the same table by its URI.
   */
  @Test
  void aCatalogWhoseWarehouseIsOnHdfsKeepsItsTablesThere() throws Exception {
    spark.sql("CREATE NAMESPACE onhdfs.w");
    spark.sql(
        "CREATE TABLE onhdfs.w.t (id BIGINT, name STRING) TBLPROPERTIES ('default_device' = 'fast')");
    spark.sql("INSERT INTO onhdfs.w.t SELECT id, concat('n', id) FROM range(0, 3000, 1, 2)");
    spark.sql("INSERT INTO onhdfs.w.t SELECT id, 'm' FROM range(3000, 4000, 1, 2)");
    assertThat(spark.sql("SHOW TABLES IN onhdfs.w").collectAsList())
        .extracting(r -> r.getString(1))
        .containsExactly("t");
    assertThat(
            spark
                .sql("SELECT count(*), sum(id), count_if(name = 'm') FROM onhdfs.w.t")
                .first()
                .toString())
        .isEqualTo("[4000,7998000,1000]");
    var fs = HDFS.fileSystem();
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/catalog/w/t/_manifests"))).isTrue();
    String location = nn() + "/catalog/w/t";
    MosaicTable table = MosaicTable.open(location, catalog("onhdfs").pool());
    assertThat(table.lockFree()).isTrue();
    assertThat(table.latest().version()).isEqualTo(3);
    String devices = dir.resolve("devices.toml").toString();
    assertThat(spark.read().format("mosaic").option("devices", devices).load(location).count())
        .isEqualTo(4000);

    assertThatThrownBy(() -> spark.sql("ALTER TABLE onhdfs.w.t RENAME TO w.u"))
        .hasMessageContaining("cannot rename table 'w.t'")
        .hasMessageContaining("CREATE TABLE ... AS SELECT");
    spark.sql("DROP TABLE onhdfs.w.t");
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/catalog/w/t"))).isFalse();
    spark.sql("DROP NAMESPACE onhdfs.w");
    assertThat(spark.sql("SHOW NAMESPACES IN onhdfs").collectAsList()).isEmpty();
  }

  @Test
  void plannedPartitionsPreferTheHostsHoldingTheirBlocks() throws Exception {
    spark.sql("CREATE NAMESPACE mosaic.loc");
    // Columns on two HDFS devices and on the local one.
    spark.sql(
        "CREATE TABLE mosaic.loc.t (id BIGINT, name STRING, note STRING)"
            + " TBLPROPERTIES ('default_device' = 'fast',"
            + " 'column.name.device' = 'archive', 'column.note.device' = 'nvme')");
    spark.sql(
        "INSERT INTO mosaic.loc.t"
            + " SELECT id, concat('n', id), concat('note ', id % 7) FROM range(0, 10000, 1, 2)");
    MosaicSparkTable table =
        (MosaicSparkTable) catalog("mosaic").loadTable(Identifier.of(new String[] {"loc"}, "t"));
    MosaicTable mosaic = MosaicTable.open(table.options().location(), table.options().pool());
    InputPartition[] partitions =
        MosaicScanTest.scanOf(spark.table("mosaic.loc.t")).batch().planInputPartitions();
    // Below Spark's 4 MB least split this is one partition; core's tests cut several.
    assertThat(partitions).isNotEmpty();
    for (InputPartition p : partitions) {
      ScanRequest request = ((MosaicInputPartition) p).request();
      Manifest manifest = mosaic.version(((MosaicInputPartition) p).version());
      assertThat(p.preferredLocations())
          .as(
              "preferred locations of row groups [%d, %d)",
              request.fromRowGroup(), request.toRowGroup())
          .isNotEmpty()
          .containsExactlyInAnyOrderElementsOf(
              SegmentHosts.of(
                  HDFS.fileSystem(),
                  table.options().pool(),
                  manifest,
                  request.columns(),
                  request.fromRowGroup(),
                  request.toRowGroup()));
    }
    // Only the column on the local device: no host to prefer.
    InputPartition[] local =
        MosaicScanTest.scanOf(spark.table("mosaic.loc.t").select("note"))
            .batch()
            .planInputPartitions();
    assertThat(local).isNotEmpty().allSatisfy(p -> assertThat(p.preferredLocations()).isEmpty());
  }

  private static MosaicOptions roundTrip(MosaicOptions options) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(options);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (MosaicOptions) in.readObject();
    }
  }

  @Test
  void anUnreachableNameNodeAndAnUnknownPolicyNameTheCatalogTheDeviceAndTheFix() {
    assertThatThrownBy(() -> spark.sql("SHOW NAMESPACES IN gone").collectAsList())
        .isInstanceOf(MosaicException.class)
        .satisfies(
            e ->
                assertThat(((MosaicException) e).kind())
                    .isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageContaining("catalog gone (spark.sql.catalog.gone.devices)")
        .hasMessageContaining("device 'fast' field 'uri'")
        .hasMessageContaining("hdfs://127.0.0.1:1/mosaic/fast")
        .hasMessageContaining("check the host and port in the URI");
    assertThatThrownBy(() -> spark.sql("SHOW NAMESPACES IN bad").collectAsList())
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("catalog bad (spark.sql.catalog.bad.devices)")
        .hasMessageContaining("device 'fast' field 'storage_policy': bad value \"FASTEST\"")
        .hasMessageContaining("use one of");
  }
}
