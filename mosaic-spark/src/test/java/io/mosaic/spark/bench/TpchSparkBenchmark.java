package io.mosaic.spark.bench;

import io.mosaic.spark.TpchSpark;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * TPC-H in Spark (issue 6): the 22 queries over Mosaic tables (one device, unthrottled, zstd) and
 * over the same data in Parquet (zstd) read by Spark's built-in reader, side by side in one
 * session; then a scan-only query summing four lineitem columns. Each query runs once per format to
 * warm up, then {@code runs} times per format, alternating; the best time counts.
 *
 * <p>Run: {@code mosaic-spark/tpch-bench [SF [RUNS [DIR [QUERIES]]]]}. Data is generated once into
 * DIR (default {@code /tmp/mosaic-tpch-spark-sf<SF>}) and reused by later runs.
 */
public final class TpchSparkBenchmark {
  /** The scan-only query's columns: four decimals, which Spark sums as {@code Decimal} objects. */
  private static final List<String> SCAN =
      List.of("l_quantity", "l_extendedprice", "l_discount", "l_tax");

  /**
   * Four integer columns, which Spark sums as longs in generated code: more of this scan's time is
   * the reader's than in {@link #SCAN}.
   */
  private static final List<String> INTEGER_SCAN =
      List.of("l_orderkey", "l_partkey", "l_suppkey", "l_linenumber");

  private TpchSparkBenchmark() {}

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Path dir =
        Path.of(args.length > 2 ? args[2] : "/tmp/mosaic-tpch-spark-sf" + args(sf))
            .toAbsolutePath();
    SparkSession spark = session(dir, "mosaic-tpch-bench");
    try {
      load(spark, dir, sf);
      System.out.printf(
          Locale.ROOT,
          "TPC-H SF %s, Spark %s local[2], %s; Parquet %s, Mosaic %s on disk; best of %d runs%n",
          args(sf),
          spark.version(),
          Runtime.version(),
          mib(size(dir.resolve("parquet"))),
          mib(size(dir.resolve("pool/d"))),
          runs);
      System.out.printf(
          Locale.ROOT, "%-6s %10s %10s %8s %8s%n", "query", "Parquet", "Mosaic", "ratio", "rows");
      // An optional fourth argument picks queries, e.g. "scan" or "q1,q6,scan,iscan".
      Set<String> only = args.length > 3 ? Set.of(args[3].split(",")) : null;
      double totalParquet = 0;
      double totalMosaic = 0;
      int queries = 0;
      for (int q = 1; q <= 22; q++) {
        if (only != null && !only.contains("q" + q)) {
          continue;
        }
        double[] best =
            time(spark, format -> views(spark, dir, format), TpchSpark.statements(q), runs);
        totalParquet += best[0];
        totalMosaic += best[1];
        queries++;
        print("q" + q, best);
      }
      if (queries > 0) {
        print("total", new double[] {totalParquet, totalMosaic, -1});
      }
      int scanRuns = Math.max(runs, 5);
      if (only == null || only.contains("scan")) {
        scan(spark, dir, "scan", SCAN, scanRuns);
      }
      if (only == null || only.contains("iscan")) {
        scan(spark, dir, "iscan", INTEGER_SCAN, scanRuns);
      }
      System.out.println("ratio = Parquet time / Mosaic time (above 1: Mosaic is faster)");
    } finally {
      spark.stop();
    }
  }

  /**
   * A local[2] session whose Mosaic tables live on one unthrottled zstd device under {@code
   * dir/pool/d} ({@code dir/devices.toml}), and which writes Parquet with zstd.
   */
  static SparkSession session(Path dir, String app) throws IOException {
    Files.createDirectories(dir.resolve("pool/d"));
    Path devices = dir.resolve("devices.toml");
    Files.writeString(
        devices,
        """
        [[device]]
        id = "d"
        path = "pool/d"
        capacity = "100 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "10 ct"
        metadata = true
        """);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName(app)
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.sql.parquet.compression.codec", "zstd")
            .config("spark.mosaic.devices", devices.toString())
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    return spark;
  }

  /** A scan-only query over Parquet and Mosaic, then over Spark's in-memory cache. */
  private static void scan(
      SparkSession spark, Path dir, String name, List<String> columns, int runs) {
    double[] best = time(spark, format -> views(spark, dir, format), List.of(sum(columns)), runs);
    print(name, best);
    cacheReference(spark, dir, name, columns, best[0], runs);
  }

  /**
   * A reference for how much a reader could gain on a scan: the same query over the columns it
   * reads held uncompressed in Spark's in-memory cache (no I/O, no decompression, no Parquet
   * decoding), against Spark's Parquet time. Not a strict bound: the cache still copies its batches
   * into column vectors, and for decimals hands the query rows instead of batches.
   */
  private static void cacheReference(
      SparkSession spark, Path dir, String name, List<String> columns, double parquet, int runs) {
    String before = spark.conf().get("spark.sql.inMemoryColumnarStorage.compressed");
    spark.conf().set("spark.sql.inMemoryColumnarStorage.compressed", "false");
    // Only the columns the query reads: Spark's cache hands columnar batches to the query only when
    // every cached column is a primitive type (not for decimals), and all of lineitem uncompressed
    // would not fit in memory.
    var lineitem =
        spark
            .read()
            .parquet(dir.resolve("parquet/lineitem").toString())
            .selectExpr(columns.toArray(String[]::new))
            .cache();
    try {
      lineitem.count();
      double best = Double.MAX_VALUE;
      for (int r = -1; r < runs; r++) {
        lineitem.createOrReplaceTempView("lineitem");
        long start = System.nanoTime();
        spark.sql(sum(columns)).collectAsList();
        if (r >= 0) {
          best = Math.min(best, (System.nanoTime() - start) / 1e9);
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%-6s %9.2fs %9.2fs %7.2fx   (Spark's in-memory cache in Mosaic's column)%n",
          name,
          parquet,
          best,
          parquet / best);
    } finally {
      lineitem.unpersist(true);
      spark.conf().set("spark.sql.inMemoryColumnarStorage.compressed", before);
    }
  }

  private static String sum(List<String> columns) {
    return "SELECT "
        + String.join(", ", columns.stream().map(c -> "sum(" + c + ")").toList())
        + " FROM lineitem";
  }

  static String args(double sf) {
    return sf == Math.rint(sf) ? String.valueOf((long) sf) : String.valueOf(sf);
  }

  static void print(String name, double[] t) {
    System.out.println(line(name, t));
  }

  /** A result line: the best Parquet and Mosaic seconds, their ratio and the answer's rows. */
  static String line(String name, double[] t) {
    return String.format(
        Locale.ROOT,
        "%-6s %9.2fs %9.2fs %7.2fx %8s",
        name,
        t[0],
        t[1],
        t[0] / t[1],
        t[2] < 0 ? "" : String.valueOf((long) t[2]));
  }

  /** Writes every table as Parquet and as a Mosaic table, unless a previous run did. */
  private static void load(SparkSession spark, Path dir, double sf) {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      Path parquet = dir.resolve("parquet").resolve(name);
      Path mosaic = dir.resolve("pool/d").resolve(name);
      if (Files.exists(parquet.resolve("_SUCCESS")) && Files.isDirectory(mosaic)) {
        continue;
      }
      long start = System.nanoTime();
      int parts = Math.max(1, (int) Math.ceil(sf * 4));
      var df = TpchSpark.dataFrame(spark, name, sf, parts).cache();
      df.write().mode("overwrite").parquet(parquet.toString());
      df.write().format("mosaic").mode("overwrite").save(mosaic.toString());
      df.unpersist();
      System.out.printf(
          Locale.ROOT, "loaded %s in %.1f s%n", name, (System.nanoTime() - start) / 1e9);
    }
  }

  private static void views(SparkSession spark, Path dir, String format) {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String name = table.getTableName();
      var df =
          format.equals("parquet")
              ? spark.read().parquet(dir.resolve("parquet").resolve(name).toString())
              : spark.read().format("mosaic").load(dir.resolve("pool/d").resolve(name).toString());
      df.createOrReplaceTempView(name);
    }
  }

  /**
   * Best seconds for Parquet and Mosaic, and the answer's row count; {@code views} points the
   * query's table names at one format ({@code parquet} or {@code mosaic}).
   */
  static double[] time(
      SparkSession spark, Consumer<String> views, List<String> statements, int runs) {
    double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, 0};
    String[] formats = {"parquet", "mosaic"};
    for (int r = -1; r < runs; r++) {
      for (int i = 0; i < 2; i++) {
        int f = (r & 1) == 0 ? i : 1 - i; // alternate which format goes first
        views.accept(formats[f]);
        long start = System.nanoTime();
        List<Row> rows = null;
        for (String s : statements) {
          rows = spark.sql(s).collectAsList();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (r >= 0) {
          best[f] = Math.min(best[f], seconds);
        }
        best[2] = rows.size();
      }
    }
    return best;
  }

  static long size(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }
}
