package io.mosaic.trino;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-H over tables on an emulated cold device (docs/cold-storage.md; Skipper, VLDB 2016): one
 * catalog per group scheduling policy, each with its own cold device (4 groups, 50 ms switches),
 * and a plain catalog on a warm device. Concurrent clients' queries return exactly the plain
 * catalog's rows under every policy, and the rank policy switches groups fewer times than the naive
 * path ({@code policy = "none"}: reads in arrival order) for the same workload. Bounds on the
 * devices' switch counters, not on time. One node, so each cold device has one scheduler (the page
 * source's {@code isBlocked()} is the future of a read the scheduler has queued; a driver never
 * parks on it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicColdTest {
  private static final List<String> POLICIES = List.of("none", "rank", "max-queries", "fcfs");
  private static final List<String> TABLES = List.of("customer", "orders", "lineitem", "part");
  // Scans of several tables and columns: q1 and q6 lineitem alone, q3 and q12 joins, q14 a join
  // with part.
  private static final List<Integer> QUERIES = List.of(1, 3, 6, 12, 14);
  private static final int CLIENTS = 3;

  @TempDir static Path dir;
  private DistributedQueryRunner runner;
  private final Map<Integer, MaterializedResult> expected = new HashMap<>();

  private static String catalog(String policy) {
    return "cold_" + policy.replace('-', '_');
  }

  @BeforeAll
  void createTables() throws Exception {
    runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("plain").setSchema("tiny").build())
            .setWorkerCount(0)
            .build();
    MosaicQueryRunner.installTpch(runner);
    runner.installPlugin(new MosaicPlugin());
    List<String> catalogs = new ArrayList<>();
    catalogs.add("plain");
    POLICIES.forEach(p -> catalogs.add(catalog(p)));
    for (int i = 0; i < catalogs.size(); i++) {
      String name = catalogs.get(i);
      String cold = i == 0 ? null : POLICIES.get(i - 1);
      Path root = dir.resolve(name);
      Files.createDirectories(root);
      Path toml = root.resolve("devices.toml");
      Files.writeString(toml, pool(cold));
      runner.createCatalog(
          name,
          "mosaic",
          Map.of(
              "mosaic.devices-config",
              toml.toString(),
              "mosaic.metadata-directory",
              root.resolve("metadata").toString(),
              "mosaic.target-split-size",
              "256kB",
              "mosaic.decode-threads",
              "2",
              // The scheduler under ordered scans: a shared buffer would serve the second pass
              // from memory (shared scans through it: ColdSchedulerScanTest).
              "mosaic.sharing-policy",
              "normal"));
      runner.execute("CREATE SCHEMA " + name + ".tiny");
      for (String t : TABLES) {
        runner.execute(
            "CREATE TABLE "
                + name
                + ".tiny."
                + t
                + (cold == null ? "" : " WITH (default_device = 'csd')")
                + " AS SELECT * FROM tpch.tiny."
                + t);
      }
    }
    for (int q : QUERIES) {
      expected.put(q, runner.execute(session("plain"), TraceGenerator.tpchQuery(q)));
    }
  }

  /** A warm metadata device, and with {@code policy} a cold device "csd" under that policy. */
  private static String pool(String policy) {
    String warm =
        """
        [[device]]
        id = "warm"
        path = "warm"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "30 ct"
        metadata = true
        emulate = { read = "4 GB/s" }
        """;
    if (policy == null) {
      return warm;
    }
    return warm
        + """

        [[device]]
        id = "csd"
        path = "csd"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        cold = { groups = 4, switch = "50 ms", read = "400 MB/s", policy = "%s" }
        """
            .formatted(policy);
  }

  private static Session session(String catalog) {
    return testSessionBuilder().setCatalog(catalog).setSchema("tiny").build();
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  /**
   * {@link #CLIENTS} clients at once, each running the queries in its own rotation, every result
   * checked against the plain catalog's; returns the cold device's group switches meanwhile.
   */
  private long concurrentClients(String policy) throws Exception {
    String catalog = catalog(policy);
    // The same directory as the catalog's connector: one emulated device, one switch counter.
    DevicePool pool = DevicePool.load(dir.resolve(catalog).resolve("devices.toml"));
    long before = pool.device("csd").groupSwitches();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int first = c;
        done.add(
            clients.submit(
                () -> {
                  for (int i = 0; i < QUERIES.size(); i++) {
                    int q = QUERIES.get((first + i) % QUERIES.size());
                    MaterializedResult actual =
                        runner.execute(session(catalog), TraceGenerator.tpchQuery(q));
                    assertThat(actual.getRowCount())
                        .as("q%d on %s", q, catalog)
                        .isEqualTo(expected.get(q).getRowCount());
                    assertEqualsIgnoreOrder(
                        actual.getMaterializedRows(), expected.get(q).getMaterializedRows());
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      clients.shutdownNow();
    }
    return pool.device("csd").groupSwitches() - before;
  }

  @Test
  void concurrentQueriesReturnThePlainRowsUnderEveryPolicyAndRankSwitchesLessThanNaive()
      throws Exception {
    Map<String, Long> switches = new HashMap<>();
    for (String policy : POLICIES) {
      // A first pass reads the segments' footers (cached by the node's retriever; those reads are
      // not scheduled), so the second pass compares the policies on the chunk reads alone.
      concurrentClients(policy);
      switches.put(policy, concurrentClients(policy));
    }
    System.out.printf(
        "cold TPC-H, %d clients x %d queries, 4 groups: switches %s%n",
        CLIENTS, QUERIES.size(), switches);
    assertThat(switches.get("rank")).isPositive().isLessThan(switches.get("none"));
    assertThat(switches.get("max-queries")).isLessThan(switches.get("none"));
  }
}
