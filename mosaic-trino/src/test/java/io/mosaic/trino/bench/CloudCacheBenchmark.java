package io.mosaic.trino.bench;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.trino.MosaicQueryRunner;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.plugin.hive.HivePlugin;
import io.trino.testing.DistributedQueryRunner;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
                + " AS SELECT * FROM "
                + generator
                + "."
                + table);
        ERR.printf(
            Locale.ROOT,
            "loaded hive.tpch.%s in %.1f s%n",
            table,
            (System.nanoTime() - start) / 1e9);
      }
      double gb = 0;
      for (String table : TpchCatalogs.TABLES) {
        gb +=
            ((Number)
                        runner
                            .execute(
                                "SELECT coalesce(sum(s), 0) FROM (SELECT DISTINCT \"$path\","
                                    + " \"$file_size\" s FROM hive.tpch."
                                    + table
                                    + ")")
                            .getOnlyValue())
                    .doubleValue()
                / 1e9;
      }
      double s3Only = gb * S3_STANDARD_GB_MONTH;
      OUT.printf(Locale.ROOT, "Hive's Parquet on S3 Standard: %.4f GB, $%.6f/month%n", gb, s3Only);
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
        ERR.printf(Locale.ROOT, "budget $%.6f/month: Hive's cache %d MB on the NVMe%n", b, cacheMb);
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
            "hive+cache budget $%.6f cost $%.6f: 22 queries %.2f s (median of %d)%n",
            b,
            cost,
            median,
            runs);
      }
    }
    writeCsv(out.resolve("cloud-cache.csv"), points, command);
    OUT.println("wrote " + out.resolve("cloud-cache.csv"));
    System.exit(0);
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
          run < 0 ? "warm-up" : "run " + (run + 1),
          s);
    }
    return total;
  }

  /** Hive over Parquet on the emulated S3 Standard, with a cache of {@code cacheMb} when > 0. */
  static Map<String, String> hive(String endpoint, Path dir, long cacheMb, Path cacheDir) {
    Map<String, String> p = new HashMap<>();
    p.put("hive.metastore", "file");
    p.put("hive.metastore.catalog.dir", "local://" + dir.resolve("hive-metastore"));
    // The file metastore wants table directories under its own; the tables live on S3.
    p.put("hive.metastore.disable-location-checks", "true");
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
              "%s,%.6f,%.6f,%.3f,%s%n",
              p.system(),
              p.budgetUsd(),
              p.costUsd(),
              p.seconds(),
              p.setup()));
    }
    Files.writeString(file, s);
  }
}
