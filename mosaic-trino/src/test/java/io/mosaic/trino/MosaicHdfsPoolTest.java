package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.scan.ScanRequest;
import io.mosaic.scan.SegmentHosts;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.table.MosaicTable;
import io.trino.spi.HostAddress;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.Connector;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.TestingConnectorContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A catalog whose pool has devices on HDFS (docs/trino.md, "Devices on HDFS"): the client's
 * settings come from {@code mosaic.hadoop.config-resources} and {@code mosaic.hadoop.settings};
 * every node opens the pool at startup, and a catalog whose NameNode does not answer or whose
 * policy HDFS lacks does not start, with the device and the fix. Splits carry the hosts holding
 * their blocks as addresses (docs/distributed-storage.md, "Locality").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicHdfsPoolTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  /**
   * The local device beside the HDFS ones, holding the pool's metadata, in {@code devices/local} of
   * the pool file's folder (shared with {@link MosaicHdfsClusterTest}).
   */
  static final String LOCAL_DEVICE =
      """
      [[device]]
      id = "local"
      path = "devices/local"
      capacity = "10 GB"
      threads = 2
      codec = "zstd"
      cost_per_gb = "100 ct"
      metadata = true
      """;

  private static String nn() {
    return HDFS.uri().toString().replaceAll("/$", "");
  }

  private static Path pool(String name, String nn, String policy) throws Exception {
    Files.createDirectories(dir.resolve("devices/local"));
    return Files.writeString(
        dir.resolve(name + ".toml"),
        LOCAL_DEVICE
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
                .formatted(nn, policy));
  }

  /** The catalog's properties: the cluster's client settings as a site file and as pairs. */
  private static Map<String, String> properties(Path devices) throws Exception {
    Path site =
        Files.writeString(
            dir.resolve("hdfs-site.xml"),
            """
            <configuration>
              <property><name>dfs.replication</name><value>1</value></property>
            </configuration>
            """);
    Map<String, String> properties = new HashMap<>();
    properties.put("mosaic.devices-config", devices.toString());
    properties.put("mosaic.metadata-directory", dir.resolve("metadata").toString());
    properties.put("mosaic.decode-threads", "2");
    properties.put("mosaic.hadoop.config-resources", site.toString());
    properties.put("mosaic.hadoop.settings", "dfs.blocksize=" + MiniHdfs.BLOCK_SIZE);
    return properties;
  }

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir, properties(pool("hdfs", nn(), "ALL_SSD")));
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  @Test
  void aCatalogWithHdfsDevicesStartsOnEveryNodeAndServesTables() throws Exception {
    var fs = HDFS.fileSystem();
    assertThat(fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/mosaic/fast")).getName())
        .isEqualTo("ALL_SSD");
    assertThat(fs.getStoragePolicy(new org.apache.hadoop.fs.Path("/mosaic/archive")).getName())
        .isEqualTo("COLD");
    runner.execute("CREATE SCHEMA mosaic.hdfs");
    assertThat(runner.execute("SHOW SCHEMAS FROM mosaic").getOnlyColumnAsSet()).contains("hdfs");
    runner.execute(
        "CREATE TABLE mosaic.hdfs.nation (n_nationkey BIGINT, n_name VARCHAR)"
            + " WITH (default_device = 'local')");
    assertThat(runner.execute("SHOW TABLES FROM mosaic.hdfs").getOnlyColumnAsSet())
        .containsExactly("nation");

    // Rows written to a table whose segments go to the HDFS device, and read back.
    runner.execute(
        "CREATE TABLE mosaic.hdfs.on_hdfs (id BIGINT, name VARCHAR)"
            + " WITH (default_device = 'fast')");
    runner.execute(
        "INSERT INTO mosaic.hdfs.on_hdfs"
            + " SELECT x, 'n' || CAST(x AS VARCHAR) FROM UNNEST(sequence(0, 4999)) AS t(x)");
    assertThat(
            runner
                .execute("SELECT count(*), sum(id), max(name) FROM mosaic.hdfs.on_hdfs")
                .getMaterializedRows()
                .get(0)
                .getFields())
        .containsExactly(5000L, 12497500L, "n999");
    int segments = 0;
    var files = fs.listFiles(new org.apache.hadoop.fs.Path("/mosaic/fast"), true);
    while (files.hasNext()) {
      var f = files.next();
      if (f.getPath().getName().endsWith(".parquet")) {
        segments++;
        for (var block : f.getBlockLocations()) {
          assertThat(block.getStorageTypes())
              .as(f.getPath().toString())
              .containsOnly(org.apache.hadoop.fs.StorageType.SSD);
        }
      }
    }
    assertThat(segments).as("the table's segments on the HDFS device").isPositive();
    // The catalog's pool is the whole devices.toml: an unknown device lists the HDFS ones.
    assertThatThrownBy(
            () ->
                runner.execute(
                    "CREATE TABLE mosaic.hdfs.region (r_regionkey BIGINT)"
                        + " WITH (default_device = 'nope')"))
        .hasMessageContaining("unknown device 'nope'")
        .hasMessageContaining("local, fast, archive");
  }

  @Test
  void splitsCarryTheHostsHoldingTheirBlocksAsAddresses() throws Exception {
    runner.execute("CREATE SCHEMA mosaic.loc");
    for (String device : List.of("fast", "local")) {
      runner.execute(
          "CREATE TABLE mosaic.loc.on_"
              + device
              + " WITH (default_device = '"
              + device
              + "', row_group_rows = 1000)"
              + " AS SELECT x AS id, 'n' || CAST(x AS VARCHAR) AS name"
              + " FROM UNNEST(sequence(0, 9999)) AS t(x)");
    }
    // A connector of its own over the catalog's directories, with splits of about 16 kB.
    Path devices = dir.resolve("hdfs.toml");
    Map<String, String> properties = properties(devices);
    properties.put("mosaic.target-split-size", "16kB");
    Connector connector =
        new MosaicConnectorFactory().create("mosaic", properties, new TestingConnectorContext());
    try {
      DevicePool pool = DevicePool.load(devices, HDFS.conf());
      Manifest manifest = MosaicTable.open(dir.resolve("metadata/loc/on_fast"), pool).latest();
      List<MosaicSplit> splits = MosaicQueryRunner.splits(connector, "loc", "on_fast");
      assertThat(splits).hasSizeGreaterThan(1);
      for (MosaicSplit split : splits) {
        ScanRequest request = split.request();
        // A preference only: any worker can read the split.
        assertThat(split.isRemotelyAccessible()).isTrue();
        assertThat(split.getAddresses())
            .as("addresses of row groups [%d, %d)", request.fromRowGroup(), request.toRowGroup())
            .isNotEmpty()
            .containsExactlyInAnyOrderElementsOf(
                SegmentHosts.of(
                        HDFS.fileSystem(),
                        pool,
                        manifest,
                        request.columns(),
                        request.fromRowGroup(),
                        request.toRowGroup())
                    .stream()
                    .map(HostAddress::fromString)
                    .toList());
      }
      assertThat(MosaicQueryRunner.splits(connector, "loc", "on_local"))
          .isNotEmpty()
          .allSatisfy(s -> assertThat(s.getAddresses()).isEmpty());
    } finally {
      connector.shutdown();
    }
    // Trino schedules splits with addresses that may name no worker and reads them all.
    assertThat(runner.execute("SELECT count(*) FROM mosaic.loc.on_fast").getOnlyValue())
        .isEqualTo(10000L);
  }

  @Test
  void anUnreachableNameNodeAndAnUnknownPolicyStopTheCatalogWithTheDeviceAndTheFix()
      throws Exception {
    assertThatThrownBy(() -> create(pool("gone", "hdfs://127.0.0.1:1", "ALL_SSD")))
        .isInstanceOf(TrinoException.class)
        .satisfies(
            e ->
                assertThat(((TrinoException) e).getErrorCode())
                    .isEqualTo(MosaicErrorCode.MOSAIC_INVALID_ARGUMENT.toErrorCode()))
        .hasMessageStartingWith("catalog gone cannot start: ")
        .hasMessageContaining("device 'fast' field 'uri'")
        .hasMessageContaining("hdfs://127.0.0.1:1/mosaic/fast")
        .hasMessageContaining("check the host and port in the URI");
    assertThatThrownBy(() -> create(pool("bad", nn(), "FASTEST")))
        .isInstanceOf(TrinoException.class)
        .satisfies(
            e ->
                assertThat(((TrinoException) e).getErrorCode())
                    .isEqualTo(MosaicErrorCode.MOSAIC_INVALID_ARGUMENT.toErrorCode()))
        .hasMessageContaining("device 'fast' field 'storage_policy': bad value \"FASTEST\"")
        .hasMessageContaining("use one of");
    Map<String, String> missing = properties(dir.resolve("hdfs.toml"));
    missing.put("mosaic.hadoop.config-resources", dir.resolve("no-site.xml").toString());
    assertThatThrownBy(() -> create("nosite", missing))
        .isInstanceOf(TrinoException.class)
        .hasMessageContaining("mosaic.hadoop.config-resources: " + dir.resolve("no-site.xml"))
        .hasMessageContaining("is not a file");
  }

  private static void create(Path devices) throws Exception {
    String name = devices.getFileName().toString().replace(".toml", "");
    create(name, properties(devices));
  }

  private static void create(String name, Map<String, String> properties) {
    new MosaicConnectorFactory().create(name, properties, new TestingConnectorContext()).shutdown();
  }
}
