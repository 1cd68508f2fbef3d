package io.mosaic.bench.experiments;

import io.mosaic.cooperative.ActiveBufferManager;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.scan.ScanStats;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpch.TpchTables;
import io.trino.tpch.TpchTable;
import java.io.IOException;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The paper's Table 3 (Cooperative Scans, Zukowski et al., VLDB 2007, Section 6.3, DSM) through
 * Mosaic's retriever on emulated devices (docs/cooperative-scans.md): TPC-H lineitem, {@code
 * streams} streams of 4 queries each, started {@code stagger} apart, each query a FAST (Q6-like: 4
 * columns, little work per row) or a SLOW one (Q1-like: 7 columns, grouping and arithmetic per row)
 * over a random range of 1, 10, 50 or 100 % of the row groups; the shared buffer far smaller than
 * the table. For each sharing policy: total time, average stream time, average normalised latency
 * per query type (time / the same query alone), bytes and reads per device.
 *
 * <pre>
 * benchmarks/bench experiments.Table3CooperativeScans [--sf 0.2] [--streams 16] [--stagger-ms 500]
 *     [--rate-mb 12] [--buffer-fraction 0.2] [--work DIR]
 * </pre>
 */
public final class Table3CooperativeScans {
  /** The lineitem columns of TPC-H q6 (the fast query) and q1 (the slow one). */
  static final List<String> FAST =
      List.of("l_shipdate", "l_discount", "l_quantity", "l_extendedprice");

  static final List<String> SLOW =
      List.of(
          "l_returnflag",
          "l_linestatus",
          "l_quantity",
          "l_extendedprice",
          "l_discount",
          "l_tax",
          "l_shipdate");
  private static final double[] RANGES = {0.01, 0.10, 0.50, 1.00};

  /** One query of a stream: its type, and its row groups [from, to). */
  record Query(boolean slow, double range, int from, int to) {
    String kind() {
      return (slow ? "SLOW" : "FAST") + "-" + Math.round(range * 100) + "%";
    }
  }

  /** What a query did: its time and its scan's stats. */
  record Run(Query query, long nanos, ScanStats stats) {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    double sf = Double.parseDouble(opts.getOrDefault("sf", "0.2"));
    int streams = Integer.parseInt(opts.getOrDefault("streams", "16"));
    long staggerMs = Long.parseLong(opts.getOrDefault("stagger-ms", "500"));
    double rateMb = Double.parseDouble(opts.getOrDefault("rate-mb", "12"));
    double bufferFraction = Double.parseDouble(opts.getOrDefault("buffer-fraction", "0.2"));
    Path work = Path.of(opts.getOrDefault("work", "mosaic-work/table3"));
    List<SharingPolicy> policies = new ArrayList<>();
    for (String p : opts.getOrDefault("policies", "normal,attach,elevator,relevance").split(",")) {
      policies.add(SharingPolicy.parse(p));
    }

    DevicePool pool = createPool(work, rateMb);
    System.out.printf(
        Locale.ROOT, "loading lineitem SF %s on two emulated devices under %s%n", sf, work);
    // 40 row groups at any scale, as the paper's table of 40 chunks (docs/cooperative-scans.md).
    long rows = Math.round(6_000_000 * sf);
    Map<String, String> props = new LinkedHashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, String.valueOf((rows + 39) / 40));
    props.put(TableProperties.DEFAULT_DEVICE, "disk");
    // Q6's filter columns on the second device: a row group's chunks come from both devices.
    props.put(TableProperties.COLUMN_DEVICE_PREFIX + "l_shipdate.device", "ssd");
    props.put(TableProperties.COLUMN_DEVICE_PREFIX + "l_discount.device", "ssd");
    MosaicTable lineitem =
        TpchTables.load(
            TpchTable.LINE_ITEM, sf, work.resolve("tables/lineitem"), pool, props, n -> {});
    int groups = lineitem.latest().rowGroups().size();
    long tableBytes;
    try (Retriever r = new Retriever(pool)) {
      tableBytes =
          run(r, lineitem, new Query(true, 1, 0, groups), SharingPolicy.NORMAL)
              .stats()
              .bytesPerDevice()
              .values()
              .stream()
              .mapToLong(Long::longValue)
              .sum();
    }
    long buffer = Math.max(1, (long) (tableBytes * bufferFraction));
    System.out.printf(
        Locale.ROOT,
        "lineitem: %d row groups, SLOW columns %.1f MB; shared buffer %.1f MB; %d streams of 4,"
            + " %d ms apart; devices disk %.1f MB/s, ssd %.1f MB/s%n",
        groups,
        tableBytes / 1e6,
        buffer / 1e6,
        streams,
        staggerMs,
        rateMb,
        2 * rateMb);

    Random random = new Random(23);
    List<List<Query>> workload = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      List<Query> stream = new ArrayList<>();
      for (int q = 0; q < 4; q++) {
        double range = RANGES[random.nextInt(RANGES.length)];
        int n = Math.max(1, (int) Math.round(range * groups));
        int from = random.nextInt(groups - n + 1);
        stream.add(new Query(random.nextBoolean(), range, from, from + n));
      }
      workload.add(stream);
    }

    // Each query type alone (normal, an idle system): the normalised latency's denominator.
    Map<String, Double> alone = new LinkedHashMap<>();
    try (Retriever r = new Retriever(pool)) {
      for (boolean slow : new boolean[] {false, true}) {
        for (double range : RANGES) {
          int n = Math.max(1, (int) Math.round(range * groups));
          Query q = new Query(slow, range, 0, n);
          List<Long> times = new ArrayList<>();
          for (int i = 0; i < 3; i++) {
            times.add(run(r, lineitem, q, SharingPolicy.NORMAL).nanos());
          }
          Collections.sort(times);
          alone.put(q.kind(), times.get(1) / 1e9);
          System.out.printf(
              Locale.ROOT, "  alone %-10s %.2f s (median of 3)%n", q.kind(), times.get(1) / 1e9);
        }
      }
    }

    List<String> csv = new ArrayList<>();
    csv.add(
        "policy,total_s,avg_stream_s,avg_norm_latency_fast,avg_norm_latency_slow,bytes_read,"
            + "bytes_disk,bytes_ssd,reads,chunks_shared,slow_full_alone_s,load");
    for (SharingPolicy policy : policies) {
      System.out.printf(Locale.ROOT, "policy %s:%n", policy.configName());
      List<List<Run>> results = new ArrayList<>();
      // Fairness (docs/cooperative-scans.md): one query alone on an idle system is no slower under
      // the policy
      // (median of 3 SLOW full scans, each on a fresh retriever so nothing is in its buffer).
      List<Long> aloneTimes = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        try (Retriever r =
            new Retriever(
                pool,
                Runtime.getRuntime().availableProcessors(),
                Retriever.DEFAULT_POOLED_VECTOR_BYTES,
                policy,
                buffer)) {
          aloneTimes.add(run(r, lineitem, new Query(true, 1, 0, groups), policy).nanos());
        }
      }
      Collections.sort(aloneTimes);
      double slowAlone = aloneTimes.get(1) / 1e9;
      long start = System.nanoTime();
      long bytesLoaded;
      long reads;
      long shared;
      try (Retriever r =
          new Retriever(
              pool,
              Runtime.getRuntime().availableProcessors(),
              Retriever.DEFAULT_POOLED_VECTOR_BYTES,
              policy,
              buffer)) {
        ExecutorService threads = Executors.newFixedThreadPool(streams);
        AtomicInteger done = new AtomicInteger();
        List<Future<List<Run>>> futures = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
          List<Query> stream = workload.get(s);
          long delay = s * staggerMs;
          futures.add(
              threads.submit(
                  () -> {
                    Thread.sleep(delay);
                    List<Run> out = new ArrayList<>();
                    for (Query q : stream) {
                      out.add(run(r, lineitem, q, policy));
                    }
                    System.out.printf(
                        Locale.ROOT,
                        "  stream done (%d/%d) at %.1f s%n",
                        done.incrementAndGet(),
                        streams,
                        (System.nanoTime() - start) / 1e9);
                    return out;
                  }));
        }
        for (Future<List<Run>> f : futures) {
          results.add(f.get());
        }
        threads.shutdown();
        ActiveBufferManager.Stats abm = r.sharedStats(policy);
        bytesLoaded = abm == null ? -1 : abm.bytesLoaded();
        reads = abm == null ? -1 : abm.chunksLoaded();
        shared = abm == null ? 0 : abm.chunksShared();
      }
      double total = (System.nanoTime() - start) / 1e9;
      double streamSum = 0;
      double[] norm = new double[2];
      int[] count = new int[2];
      Map<String, Long> perDevice = new LinkedHashMap<>();
      long scanReads = 0;
      for (List<Run> stream : results) {
        for (Run run : stream) {
          streamSum += run.nanos() / 1e9;
          int k = run.query().slow() ? 1 : 0;
          norm[k] += run.nanos() / 1e9 / alone.get(run.query().kind());
          count[k]++;
          run.stats().bytesPerDevice().forEach((d, b) -> perDevice.merge(d, b, Long::sum));
          scanReads += run.stats().chunksRead();
        }
      }
      long bytes =
          bytesLoaded >= 0
              ? bytesLoaded
              : perDevice.values().stream().mapToLong(Long::longValue).sum();
      long requests = reads >= 0 ? reads : scanReads;
      String line =
          String.format(
              Locale.ROOT,
              "%s,%.2f,%.2f,%.2f,%.2f,%d,%d,%d,%d,%d,%.2f,%s",
              policy.configName(),
              total,
              streamSum / streams,
              count[0] == 0 ? 0 : norm[0] / count[0],
              count[1] == 0 ? 0 : norm[1] / count[1],
              bytes,
              perDevice.getOrDefault("disk", 0L),
              perDevice.getOrDefault("ssd", 0L),
              requests,
              shared,
              slowAlone,
              load());
      csv.add(line);
      System.out.println("  " + line);
    }
    Path out =
        Path.of("docs/experiments", ExperimentPool.outputName("table3-cooperative-scans", "csv"));
    Files.createDirectories(out.getParent());
    Files.write(out, csv);
    System.out.println(String.join("\n", csv));
    System.out.println("wrote " + out);
  }

  /** The 1-minute load average (this machine is shared: docs/experiments/README.md). */
  private static String load() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  private static DevicePool createPool(Path work, double rateMb) throws IOException {
    ExperimentPool.deleteTree(work);
    Files.createDirectories(work);
    String toml =
        String.format(
            Locale.ROOT,
            "[[device]]%nid = \"ssd\"%npath = \"devices/ssd\"%ncapacity = \"100 GB\"%nthreads = 2%n"
                + "codec = \"zstd\"%ncost_per_gb = \"20 ct\"%nmetadata = true%n"
                + "emulate = { read = \"%.2f MB/s\", seek = \"0.1 ms\" }%n%n"
                + "[[device]]%nid = \"disk\"%npath = \"devices/disk\"%ncapacity = \"100 GB\"%n"
                + "threads = 1%ncodec = \"zstd\"%ncost_per_gb = \"4 ct\"%n"
                + "emulate = { read = \"%.2f MB/s\", seek = \"2 ms\" }%n",
            2 * rateMb,
            rateMb);
    Path config = work.resolve("devices.toml");
    Files.writeString(config, toml);
    return DevicePool.load(config);
  }

  /** Runs one query: scans its columns and row groups and does its per-row work. */
  static Run run(Retriever r, MosaicTable lineitem, Query q, SharingPolicy policy) {
    long start = System.nanoTime();
    ScanRequest request =
        ScanRequest.of(q.slow() ? SLOW : FAST)
            .rowGroups(q.from(), q.to())
            .unscaledDecimals(true)
            .recorded(false)
            .sharing(policy);
    long sink = 0;
    ScanStats stats;
    try (Scan scan = r.scan(lineitem, request)) {
      while (scan.hasNext()) {
        VectorSchemaRoot b = scan.next();
        sink += q.slow() ? q1(b) : q6(b);
      }
      stats = scan.stats();
    }
    if (sink == 42) {
      System.out.print(""); // keeps the work from being optimised away
    }
    return new Run(q, System.nanoTime() - start, stats);
  }

  // Q6: sum(price * discount) where shipdate in 1994, discount in [5, 7] %, quantity < 24.
  private static long q6(VectorSchemaRoot b) {
    DateDayVector ship = (DateDayVector) b.getVector(0);
    BigIntVector disc = (BigIntVector) b.getVector(1);
    BigIntVector qty = (BigIntVector) b.getVector(2);
    BigIntVector price = (BigIntVector) b.getVector(3);
    long sum = 0;
    for (int i = 0; i < b.getRowCount(); i++) {
      int d = ship.get(i);
      long dc = disc.get(i);
      if (d >= 8766 && d < 9131 && dc >= 5 && dc <= 7 && qty.get(i) < 2400) {
        sum += price.get(i) * dc;
      }
    }
    return sum;
  }

  // Q1: per (returnflag, linestatus), sums of quantity, price, discounted price and charge, and
  // a count, over shipdate <= 1998-09-02.
  private static long q1(VectorSchemaRoot b) {
    VarCharVector flag = (VarCharVector) b.getVector(0);
    VarCharVector status = (VarCharVector) b.getVector(1);
    BigIntVector qty = (BigIntVector) b.getVector(2);
    BigIntVector price = (BigIntVector) b.getVector(3);
    BigIntVector disc = (BigIntVector) b.getVector(4);
    BigIntVector tax = (BigIntVector) b.getVector(5);
    DateDayVector ship = (DateDayVector) b.getVector(6);
    long[][] acc = new long[256 * 256][];
    for (int i = 0; i < b.getRowCount(); i++) {
      if (ship.get(i) > 10471) {
        continue;
      }
      int key = (flag.get(i)[0] & 0xff) << 8 | (status.get(i)[0] & 0xff);
      long[] a = acc[key] == null ? (acc[key] = new long[5]) : acc[key];
      long p = price.get(i);
      long dp = p * (100 - disc.get(i));
      a[0] += qty.get(i);
      a[1] += p;
      a[2] += dp;
      a[3] += dp * (100 + tax.get(i));
      a[4]++;
    }
    long s = 0;
    for (long[] a : acc) {
      if (a != null) {
        s += a[0] + a[3] + a[4];
      }
    }
    return s;
  }
}
