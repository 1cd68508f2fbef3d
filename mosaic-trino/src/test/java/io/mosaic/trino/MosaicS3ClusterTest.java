package io.mosaic.trino;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.storage.SeaweedS3;
import io.mosaic.storage.Storage;
import io.mosaic.trino.storage.TrinoStorage;
import io.mosaic.trino.storage.TrinoStorageOpener;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.server.testing.TestingTrinoServer;
import io.trino.spi.TrinoException;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.TestingConnectorContext;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A coordinator and two workers whose {@code mosaic} catalog keeps its devices and its metadata on
 * S3 (SeaweedFS) and reaches them through Trino's own S3 file system ({@code
 * fs.native-s3.enabled=true}, docs/distributed-storage.md "Trino catalogs on S3"): TPC-H SF 0.01
 * loaded by CREATE TABLE AS over two devices (two prefixes of one bucket) and the TPC-H queries
 * ({@link TpchAnswers#onRemoteStorage}) answering what the {@code tpch} catalog answers. Hadoop's
 * S3A is not on this module's class path, so every byte went through Trino's file system; the test
 * checks it did so through {@link TrinoStorage} with exclusive create (the lock-free commits'
 * conditional PUT). Also the catalog's errors when the endpoint, the credentials or a device's
 * class is wrong.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicS3ClusterTest {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();

  /** Queries run this many at a time: at SF 0.01 a query is mostly scheduling and round trips. */
  private static final int PARALLEL = 4;

  /** Where each TPC-H table goes: both devices hold tables, lineitem on one, orders the other. */
  private static final Map<String, String> DEVICE_OF =
      Map.of(
          "lineitem", "hot",
          "orders", "warm",
          "partsupp", "warm",
          "part", "hot",
          "customer", "hot",
          "supplier", "warm",
          "nation", "hot",
          "region", "warm");

  private final long started = System.nanoTime();
  private final String folder = "trino-" + System.nanoTime();
  private Path dir;
  private DistributedQueryRunner runner;
  private ExecutorService pool;
  private final Map<Integer, Future<MaterializedResult>> onS3 = new HashMap<>();

  /** Two devices on S3 under {@code s3://mosaic/<folder>/hot} and {@code .../warm}. */
  private Path devices(String bucket, String folder) throws Exception {
    return Files.writeString(
        dir.resolve("s3-" + bucket + ".toml"),
        """
        [[device]]
        id = "hot"
        uri = "s3://%1$s/%2$s/hot"
        storage_class = "STANDARD"
        capacity = "4 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "2 ct"

        [[device]]
        id = "warm"
        uri = "s3://%1$s/%2$s/warm"
        capacity = "8 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        """
            .formatted(bucket, folder));
  }

  /** The catalog's properties: Trino's S3 file system, configured as a Hive or Iceberg catalog. */
  private Map<String, String> catalog(Path devices, String metadata, URI endpoint) {
    Map<String, String> p = new HashMap<>();
    p.put("mosaic.devices-config", devices.toString());
    p.put("mosaic.metadata-directory", metadata);
    p.put("mosaic.decode-threads", "2");
    p.put("fs.native-s3.enabled", "true");
    p.put("s3.endpoint", endpoint.toString());
    p.put("s3.region", "us-east-1");
    p.put("s3.path-style-access", "true");
    p.put("s3.aws-access-key", SeaweedS3.ACCESS_KEY);
    p.put("s3.aws-secret-key", SeaweedS3.SECRET_KEY);
    return p;
  }

  private String metadata() {
    return "s3://" + SeaweedS3.BUCKET + "/" + folder + "/metadata";
  }

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory(Path.of("target"), "s3-trino").toAbsolutePath();
    runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("mosaic").setSchema("tpch").build())
            .setWorkerCount(2)
            .build();
    MosaicQueryRunner.installTpch(runner);
    runner.installPlugin(new MosaicPlugin());
    runner.createCatalog(
        "mosaic", "mosaic", catalog(devices(SeaweedS3.BUCKET, folder), metadata(), S3.endpoint()));
    long load = System.nanoTime();
    runner.execute("CREATE SCHEMA mosaic.tpch");
    pool = Executors.newFixedThreadPool(PARALLEL);
    List<Future<MaterializedResult>> loads = new ArrayList<>();
    for (String t : MosaicTpchQueriesTest.TABLES) {
      String sql =
          "CREATE TABLE mosaic.tpch."
              + t
              + " WITH (default_device = '"
              + DEVICE_OF.get(t)
              + "') AS SELECT * FROM tpch.tiny."
              + t;
      loads.add(pool.submit(() -> runner.execute(sql)));
    }
    for (Future<MaterializedResult> done : loads) {
      done.get();
    }
    System.out.printf(
        Locale.ROOT,
        "TPC-H SF 0.01 loaded on S3 in %.1f s (cluster up in %.1f s)%n",
        (System.nanoTime() - load) / 1e9,
        (load - started) / 1e9);
  }

  @AfterAll
  void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
    if (runner != null) {
      runner.close();
    }
    System.out.printf(
        Locale.ROOT, "MosaicS3ClusterTest: %.1f s%n", (System.nanoTime() - started) / 1e9);
  }

  static List<Integer> queries() {
    return TpchAnswers.onRemoteStorage();
  }

  @ParameterizedTest(name = "q{0}")
  @MethodSource("queries")
  void tpchQueryOnS3AnswersAsTheTpchCatalog(int q) throws Exception {
    if (onS3.isEmpty()) {
      // All at once, PARALLEL - 1 at a time beside the reference the test thread asks for.
      Session session = testSessionBuilder().setCatalog("mosaic").setSchema("tpch").build();
      for (int n : queries()) {
        onS3.put(n, pool.submit(() -> runner.execute(session, TraceGenerator.tpchQuery(n))));
      }
    }
    MaterializedResult expected = TpchAnswers.of(runner, "tiny", q);
    MaterializedResult actual = onS3.get(q).get();
    assertThat(actual.getRowCount()).isEqualTo(expected.getRowCount());
    assertEqualsIgnoreOrder(actual.getMaterializedRows(), expected.getMaterializedRows());
  }

  /**
   * Every node reaches the devices and the metadata through Trino's S3 file system, which creates
   * exclusively on SeaweedFS (so commits publish by conditional PUT), and S3A could not have: it is
   * not on the class path.
   */
  @Test
  void everyNodeReadsAndWritesThroughTrinosS3FileSystem() throws Exception {
    assertThatThrownBy(() -> Class.forName("org.apache.hadoop.fs.s3a.S3AFileSystem"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(runner.getServers()).hasSize(3);
    // The coordinator's connector (the test server hands out no worker's); the workers' catalogs
    // are built from the same properties by the same module.
    for (TestingTrinoServer server : List.of(runner.getCoordinator())) {
      DevicePool devices = ((MosaicConnector) server.getConnector("mosaic")).storage().pool();
      assertThat(devices.storages()).isInstanceOf(TrinoStorageOpener.class);
      List<Storage> storages = new ArrayList<>();
      devices.devices().stream().map(Device::storage).forEach(storages::add);
      storages.add(devices.storages().shared(URI.create(metadata())));
      assertThat(storages)
          .allSatisfy(
              s -> {
                assertThat(s).isInstanceOf(TrinoStorage.class);
                assertThat(s.capabilities().exclusiveCreate()).as(s.toString()).isTrue();
              });
    }
    // The segments are under both prefixes, the manifests under the metadata's.
    try (S3Client s3 = client()) {
      for (String prefix : List.of("hot", "warm", "metadata")) {
        List<String> keys =
            s3
                .listObjectsV2Paginator(
                    b -> b.bucket(SeaweedS3.BUCKET).prefix(folder + "/" + prefix + "/"))
                .contents()
                .stream()
                .map(S3Object::key)
                .toList();
        assertThat(keys).as(prefix).isNotEmpty();
        if (!prefix.equals("metadata")) {
          assertThat(keys).as(prefix).anyMatch(k -> k.endsWith(".parquet"));
        }
      }
    }
  }

  private static S3Client client() {
    return SeaweedS3.Sdk.client(S3.endpoint(), SeaweedS3.ACCESS_KEY, SeaweedS3.SECRET_KEY);
  }

  @Test
  void aClosedEndpointStopsTheCatalogNamingTheDeviceAndTheProperty() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Map<String, String> properties =
        catalog(
            devices(SeaweedS3.BUCKET, folder + "-closed"),
            metadata(),
            URI.create("http://127.0.0.1:" + port));
    // Few retries, so a refused connection fails in a second (Trino's default retries for long).
    properties.put("s3.max-error-retries", "1");
    long start = System.nanoTime();
    assertThatThrownBy(() -> create(properties))
        .isInstanceOf(TrinoException.class)
        .hasMessageStartingWith("catalog s3bad cannot start: ")
        .hasMessageContaining("device 'hot'")
        .hasMessageContaining("http://127.0.0.1:" + port + ") is unreachable")
        .hasMessageContaining("check s3.endpoint");
    System.out.printf(
        Locale.ROOT,
        "a closed endpoint stopped the catalog in %d ms%n",
        (System.nanoTime() - start) / 1_000_000);
  }

  @Test
  void refusedCredentialsStopTheCatalogNamingTheDeviceAndTheProperties() throws Exception {
    Map<String, String> properties =
        catalog(devices(SeaweedS3.BUCKET, folder + "-denied"), metadata(), S3.endpoint());
    properties.put("s3.aws-secret-key", "not-the-secret");
    assertThatThrownBy(() -> create(properties))
        .isInstanceOf(TrinoException.class)
        .hasMessageStartingWith("catalog s3bad cannot start: ")
        .hasMessageContaining("device 'hot'")
        .hasMessageContaining("S3 refused access to s3://mosaic/" + folder + "-denied/hot")
        .hasMessageContaining("s3.aws-secret-key");
  }

  @Test
  void aDeviceClassOtherThanTheCatalogsIsRefusedWithTheFix() throws Exception {
    Path toml = devices(SeaweedS3.BUCKET, folder + "-class");
    Files.writeString(toml, Files.readString(toml).replace("\"STANDARD\"", "\"STANDARD_IA\""));
    assertThatThrownBy(() -> create(catalog(toml, metadata(), S3.endpoint())))
        .isInstanceOf(TrinoException.class)
        .hasMessageContaining("device 'hot'")
        .hasMessageContaining("storage_class \"STANDARD_IA\"")
        .hasMessageContaining("s3.storage-class=STANDARD_IA");
  }

  private static void create(Map<String, String> properties) {
    new MosaicConnectorFactory().create("s3bad", properties, new TestingConnectorContext());
  }
}
