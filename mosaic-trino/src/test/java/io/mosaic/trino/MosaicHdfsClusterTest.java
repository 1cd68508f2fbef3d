package io.mosaic.trino;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Key;
import io.airlift.node.NodeInfo;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.device.DevicePool;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.execution.StageInfo;
import io.trino.execution.TaskInfo;
import io.trino.spi.QueryId;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Trino cluster of a coordinator and two workers, each with its own Mosaic connector, on one pool
 * whose devices are HDFS directories with the policies ALL_SSD, HOT and COLD (docs/trino.md,
 * "Devices on HDFS"; docs/distributed-storage.md): tables written and read by every node,
 * concurrent INSERTs, a placement and a migration while queries read, and the TPC-H queries ({@link
 * TpchAnswers#onRemoteStorage}) answering on HDFS what the {@code tpch} catalog answers, as {@link
 * MosaicTpchQueriesTest} shows they do on a local device ({@link TpchAnswers}: the catalog's
 * answers, run once per test JVM).
 *
 * <p>The TPC-H scale is {@code tiny} (SF 0.01) for CI; {@code -Dmosaic.tpch.hdfs.scale=0.1} runs SF
 * 0.1, the acceptance scale of docs/distributed-storage.md.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicHdfsClusterTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();
  @RegisterExtension static final HdfsTrinoCluster TRINO = new HdfsTrinoCluster(HDFS);

  private static final String SCALE = System.getProperty("mosaic.tpch.hdfs.scale", "0.01");

  /**
   * The {@code tpch} catalog's schema of {@link #SCALE}; SF 0.01 is "tiny", as for the local suite.
   */
  private static final String TPCH_SCHEMA = SCALE.equals("0.01") ? "tiny" : "sf" + SCALE;

  private DistributedQueryRunner runner;

  /**
   * Queries run this many at a time: on a small machine most of a query at SF 0.01 is waiting
   * (scheduling, exchanges, HDFS round trips), so the CPUs take several.
   */
  private static final int PARALLEL = 4;

  /** Between a reader's queries while columns move. */
  private static final long READER_PAUSE_MILLIS = 250;

  /** Runs the TPC-H queries on HDFS, all submitted by the first TPC-H test. */
  private ExecutorService answers;

  /** Their answers, by query. */
  private final Map<Integer, Future<MaterializedResult>> hdfsAnswers = new HashMap<>();

  private final long started = System.nanoTime();

  /**
   * A local metadata device and the HDFS devices of {@link MiniHdfs#policyDevicesToml(String)}
   * under {@code /folder/}.
   */
  static Path pool(Path dir, MiniHdfs hdfs, String folder) throws Exception {
    Files.createDirectories(dir.resolve("devices/local"));
    return Files.writeString(
        dir.resolve("hdfs.toml"), MosaicHdfsPoolTest.LOCAL_DEVICE + hdfs.policyDevicesToml(folder));
  }

  /**
   * The catalog properties of a pool on MiniDFS with metadata directory {@code metadata}, with the
   * cluster's client settings ({@link MiniHdfs#CLIENT_SETTINGS}): one replica, small blocks, ...
   */
  static Map<String, String> catalog(Path devices, String metadata) {
    Map<String, String> properties = new HashMap<>();
    properties.put("mosaic.devices-config", devices.toString());
    properties.put("mosaic.metadata-directory", metadata);
    properties.put(
        "mosaic.hadoop.settings",
        MiniHdfs.CLIENT_SETTINGS.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(",")));
    return properties;
  }

  @BeforeAll
  void start() throws Exception {
    // The module's shared cluster (HdfsTrinoCluster): the "mosaic" pool, metadata on HDFS.
    runner = TRINO.runner();
    runner.execute("CREATE SCHEMA mosaic.hdfs");
    runner.execute("CREATE SCHEMA mosaic.hdfs_tpch");
    String source = "tpch." + TPCH_SCHEMA + ".";
    long load = System.nanoTime();
    // The generator's rows spread over the three HDFS policies. The CREATE TABLE AS statements run
    // side by side: each is mostly waiting (splits, HDFS round trips).
    List<String> loads = new ArrayList<>();
    for (String t : MosaicTpchQueriesTest.TABLES) {
      loads.add(
          "CREATE TABLE mosaic.hdfs_tpch."
              + t
              + " WITH (default_device = '"
              + MiniHdfs.tpchDevice(t)
              + "') AS SELECT * FROM "
              + source
              + t);
    }
    for (Future<MaterializedResult> done : inParallel(loads.stream().map(this::query).toList())) {
      done.get();
    }
    System.out.printf(
        Locale.ROOT,
        "TPC-H SF %s loaded in %.1f s (cluster and HDFS up in %.1f s, HDFS %.1f s)%n",
        SCALE,
        (System.nanoTime() - load) / 1e9,
        (load - started) / 1e9,
        HDFS.startTime().toMillis() / 1e3);
  }

  /** A model in which "ssd" is far faster than "hot" and "cold", so placing moves columns. */
  static void writeDeviceModel(DevicePool pool) throws Exception {
    Files.createDirectories(pool.modelFile().getParent());
    DeviceModelFile.write(
        pool.modelFile(),
        List.of(
            model("local", 2, 1000, 0.2, Codec.ZSTD),
            model("ssd", 2, 2000, 0.1, Codec.LZ4),
            model("hot", 2, 200, 2, Codec.ZSTD),
            model("cold", 1, 50, 8, Codec.ZSTD)),
        "test model: ssd is 40x faster than cold");
  }

  private static DeviceModel model(
      String id, int threads, double mbps, double latencyMs, Codec codec) {
    return new DeviceModel(
        id,
        threads,
        Bandwidth.ofMegabytesPerSecond(mbps),
        Latency.ofMillis(latencyMs),
        Map.of(codec, new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(mbps * 1.5), 2.5)));
  }

  /** Runs the statements {@link #PARALLEL} at a time. */
  private static <T> List<Future<T>> inParallel(List<Callable<T>> work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
    try {
      return pool.invokeAll(work);
    } finally {
      pool.shutdown();
    }
  }

  private Callable<MaterializedResult> query(String sql) {
    return () -> runner.execute(sql);
  }

  private Callable<MaterializedResult> query(Session session, String sql) {
    return () -> runner.execute(session, sql);
  }

  @AfterAll
  void close() {
    if (answers != null) {
      answers.shutdownNow();
    }
    System.out.printf(
        Locale.ROOT, "MosaicHdfsClusterTest: %.1f s%n", (System.nanoTime() - started) / 1e9);
  }

  private MaterializedResult sql(String sql) {
    return runner.execute(sql);
  }

  @Test
  void createAsAndInsertOnHdfsAreReadBackWithSplitsOnBothWorkers() throws Exception {
    assertThat(runner.getNodeCount()).isEqualTo(3);
    sql(
        "CREATE TABLE mosaic.hdfs.orders WITH (default_device = 'hot') AS"
            + " SELECT * FROM tpch.tiny.orders WHERE o_orderkey < 30000");
    sql("INSERT INTO mosaic.hdfs.orders SELECT * FROM tpch.tiny.orders WHERE o_orderkey >= 30000");
    assertThat(sql("SELECT * FROM mosaic.hdfs.orders").getMaterializedRows())
        .containsExactlyInAnyOrderElementsOf(
            sql("SELECT * FROM tpch.tiny.orders").getMaterializedRows());
    assertBlocksOnTheirDevicesType();

    // Small splits (64 kB) over lineitem's l_comment: the scan's tasks on both workers read rows.
    String query = "SELECT max(l_comment), count(*) FROM mosaic.hdfs_tpch.lineitem";
    var result = runner.executeWithPlan(runner.getDefaultSession(), query);
    assertThat(result.result().getMaterializedRows())
        .isEqualTo(
            sql(query.replace("mosaic.hdfs_tpch", "tpch." + TPCH_SCHEMA)).getMaterializedRows());
    assertThat(scanNodes(result.queryId())).containsAll(workerIds());
  }

  private Set<String> workerIds() {
    return runner.getServers().stream()
        .filter(s -> !s.isCoordinator())
        .map(s -> s.getInstance(Key.get(NodeInfo.class)).getNodeId())
        .collect(Collectors.toSet());
  }

  /** The nodes whose tasks of a table-scan stage read rows. */
  private Set<String> scanNodes(QueryId id) {
    Set<String> nodes = new HashSet<>();
    var info = runner.getCoordinator().getQueryManager().getFullQueryInfo(id);
    for (StageInfo stage : StageInfo.getAllStages(info.getOutputStage())) {
      if (stage.getPlan() == null || stage.getPlan().getPartitionedSources().isEmpty()) {
        continue;
      }
      for (TaskInfo task : stage.getTasks()) {
        if (task.stats().getRawInputPositions() > 0) {
          nodes.add(task.taskStatus().getNodeId());
        }
      }
    }
    return nodes;
  }

  @Test
  void concurrentInsertsFromSeveralClientsAllCommit() throws Exception {
    sql("CREATE TABLE mosaic.hdfs.events (id BIGINT, who VARCHAR) WITH (default_device = 'ssd')");
    int clients = 4;
    int rounds = 3;
    int rows = 1000;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        done.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    long first = ((long) client * rounds + r) * rows;
                    sql(
                        String.format(
                            Locale.ROOT,
                            "INSERT INTO mosaic.hdfs.events SELECT x, 'c%d' FROM"
                                + " UNNEST(sequence(%d, %d)) AS t(x)",
                            client,
                            first,
                            first + rows - 1));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    long n = (long) clients * rounds * rows;
    assertThat(
            sql("SELECT count(*), count(DISTINCT id), sum(id), count(DISTINCT who)"
                    + " FROM mosaic.hdfs.events")
                .getMaterializedRows()
                .get(0)
                .getFields())
        .containsExactly(n, n, n * (n - 1) / 2, (long) clients);
    assertBlocksOnTheirDevicesType();
  }

  @Test
  void placeAndMigrationWhileQueriesReadAnswerEveryQueryRight() throws Exception {
    sql(
        "CREATE TABLE mosaic.hdfs.moving WITH (default_device = 'cold', row_group_rows = 2000)"
            + " AS SELECT * FROM tpch.tiny.orders");
    List<String> queries =
        List.of(
            "SELECT o_orderpriority, sum(o_totalprice), count(*) FROM mosaic.hdfs.moving"
                + " WHERE o_orderdate < DATE '1995-01-01' GROUP BY o_orderpriority",
            "SELECT count(DISTINCT o_custkey), max(o_comment) FROM mosaic.hdfs.moving"
                + " WHERE o_totalprice > 1000");
    List<List<MaterializedRow>> expected = new ArrayList<>();
    for (String q : queries) {
      expected.add(sql(q.replace("mosaic.hdfs.moving", "tpch.tiny.orders")).getMaterializedRows());
      // The scans the placement serves, recorded in the table's trace.
      assertThat(sql(q).getMaterializedRows())
          .containsExactlyInAnyOrderElementsOf(expected.getLast());
    }

    AtomicBoolean moving = new AtomicBoolean(true);
    ExecutorService readers = Executors.newFixedThreadPool(2);
    List<Future<Integer>> answered = new ArrayList<>();
    try {
      for (int r = 0; r < 2; r++) {
        int reader = r;
        answered.add(
            readers.submit(
                () -> {
                  int n = 0;
                  // At least one query after the moves, whatever the timing.
                  do {
                    int q = (n + reader) % queries.size();
                    assertThat(sql(queries.get(q)).getMaterializedRows())
                        .as("query %d while moving", q)
                        .containsExactlyInAnyOrderElementsOf(expected.get(q));
                    n++;
                    // Paced: readers flat out take the CPUs from the moves they are to overlap.
                    Thread.sleep(READER_PAUSE_MILLIS);
                  } while (moving.get());
                  return n;
                }));
      }
      sql("CALL mosaic.system.place(schema_name => 'hdfs', table_name => 'moving', apply => true)");
      // The columns the queries read leave the slow device for the 40x faster one.
      Map<String, String> placed = devices("moving");
      assertThat(placed)
          .containsEntry("o_orderpriority", "ssd")
          .containsEntry("o_totalprice", "ssd");
      // Then a migration of every column the place moved onto the HDFS device "hot".
      String moves =
          placed.entrySet().stream()
              .filter(e -> !e.getValue().equals("cold"))
              .map(e -> e.getKey() + "=hot")
              .collect(Collectors.joining(", "));
      sql(
          "CALL mosaic.system.move_columns(schema_name => 'hdfs', table_name => 'moving',"
              + " placement => '"
              + moves
              + "')");
      assertThat(devices("moving").values()).isSubsetOf("hot", "cold").contains("hot");
    } finally {
      moving.set(false);
      readers.shutdown();
    }
    int total = 0;
    for (Future<Integer> f : answered) {
      total += f.get();
    }
    System.out.println("queries answered while moving: " + total);
    assertThat(total).isGreaterThanOrEqualTo(2);
    assertBlocksOnTheirDevicesType();
  }

  private Map<String, String> devices(String table) {
    Map<String, String> devices = new HashMap<>();
    for (MaterializedRow r :
        sql("SELECT column_name, device FROM mosaic.hdfs.\"" + table + "$placement\"")
            .getMaterializedRows()) {
      assertThat(devices.put((String) r.getField(0), (String) r.getField(1)))
          .as("one device per column")
          .isNull();
    }
    return devices;
  }

  /** Every block of every segment on an HDFS device lies on its policy's storage type. */
  private static void assertBlocksOnTheirDevicesType() throws Exception {
    for (var device : MiniHdfs.POLICY_DEVICES.entrySet()) {
      assertThat(HDFS.blockTypes("/mosaic/" + device.getKey()))
          .allSatisfy((file, types) -> assertThat(types).as(file).containsOnly(device.getValue()));
    }
  }

  static List<Integer> queries() {
    return TpchAnswers.onRemoteStorage();
  }

  @ParameterizedTest(name = "q{0}")
  @MethodSource("queries")
  void tpchQueryOnHdfsAnswersAsTheTpchCatalog(int q) throws Exception {
    Future<MaterializedResult> onHdfs = onHdfs(q);
    MaterializedResult expected = TpchAnswers.of(runner, TPCH_SCHEMA, q);
    MaterializedResult actual = onHdfs.get();
    assertThat(actual.getRowCount()).isEqualTo(expected.getRowCount());
    assertEqualsIgnoreOrder(actual.getMaterializedRows(), expected.getMaterializedRows());
    System.out.printf("q%02d: %d rows%n", q, actual.getRowCount());
  }

  /**
   * Query {@code q}'s answer on the HDFS devices: the first call submits them all, run {@link
   * #PARALLEL} - 1 at a time beside the reference answer the test thread asks for.
   */
  private Future<MaterializedResult> onHdfs(int q) {
    if (answers == null) {
      answers = Executors.newFixedThreadPool(PARALLEL - 1);
      Session session = testSessionBuilder().setCatalog("mosaic").setSchema("hdfs_tpch").build();
      for (int n : queries()) {
        hdfsAnswers.put(n, answers.submit(query(session, TraceGenerator.tpchQuery(n))));
      }
    }
    return hdfsAnswers.get(q);
  }
}
