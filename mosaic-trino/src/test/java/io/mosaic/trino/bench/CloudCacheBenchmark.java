package io.mosaic.trino.bench;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.config.Link;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.InfeasiblePlacementException;
import io.mosaic.placement.InstalledPool;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.storage.SeaweedS3;
import io.mosaic.table.MosaicTable;
import io.mosaic.trino.MosaicPlugin;
import io.mosaic.trino.MosaicQueryRunner;
import io.mosaic.trino.workload.TraceGenerator;
import io.mosaic.warehouse.Warehouse;
import io.mosaic.workload.ColumnSizes;
import io.trino.plugin.hive.HivePlugin;
import io.trino.testing.DistributedQueryRunner;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The cloud user's comparison ({@code benchmarks/cloud-cache}, docs/experiments/cloud-cache.md):
 * Trino's Hive connector over Parquet on S3 Standard with Trino's file-system cache ({@code
 * fs.cache.enabled}) on the instance's NVMe, against Mosaic over S3 plus the same NVMe, at the same
 * money per month (the {@code aws} catalogue's prices, docs/cost-model.md, "Money per month").
 *
 * <p>Arguments: {@code ENDPOINT DIR SF RUNS OUT BUDGETS COMMAND}. ENDPOINT is the emulated S3
 * (SeaweedFS behind the shaped link the script sets up), DIR holds the metastore and the NVMe
 * directory ({@code DIR/nvme}), BUDGETS is {@code auto} or USD per month separated by commas. Per
 * budget B, Hive's cache gets the NVMe that B buys beyond S3 Standard storage of its Parquet files;
 * it is warmed by one pass of the 22 queries (a user's steady state), then the 22 queries run RUNS
 * times and the median per query counts. Writes {@code OUT/cloud-cache.csv} and {@code
 * OUT/cloud-cache.svg}.
 */
public final class CloudCacheBenchmark {
  private static final PrintStream OUT = System.out;
  private static final PrintStream ERR = System.err;

  /** The {@code aws} catalogue's prices, USD per GB-month (mosaic-core catalog/aws.toml). */
  static final double S3_STANDARD_GB_MONTH = 0.023;

  static final double NVME_GB_MONTH = 0.0709;

  static final String ACCESS_KEY = "mosaic-bench";
  static final String SECRET_KEY = "mosaic-bench-secret";
  static final String BUCKET = "mosaic";

  private CloudCacheBenchmark() {}

  /** One measured point: a system at a budget, its monthly cost and total time of the 22. */
  record Point(String system, double budgetUsd, double costUsd, double seconds, String setup) {}

  public static void main(String[] args) throws Exception {
    String endpoint = args[0];
    Path dir = Path.of(args[1]).toAbsolutePath();
    double sf = Double.parseDouble(args[2]);
    int runs = Integer.parseInt(args[3]);
    Path out = Path.of(args[4]).toAbsolutePath();
    String budgets = args[5];
    String command = args.length > 6 ? args[6] : "benchmarks/cloud-cache";
    // The emulated link's rate (the script's --rate / --divisor), which the S3 devices read at.
    double linkMegabytesPerSecond = args.length > 7 ? Double.parseDouble(args[7]) : 62.5;
    Logging.initialize().setLevel("org.apache.hadoop.io.compress", Level.WARN);
    Files.createDirectories(dir.resolve("nvme"));
    Files.createDirectories(dir.resolve("hive-metastore"));
    Files.createDirectories(out);
    List<Point> points = new ArrayList<>();
    try (DistributedQueryRunner runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("hive").setSchema(TpchCatalogs.SCHEMA).build())
            .setWorkerCount(1)
            .build()) {
      MosaicQueryRunner.installTpch(runner);
      runner.installPlugin(new HivePlugin());
      runner.createCatalog("hive", "hive", hive(endpoint, dir, 0, null));
      String generator =
          sf == 0.01 ? "tpch.\"tiny\"" : "tpch.\"sf" + TpchCatalogs.format(sf) + "\"";
      runner.execute(
          "CREATE SCHEMA IF NOT EXISTS hive.tpch WITH (location = 's3://"
              + BUCKET
              + "/hive/tpch')");
      for (String table : TpchCatalogs.TABLES) {
        long start = System.nanoTime();
        runner.execute(
            "CREATE TABLE IF NOT EXISTS hive.tpch."
                + table
                + " WITH (external_location = 's3://"
                + BUCKET
                + "/hive/tpch/"
                + table
                + "') AS SELECT * FROM "
                + generator
                + "."
                + table);
        ERR.printf(
            Locale.ROOT,
            "loaded hive.tpch.%s in %.1f s%n",
            table,
            (System.nanoTime() - start) / 1e9);
      }
      // The tables read back what was written: a sum over every lineitem row, as the generator's.
      String check = "SELECT sum(l_quantity), count(l_orderkey) FROM ";
      var written = runner.execute(check + generator + ".lineitem").getMaterializedRows();
      var read = runner.execute(check + "hive.tpch.lineitem").getMaterializedRows();
      if (!written.equals(read)) {
        throw new IllegalStateException(
            "hive.tpch.lineitem reads " + read + ", the generator " + written + ": reload it");
      }
      ERR.println("hive.tpch.lineitem reads back the generator's rows: " + read);
      // The bytes Hive's tables hold on S3, listed from the bucket: the "$path"/"$file_size"
      // hidden columns found no rows over these tables here (0 files for every table).
      long bytes = 0;
      try (S3Client s3 = SeaweedS3.Sdk.client(URI.create(endpoint), ACCESS_KEY, SECRET_KEY)) {
        for (S3Object o :
            s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix("hive/tpch/")).contents()) {
          bytes += o.size();
        }
      }
      double gb = bytes / 1e9;
      double s3Only = gb * S3_STANDARD_GB_MONTH;
      OUT.printf(Locale.ROOT, "Hive's Parquet on S3 Standard: %.6f GB, $%.10f/month%n", gb, s3Only);
      double[] bs =
          budgets.equals("auto")
              ? new double[] {s3Only * 1.5, s3Only * 3}
              : Arrays.stream(budgets.split(",")).mapToDouble(Double::parseDouble).toArray();
      int n = 0;
      for (double b : bs) {
        n++;
        // The cache is what the budget buys beyond S3 Standard storage of the files, at the aws
        // catalogue's instance-NVMe price (docs/experiments/cloud-cache.md, "Cost arithmetic").
        double cacheGb = Math.max(0, (b - s3Only) / NVME_GB_MONTH);
        long cacheMb = Math.max(1, (long) Math.floor(cacheGb * 1000));
        String catalog = "hive_cache_" + n;
        Path cacheDir = dir.resolve("nvme/hive-cache-" + n);
        Files.createDirectories(cacheDir);
        runner.createCatalog(catalog, "hive", hive(endpoint, dir, cacheMb, cacheDir));
        ERR.printf(
            Locale.ROOT, "budget $%.10f/month: Hive's cache %d MB on the NVMe%n", b, cacheMb);
        // Warm-up: one pass fills the cache, as a user's steady state.
        time(runner, catalog, -1);
        double[] sorted = new double[runs];
        for (int r = 0; r < runs; r++) {
          sorted[r] = time(runner, catalog, r);
        }
        Arrays.sort(sorted);
        double median = sorted[runs / 2];
        double cost = s3Only + cacheMb / 1000.0 * NVME_GB_MONTH;
        points.add(new Point("hive+cache", b, cost, median, cacheMb + " MB cache on NVMe"));
        OUT.printf(
            Locale.ROOT,
            "hive+cache budget $%.10f cost $%.10f: 22 queries %.2f s (median of %d)%n",
            b,
            cost,
            median,
            runs);
      }
      points.addAll(mosaic(runner, endpoint, dir, generator, bs, runs, linkMegabytesPerSecond));
    }
    writeCsv(out.resolve("cloud-cache.csv"), points, command);
    OUT.println("wrote " + out.resolve("cloud-cache.csv"));
    System.exit(0);
  }

  /** The catalogue entries the pool's devices stand for (docs/cost-model.md, "Money per month"). */
  static final List<String> DEVICES = List.of("s3-standard", "s3-standard-ia", "nvme-i4i");

  /**
   * Mosaic's side: TPC-H loaded into a pool of two S3 prefixes and the NVMe directory (every column
   * on s3-standard), the 22 queries once so the tables record their trace, then per budget the
   * placement the planner recommends with the {@code aws} catalogue (as {@code mosaic recommend
   * --catalog aws --budget B}), migrated with {@code move_columns}, and the 22 queries timed RUNS
   * times.
   */
  private static List<Point> mosaic(
      DistributedQueryRunner runner,
      String endpoint,
      Path dir,
      String generator,
      double[] budgets,
      int runs,
      double linkMegabytesPerSecond)
      throws Exception {
    Path devices = writePool(dir);
    Path metadata = dir.resolve("mosaic-metadata");
    Files.createDirectories(metadata);
    Map<String, String> p = new HashMap<>(TpchCatalogs.mosaicCatalog(devices, metadata));
    // Trino's S3 file system, as Hive's catalog reads S3 (docs/distributed-storage.md, "Trino
    // catalogs on S3"); docs/experiments/cloud-cache.md, "Storage classes", says why not S3A.
    p.put("fs.native-s3.enabled", "true");
    p.put("s3.endpoint", endpoint);
    p.put("s3.region", "us-east-1");
    p.put("s3.path-style-access", "true");
    p.put("s3.aws-access-key", ACCESS_KEY);
    p.put("s3.aws-secret-key", SECRET_KEY);
    runner.installPlugin(new MosaicPlugin());
    runner.createCatalog("mosaic", "mosaic", p);
    runner.execute("CREATE SCHEMA IF NOT EXISTS mosaic.tpch");
    for (String t : TpchCatalogs.TABLES) {
      long start = System.nanoTime();
      runner.execute(
          "CREATE TABLE mosaic.tpch."
              + t
              + " WITH (default_device = 's3-standard') AS SELECT * FROM "
              + generator
              + "."
              + t);
      ERR.printf(
          Locale.ROOT, "loaded mosaic.tpch.%s in %.1f s%n", t, (System.nanoTime() - start) / 1e9);
    }
    // The engine's own trace: every Mosaic scan of this pass is recorded in its table's trace.
    time(runner, "mosaic", -2);
    // The manifests and traces the planner reads, with the pool the catalog opened (its S3 devices
    // through Trino's S3 file system, as the catalog reads them).
    Warehouse warehouse = Warehouse.open(metadata, MosaicQueryRunner.pool(runner, "mosaic"));
    List<MosaicTable> tables = new ArrayList<>();
    for (String t : warehouse.tables(TpchCatalogs.SCHEMA)) {
      tables.add(warehouse.open(TpchCatalogs.SCHEMA, t));
    }
    Workload workload = InstalledPool.workload(tables);
    ColumnSizes sizes = new ColumnSizes(InstalledPool.sizes(tables));
    CostModel model = CostModel.of(profiles(sizes, linkMegabytesPerSecond), sizes.columns());
    model.validate(workload);
    ERR.printf(
        Locale.ROOT,
        "recorded trace: %d table scans over %d tables; cheapest budget $%.8f/month%n",
        workload.totalWeight(),
        tables.size(),
        BudgetSweep.minimumBudgetCents(model) / 100);
    List<Point> points = new ArrayList<>();
    for (double b : budgets) {
      PlacementResult r;
      try {
        r =
            new LoptStrategy(Duration.ofSeconds(30))
                .place(
                    new PlacementProblem(
                        model,
                        workload,
                        PlacementMode.budget(b * 100),
                        PlacementOptions.defaults()));
      } catch (InfeasiblePlacementException e) {
        ERR.printf(Locale.ROOT, "budget $%.8f/month: Mosaic has no placement: %s%n", b, e);
        continue;
      }
      Map<String, List<String>> byTable = new TreeMap<>();
      r.placement()
          .deviceOf()
          .forEach(
              (column, device) ->
                  byTable
                      .computeIfAbsent(column.table(), k -> new ArrayList<>())
                      .add(column.column() + "=" + device));
      for (Map.Entry<String, List<String>> e : byTable.entrySet()) {
        runner.execute(
            "CALL mosaic.system.move_columns('"
                + TpchCatalogs.SCHEMA
                + "', '"
                + e.getKey()
                + "', '"
                + String.join(", ", e.getValue())
                + "')");
      }
      time(runner, "mosaic", -1);
      double[] sorted = new double[runs];
      for (int i = 0; i < runs; i++) {
        sorted[i] = time(runner, "mosaic", i);
      }
      Arrays.sort(sorted);
      double median = sorted[runs / 2];
      double cost = r.prediction().costCents() / 100;
      String mix =
          DEVICES.stream()
              .map(
                  d ->
                      String.format(
                          Locale.ROOT,
                          "%s %.3f MB",
                          d,
                          r.prediction().bytesPerDevice().getOrDefault(d, 0L) / 1e6))
              .collect(Collectors.joining("; "));
      points.add(new Point("mosaic", b, cost, median, mix));
      OUT.printf(
          Locale.ROOT,
          "mosaic budget $%.8f cost $%.8f: 22 queries %.2f s (median of %d), predicted %.3f s;"
              + " %s%n",
          b,
          cost,
          median,
          runs,
          r.prediction().totalSeconds(),
          mix);
    }
    return points;
  }

  /**
   * The pool: two prefixes of the bucket and the NVMe directory, named as the catalogue entries
   * they stand for, so the planner's placement names the pool's devices.
   */
  static Path writePool(Path dir) throws Exception {
    Path nvme = dir.resolve("nvme/mosaic");
    Files.createDirectories(nvme);
    Path toml = dir.resolve("mosaic-devices.toml");
    Files.writeString(
        toml,
        """
        [[device]]
        id = "s3-standard"
        uri = "s3://%1$s/mosaic/standard"
        storage_class = "STANDARD"
        capacity = "1 TB"
        threads = 16
        codec = "zstd"
        cost_per_gb = "2.3 ct"

        # STANDARD_IA in the catalogue's prices; its objects are written as STANDARD, see
        # docs/experiments/cloud-cache.md, "Storage classes".
        [[device]]
        id = "s3-standard-ia"
        uri = "s3://%1$s/mosaic/standard-ia"
        capacity = "1 TB"
        threads = 16
        codec = "zstd"
        cost_per_gb = "1.25 ct"

        [[device]]
        id = "nvme-i4i"
        path = "%2$s"
        capacity = "100 GB"
        threads = 8
        codec = "zstd"
        cost_per_gb = "7.09 ct"
        """
            .formatted(BUCKET, nvme));
    return toml;
  }

  /**
   * The {@code aws} catalogue's s3-standard, s3-standard-ia and nvme-i4i, with the S3 classes' link
   * at the emulated rate: the script scales the network as the headline scales Table 1, and the 15
   * ms each way give the catalogue's 30 ms first byte (docs/experiments/cloud-cache.md).
   */
  static List<DeviceProfile> profiles(ColumnSizes sizes, double linkMegabytesPerSecond) {
    Bandwidth link = Bandwidth.ofMegabytesPerSecond(linkMegabytesPerSecond);
    List<DeviceProfile> profiles = new ArrayList<>();
    for (CatalogDevice d : DeviceCatalog.load("aws")) {
      if (!DEVICES.contains(d.id())) {
        continue;
      }
      CatalogDevice emulated =
          d.link().isEmpty()
              ? d
              : new CatalogDevice(
                  d.id(),
                  d.name(),
                  d.read().compareTo(link) < 0 ? d.read() : link,
                  d.seek(),
                  d.threads(),
                  d.codec(),
                  d.costPerGb(),
                  d.source(),
                  d.cold(),
                  d.monthly(),
                  d.access(),
                  d.link().map(l -> new Link(l.id(), link)));
      profiles.add(DeviceProfile.catalog(emulated, sizes.ratio(emulated.codec())));
    }
    return profiles;
  }

  /** Total seconds of the 22 queries over a catalog, one pass. */
  private static double time(DistributedQueryRunner runner, String catalog, int run) {
    var session = testSessionBuilder().setCatalog(catalog).setSchema(TpchCatalogs.SCHEMA).build();
    double total = 0;
    for (int q = 1; q <= 22; q++) {
      long start = System.nanoTime();
      runner.execute(session, TraceGenerator.tpchQuery(q));
      double s = (System.nanoTime() - start) / 1e9;
      total += s;
      ERR.printf(
          Locale.ROOT,
          "%s q%d %s: %.2f s%n",
          catalog,
          q,
          run == -2 ? "trace" : run < 0 ? "warm-up" : "run " + (run + 1),
          s);
    }
    return total;
  }

  /** Hive over Parquet on the emulated S3 Standard, with a cache of {@code cacheMb} when > 0. */
  static Map<String, String> hive(String endpoint, Path dir, long cacheMb, Path cacheDir) {
    Map<String, String> p = new HashMap<>();
    p.put("hive.metastore", "file");
    p.put("hive.metastore.catalog.dir", "local://" + dir.resolve("hive-metastore"));
    // The file metastore keeps a managed table's files under its own (local) directory, whatever
    // the schema's location: the tables are external, on S3, so Hive's reads go to S3.
    p.put("hive.metastore.disable-location-checks", "true");
    p.put("hive.non-managed-table-writes-enabled", "true");
    p.put("fs.native-local.enabled", "true");
    p.put("local.location", "/");
    p.put("fs.native-s3.enabled", "true");
    p.put("s3.endpoint", endpoint);
    p.put("s3.region", "us-east-1");
    p.put("s3.path-style-access", "true");
    p.put("s3.aws-access-key", ACCESS_KEY);
    p.put("s3.aws-secret-key", SECRET_KEY);
    p.put("hive.storage-format", "PARQUET");
    p.put("hive.compression-codec", "ZSTD");
    if (cacheMb > 0) {
      p.put("fs.cache.enabled", "true");
      p.put("fs.cache.directories", cacheDir.toString());
      p.put("fs.cache.max-sizes", cacheMb + "MB");
    }
    return p;
  }

  private static void writeCsv(Path file, List<Point> points, String command) throws Exception {
    StringBuilder s = new StringBuilder();
    s.append("# ").append(command).append('\n');
    s.append("system,budget_usd_month,cost_usd_month,seconds_22_queries,setup\n");
    for (Point p : points) {
      s.append(
          String.format(
              Locale.ROOT,
              "%s,%.10f,%.10f,%.3f,%s%n",
              p.system(),
              p.budgetUsd(),
              p.costUsd(),
              p.seconds(),
              p.setup()));
    }
    Files.writeString(file, s);
  }
}
