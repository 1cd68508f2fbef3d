package io.mosaic.trino.bench;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.mosaic.trino.MosaicPlugin;
import io.mosaic.trino.MosaicQueryRunner;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Skipper's Section 5 shape in Trino (docs/experiments/cold.md): TPC-H with every table on one
 * emulated cold device ({@code csd}: disk groups, a group switch, the active group's read rate), 1
 * to N concurrent clients, each running the same sequence of TPC-H queries from its own starting
 * point; the same data read under one configuration per JVM: {@code none} (no scheduler: reads in
 * arrival order, Skipper's naive path), {@code max-queries}, {@code rank}, {@code fcfs}, or {@code
 * hdd} (the same directory emulated as an HDD at the same read rate, with seeks); each optionally
 * with {@code +POLICY}, a sharing policy of cooperative scans ({@code rank+relevance}).
 *
 * <p>{@code load DIR SF GROUPS SWITCH READ [LAYOUT]}: writes the tables once, on a device that puts
 * files in groups by LAYOUT ({@code segment}, the default, or {@code table}: docs/cold-storage.md).
 * {@code run DIR CONFIG CLIENTS CSV}: one configuration, every client count from 1 to CLIENTS after
 * one untimed pass of the queries (which reads the segments' footers: their reads are not
 * scheduled); appends a CSV row per client and count. Run through {@code benchmarks/cold}.
 */
public final class ColdBenchmark {
  /** Scan-heavy queries over lineitem, orders, customer and part, as MosaicColdTest runs. */
  static final List<Integer> QUERIES = List.of(1, 3, 6, 12, 14);

  static final List<String> TABLES =
      List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

  private static final PrintStream OUT = System.out;

  private ColdBenchmark() {}

  public static void main(String[] args) throws Exception {
    Logging.initialize().setLevel("io.trino", Level.WARN);
    switch (args.length > 0 ? args[0] : "") {
      case "load" ->
          load(
              Path.of(args[1]),
              Double.parseDouble(args[2]),
              Integer.parseInt(args[3]),
              args[4],
              args[5],
              args.length > 6 ? args[6] : "segment");
      case "run" -> run(Path.of(args[1]), args[2], Integer.parseInt(args[3]), Path.of(args[4]));
      default -> {
        OUT.println(
            "usage: ColdBenchmark load DIR SF GROUPS SWITCH READ [LAYOUT] | run DIR CONFIG N CSV");
        System.exit(2);
      }
    }
    System.exit(0);
  }

  /** The pool: a warm metadata device and "csd", cold under a policy or emulated as an HDD. */
  static String pool(String config, int groups, String switchLatency, String read, String layout) {
    String csd =
        config.equals("hdd")
            ? "emulate = { read = \"%s\", seek = \"8 ms\" }".formatted(read)
            : ("cold = { groups = %d, switch = \"%s\", read = \"%s\", policy = \"%s\","
                    + " layout = \"%s\" }")
                .formatted(groups, switchLatency, read, config, layout);
    return """
        [[device]]
        id = "warm"
        path = "warm"
        capacity = "100 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "30 ct"
        metadata = true
        emulate = { read = "4 GB/s" }

        [[device]]
        id = "csd"
        path = "csd"
        capacity = "100 GB"
        threads = 1
        codec = "zstd"
        cost_per_gb = "1 ct"
        %s
        """
        .formatted(csd);
  }

  /**
   * A configuration {@code policy+sharing} (e.g. {@code rank+relevance}) reads through the node's
   * shared scan buffer under that sharing policy, with a buffer a fifth of the data (as Table 3's,
   * docs/cooperative-scans.md), so the data does not simply stay in it; without one, scans read on
   * the ordered path ({@code normal}), as the naive path does.
   */
  private static DistributedQueryRunner start(Path dir, String config) throws Exception {
    String[] parts = config.split("\\+");
    String sharing = parts.length > 1 ? parts[1] : "normal";
    long data = 0;
    if (Files.isDirectory(dir.resolve("csd"))) {
      try (var files = Files.walk(dir.resolve("csd"))) {
        data = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      }
    }
    String buffer = Math.max(1024, data / 5 / 1024) + "kB"; // the catalog takes 1 MB at least
    OUT.printf(Locale.ROOT, "%s: sharing %s, shared buffer %s%n", config, sharing, buffer);
    // One node: one retriever, so one scheduler per cold device (docs/cold-storage.md).
    DistributedQueryRunner runner =
        DistributedQueryRunner.builder(session()).setWorkerCount(0).build();
    MosaicQueryRunner.installTpch(runner);
    runner.installPlugin(new MosaicPlugin());
    runner.createCatalog(
        "mosaic",
        "mosaic",
        Map.of(
            "mosaic.devices-config",
            dir.resolve("devices.toml").toString(),
            "mosaic.metadata-directory",
            dir.resolve("metadata").toString(),
            "mosaic.sharing-policy",
            sharing,
            "mosaic.shared-buffer-memory",
            buffer));
    return runner;
  }

  private static Session session() {
    return testSessionBuilder().setCatalog("mosaic").setSchema("tpch").build();
  }

  private static void load(
      Path dir, double sf, int groups, String switchLatency, String read, String layout)
      throws Exception {
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("devices.toml"), pool("rank", groups, switchLatency, read, layout));
    Files.writeString(
        dir.resolve("cold.properties"),
        "groups=%d%nswitch=%s%nread=%s%nsf=%s%nlayout=%s%n"
            .formatted(groups, switchLatency, read, TpchCatalogs.format(sf), layout));
    try (DistributedQueryRunner runner = start(dir, "rank")) {
      runner.execute("CREATE SCHEMA mosaic.tpch");
      for (String t : TABLES) {
        long start = System.nanoTime();
        runner.execute(
            "CREATE TABLE mosaic.tpch."
                + t
                + " WITH (default_device = 'csd') AS SELECT * FROM tpch.\"sf"
                + TpchCatalogs.format(sf)
                + "\"."
                + t);
        OUT.printf(Locale.ROOT, "loaded %s in %.1f s%n", t, (System.nanoTime() - start) / 1e9);
      }
    }
    // Objects: the chunks a scan reads, one per column and row group.
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    long bytes = 0;
    long chunks = 0;
    int[] perGroup = new int[groups];
    var cold = pool.device("csd").spec().cold().orElseThrow();
    for (String t : TABLES) {
      Manifest m = MosaicTable.open(dir.resolve("metadata/tpch/" + t), pool).latest();
      for (SegmentEntry s : m.segments()) {
        bytes += s.compressedBytes();
        chunks += s.rowGroupCount();
        perGroup[cold.groupOf(s.path())]++;
      }
    }
    OUT.printf(
        Locale.ROOT,
        "data: %.1f MB in %d chunks (mean %.0f kB); segments per group %s%n",
        bytes / 1e6,
        chunks,
        bytes / 1e3 / chunks,
        Arrays.toString(perGroup));
  }

  private static void run(Path dir, String config, int maxClients, Path csv) throws Exception {
    var props = new java.util.Properties();
    try (var in = Files.newInputStream(dir.resolve("cold.properties"))) {
      props.load(in);
    }
    Files.writeString(
        dir.resolve("devices.toml"),
        pool(
            config.split("\\+")[0],
            Integer.parseInt(props.getProperty("groups")),
            props.getProperty("switch"),
            props.getProperty("read"),
            props.getProperty("layout", "segment")));
    if (!Files.exists(csv)) {
      Files.writeString(
          csv,
          "config,clients,client,client_s,total_s,switches,sf,groups,switch,read,load,started,"
              + "layout\n");
    }
    try (DistributedQueryRunner runner = start(dir, config)) {
      DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
      long start = System.nanoTime();
      for (int q : QUERIES) {
        runner.execute(session(), TraceGenerator.tpchQuery(q));
      }
      OUT.printf(
          Locale.ROOT, "%s: untimed pass %.1f s%n", config, (System.nanoTime() - start) / 1e9);
      for (int clients = 1; clients <= maxClients; clients++) {
        long switchesBefore = pool.device("csd").groupSwitches();
        String started = java.time.Instant.now().toString();
        double[] times = clients(runner, clients);
        double total = Arrays.stream(times).max().orElse(0);
        long switches = pool.device("csd").groupSwitches() - switchesBefore;
        double load = loadAverage();
        StringBuilder rows = new StringBuilder();
        for (int c = 0; c < clients; c++) {
          rows.append(
              String.format(
                  Locale.ROOT,
                  "%s,%d,%d,%.2f,%.2f,%d,%s,%s,%s,%s,%.2f,%s,%s%n",
                  config,
                  clients,
                  c,
                  times[c],
                  total,
                  switches,
                  props.getProperty("sf"),
                  props.getProperty("groups"),
                  props.getProperty("switch"),
                  props.getProperty("read"),
                  load,
                  started,
                  props.getProperty("layout", "segment")));
        }
        Files.writeString(csv, rows.toString(), StandardOpenOption.APPEND);
        OUT.printf(
            Locale.ROOT,
            "%s, %d clients: total %.1f s, %d switches, clients %s, load %.1f%n",
            config,
            clients,
            total,
            switches,
            Arrays.toString(times),
            load);
      }
    }
  }

  /** {@code n} clients at once, each the query sequence from its own start; seconds per client. */
  private static double[] clients(DistributedQueryRunner runner, int n) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<Double>> futures = new ArrayList<>();
      long start = System.nanoTime();
      for (int c = 0; c < n; c++) {
        int first = c;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < QUERIES.size(); i++) {
                    int q = QUERIES.get((first + i) % QUERIES.size());
                    runner.execute(session(), TraceGenerator.tpchQuery(q));
                  }
                  return (System.nanoTime() - start) / 1e9;
                }));
      }
      double[] times = new double[n];
      for (int c = 0; c < n; c++) {
        times[c] = futures.get(c).get();
      }
      return times;
    } finally {
      pool.shutdownNow();
    }
  }

  private static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
