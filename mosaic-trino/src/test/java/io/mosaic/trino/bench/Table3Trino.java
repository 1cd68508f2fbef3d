package io.mosaic.trino.bench;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.tpch.TpchTables;
import io.mosaic.trino.MosaicPlugin;
import io.mosaic.trino.MosaicQueryRunner;
import io.mosaic.warehouse.Warehouse;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The paper's Table 3 (Cooperative Scans, Zukowski et al., VLDB 2007, Section 6.3, DSM) through
 * Trino (docs/cooperative-scans.md): the workload of {@code experiments.Table3CooperativeScans}
 * (the same table, devices, seed, streams and ranges), but each query is SQL sent by its own client
 * session to an in-process Trino (one node, so one retriever and one shared buffer), with the
 * catalog's {@code sharing_policy} set per session. A query's range of row groups is a range of
 * {@code l_orderkey} (lineitem is generated in its order, so min/max skipping keeps just those row
 * groups). Bytes and chunks come from the page sources' connector metrics.
 *
 * <pre>
 * benchmarks/table3-trino [--sf 0.2] [--streams 16] [--stagger-ms 500] [--rate-mb 12]
 *     [--buffer-fraction 0.2] [--policies normal,attach,elevator,relevance] [--work DIR]
 * </pre>
 */
public final class Table3Trino {
  private static final double[] RANGES = {0.01, 0.10, 0.50, 1.00};
  private static final String SCHEMA = "t3";
  // Trino's logging takes over System.out once it starts; the results go to the real one.
  private static final PrintStream OUT = System.out;

  // The page source's connector metrics (MosaicPageSource).
  private static final String CHUNKS_READ = "mosaic_chunks_read";
  private static final String CHUNKS_SHARED = "mosaic_chunks_shared";
  private static final String BYTES_READ = "mosaic_bytes_read:";

  /** One query of a stream: its type, its share of the table, and its l_orderkey range. */
  record Query(boolean slow, double range, long lo, long hi) {
    String kind() {
      return (slow ? "SLOW" : "FAST") + "-" + Math.round(range * 100) + "%";
    }

    // Q6 and Q1 (TPC-H), each restricted to the range.
    String sql() {
      String range = " AND l_orderkey BETWEEN " + lo + " AND " + hi;
      return slow
          ? "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),"
              + " sum(l_extendedprice * (1 - l_discount)),"
              + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)), count(*)"
              + " FROM lineitem WHERE l_shipdate <= DATE '1998-09-02'"
              + range
              + " GROUP BY l_returnflag, l_linestatus"
          : "SELECT sum(l_extendedprice * l_discount) FROM lineitem"
              + " WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'"
              + " AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24"
              + range;
    }
  }

  /** What one query did: its time and its scans' metrics. */
  record Run(Query query, double seconds, Map<String, Long> metrics) {}

  private Table3Trino() {}

  public static void main(String[] args) throws Exception {
    Logging.initialize().setLevel("io.trino", Level.WARN);
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    double sf = Double.parseDouble(opts.getOrDefault("sf", "0.2"));
    int streams = Integer.parseInt(opts.getOrDefault("streams", "16"));
    long staggerMs = Long.parseLong(opts.getOrDefault("stagger-ms", "500"));
    double rateMb = Double.parseDouble(opts.getOrDefault("rate-mb", "12"));
    double bufferFraction = Double.parseDouble(opts.getOrDefault("buffer-fraction", "0.2"));
    Path work = Path.of(opts.getOrDefault("work", "mosaic-work/table3-trino")).toAbsolutePath();
    List<String> policies =
        List.of(opts.getOrDefault("policies", "normal,attach,elevator,relevance").split(","));
    Path csvOut = Path.of(opts.getOrDefault("csv", "docs/experiments/table3-trino.csv"));

    // The same pool and table as the retriever's run (Table3CooperativeScans.createPool).
    Path config = work.resolve("devices.toml");
    List<Long> keyMin = new ArrayList<>();
    List<Long> keyMax = new ArrayList<>();
    long slowBytes = load(work, config, sf, rateMb, keyMin, keyMax);
    int groups = keyMin.size();
    long buffer = Math.max(1, (long) (slowBytes * bufferFraction));
    OUT.printf(
        Locale.ROOT,
        "lineitem: %d row groups, SLOW columns %.1f MB; shared buffer %.1f MB; %d streams of 4,"
            + " %d ms apart; devices disk %.1f MB/s, ssd %.1f MB/s%n",
        groups,
        slowBytes / 1e6,
        buffer / 1e6,
        streams,
        staggerMs,
        rateMb,
        2 * rateMb);

    // The retriever's workload, drawn in the same order from the same seed.
    Random random = new Random(23);
    List<List<Query>> workload = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      List<Query> stream = new ArrayList<>();
      for (int q = 0; q < 4; q++) {
        double range = RANGES[random.nextInt(RANGES.length)];
        int n = Math.max(1, (int) Math.round(range * groups));
        int from = random.nextInt(groups - n + 1);
        stream.add(
            new Query(random.nextBoolean(), range, keyMin.get(from), keyMax.get(from + n - 1)));
      }
      workload.add(stream);
    }

    // Each query type alone under normal: the normalised latency's denominator (median of 3).
    Map<String, Double> alone = new LinkedHashMap<>();
    try (DistributedQueryRunner runner = start(work, config, buffer)) {
      runner.execute(session(runner, "normal"), new Query(false, 1, 0, Long.MAX_VALUE).sql());
      for (boolean slow : new boolean[] {false, true}) {
        for (double range : RANGES) {
          int n = Math.max(1, (int) Math.round(range * groups));
          Query q = new Query(slow, range, keyMin.get(0), keyMax.get(n - 1));
          List<Double> times = new ArrayList<>();
          for (int i = 0; i < 3; i++) {
            times.add(run(runner, "normal", q).seconds());
          }
          Collections.sort(times);
          alone.put(q.kind(), times.get(1));
          OUT.printf(Locale.ROOT, "  alone %-10s %.2f s (median of 3)%n", q.kind(), times.get(1));
        }
      }
    }

    List<String> csv = new ArrayList<>();
    csv.add(
        "policy,total_s,avg_stream_s,avg_norm_latency_fast,avg_norm_latency_slow,bytes_read,"
            + "bytes_disk,bytes_ssd,chunks_read,chunks_shared,slow_full_alone_s,load");
    Query slowFull = new Query(true, 1, keyMin.get(0), keyMax.get(groups - 1));
    for (String policy : policies) {
      OUT.printf(Locale.ROOT, "policy %s:%n", policy);
      // One SLOW full scan alone under the policy, on a fresh node (an empty shared buffer).
      double slowAlone;
      try (DistributedQueryRunner runner = start(work, config, buffer)) {
        slowAlone = run(runner, policy, slowFull).seconds();
      }
      List<List<Run>> results = new ArrayList<>();
      double total;
      try (DistributedQueryRunner runner = start(work, config, buffer)) {
        // Plans and footers once, as a warm server would have them; its reads are not counted.
        runner.execute(session(runner, "normal"), new Query(false, 0.01, 0, 0).sql());
        ExecutorService clients = Executors.newFixedThreadPool(streams);
        try {
          long start = System.nanoTime();
          List<Future<List<Run>>> futures = new ArrayList<>();
          for (int s = 0; s < streams; s++) {
            List<Query> stream = workload.get(s);
            long delay = s * staggerMs;
            futures.add(
                clients.submit(
                    () -> {
                      Thread.sleep(delay);
                      List<Run> out = new ArrayList<>();
                      for (Query q : stream) {
                        out.add(run(runner, policy, q));
                      }
                      return out;
                    }));
          }
          for (Future<List<Run>> f : futures) {
            results.add(f.get());
          }
          total = (System.nanoTime() - start) / 1e9;
        } finally {
          clients.shutdownNow();
        }
      }
      double streamSum = 0;
      double[] norm = new double[2];
      int[] count = new int[2];
      Map<String, Long> sums = new HashMap<>();
      for (List<Run> stream : results) {
        for (Run run : stream) {
          streamSum += run.seconds();
          int k = run.query().slow() ? 1 : 0;
          norm[k] += run.seconds() / alone.get(run.query().kind());
          count[k]++;
          run.metrics().forEach((name, v) -> sums.merge(name, v, Long::sum));
        }
      }
      long disk = sums.getOrDefault(BYTES_READ + "disk", 0L);
      long ssd = sums.getOrDefault(BYTES_READ + "ssd", 0L);
      String line =
          String.format(
              Locale.ROOT,
              "%s,%.2f,%.2f,%.2f,%.2f,%d,%d,%d,%d,%d,%.2f,%s",
              policy,
              total,
              streamSum / streams,
              count[0] == 0 ? 0 : norm[0] / count[0],
              count[1] == 0 ? 0 : norm[1] / count[1],
              disk + ssd,
              disk,
              ssd,
              sums.getOrDefault(CHUNKS_READ, 0L),
              sums.getOrDefault(CHUNKS_SHARED, 0L),
              slowAlone,
              load());
      csv.add(line);
      OUT.println("  " + line);
    }
    Files.createDirectories(csvOut.toAbsolutePath().getParent());
    Files.write(csvOut, csv);
    OUT.println(String.join("\n", csv));
    OUT.println("wrote " + csvOut);
    System.exit(0);
  }

  /**
   * Loads lineitem once into the warehouse of {@code work} (kept between runs of the same SF), with
   * the devices and layout of the retriever's Table 3; fills the l_orderkey range of each row group
   * and returns the bytes of the SLOW query's columns.
   */
  private static long load(
      Path work, Path config, double sf, double rateMb, List<Long> keyMin, List<Long> keyMax)
      throws IOException {
    Files.createDirectories(work);
    Files.writeString(
        config,
        String.format(
            Locale.ROOT,
            "[[device]]%nid = \"ssd\"%npath = \"devices/ssd\"%ncapacity = \"100 GB\"%nthreads = 2%n"
                + "codec = \"zstd\"%ncost_per_gb = \"20 ct\"%nmetadata = true%n"
                + "emulate = { read = \"%.2f MB/s\", seek = \"0.1 ms\" }%n%n"
                + "[[device]]%nid = \"disk\"%npath = \"devices/disk\"%ncapacity = \"100 GB\"%n"
                + "threads = 1%ncodec = \"zstd\"%ncost_per_gb = \"4 ct\"%n"
                + "emulate = { read = \"%.2f MB/s\", seek = \"2 ms\" }%n",
            2 * rateMb,
            rateMb));
    DevicePool pool = DevicePool.load(config);
    Warehouse warehouse = Warehouse.open(work.resolve("metadata"), pool);
    Path marker = work.resolve("loaded-sf");
    String sfText = String.valueOf(sf);
    if (!Files.exists(marker) || !Files.readString(marker).equals(sfText)) {
      if (warehouse.namespaceExists(SCHEMA)) {
        warehouse.dropNamespace(SCHEMA, true);
      }
      warehouse.createNamespace(SCHEMA);
      OUT.printf(Locale.ROOT, "loading lineitem SF %s under %s%n", sf, work);
      // 40 row groups at any scale, as the paper's table of 40 chunks.
      long rows = Math.round(6_000_000 * sf);
      Map<String, String> props = new LinkedHashMap<>();
      props.put(TableProperties.ROW_GROUP_ROWS, String.valueOf((rows + 39) / 40));
      props.put(TableProperties.DEFAULT_DEVICE, "disk");
      // Q6's filter columns on the second device: a row group's chunks come from both devices.
      props.put(TableProperties.COLUMN_DEVICE_PREFIX + "l_shipdate.device", "ssd");
      props.put(TableProperties.COLUMN_DEVICE_PREFIX + "l_discount.device", "ssd");
      TpchTables.load(
          TpchTable.LINE_ITEM,
          sf,
          Path.of(warehouse.location(SCHEMA, "lineitem")),
          pool,
          props,
          n -> {});
      Files.writeString(marker, sfText);
    }
    Manifest m = warehouse.open(SCHEMA, "lineitem").latest();
    for (int g = 0; g < m.rowGroups().size(); g++) {
      SegmentEntry s = m.segmentFor("l_orderkey", g);
      var stats = s.stats().get(g - s.firstRowGroup());
      keyMin.add(((Number) stats.min()).longValue());
      keyMax.add(((Number) stats.max()).longValue());
    }
    List<String> slowColumns =
        List.of(
            "l_returnflag",
            "l_linestatus",
            "l_quantity",
            "l_extendedprice",
            "l_discount",
            "l_tax",
            "l_shipdate",
            "l_orderkey");
    return m.segments().stream()
        .filter(s -> slowColumns.contains(s.column()))
        .mapToLong(SegmentEntry::compressedBytes)
        .sum();
  }

  /** One node (one retriever, so one shared buffer), the shared buffer of {@code bytes}. */
  private static DistributedQueryRunner start(Path work, Path config, long bytes) throws Exception {
    DistributedQueryRunner runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("mosaic").setSchema(SCHEMA).build())
            .setWorkerCount(0)
            .build();
    runner.installPlugin(new MosaicPlugin());
    runner.createCatalog(
        "mosaic",
        "mosaic",
        Map.of(
            "mosaic.devices-config", config.toString(),
            "mosaic.metadata-directory", work.resolve("metadata").toString(),
            "mosaic.shared-buffer-memory", bytes + "B"));
    return runner;
  }

  private static Session session(DistributedQueryRunner runner, String policy) {
    return Session.builder(runner.getDefaultSession())
        .setCatalogSessionProperty("mosaic", "sharing_policy", policy)
        .build();
  }

  /** Runs {@code q} in its own session under {@code policy}: its time and its scans' metrics. */
  private static Run run(DistributedQueryRunner runner, String policy, Query q) {
    long start = System.nanoTime();
    MaterializedResultWithPlan result = runner.executeWithPlan(session(runner, policy), q.sql());
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Long> metrics = MosaicQueryRunner.connectorMetrics(runner, result.queryId());
    return new Run(q, seconds, metrics);
  }

  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }
}
