package io.mosaic.spark.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.spark.TpcdsSpark;
import io.mosaic.spark.TpcdsSpark.Reuse;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpcds.TpcdsTables;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * TPC-DS in Spark: the queries whose plans reuse the most exchanges (q14a, q23a, q23b, q64, Spark's
 * own texts) over Mosaic tables and over the same data in Parquet, side by side in one session, as
 * {@link TpchSparkBenchmark} does for TPC-H; each line also gives the exchanges and subqueries the
 * plan reuses (adaptive execution off, as planned) over each format.
 *
 * <p>Run: {@code mosaic-spark/tpcds-bench [SF [RUNS [DIR [QUERIES]]]]}. The tables come from the
 * {@code io.trino.tpcds} generator (mosaic-planner's {@link TpcdsTables}) as Mosaic tables, and are
 * copied to Parquet through Spark; both are written once into DIR (default {@code
 * /tmp/mosaic-tpcds-spark-sf<SF>}) and reused by later runs.
 */
public final class TpcdsSparkBenchmark {
  private static final List<String> QUERIES = List.of("q14a", "q23a", "q23b", "q64");

  private TpcdsSparkBenchmark() {}

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    Path dir =
        Path.of(
                args.length > 2
                    ? args[2]
                    : "/tmp/mosaic-tpcds-spark-sf" + TpchSparkBenchmark.args(sf))
            .toAbsolutePath();
    List<String> queries = args.length > 3 ? Arrays.asList(args[3].split(",")) : QUERIES;
    SparkSession spark = TpchSparkBenchmark.session(dir, "mosaic-tpcds-bench");
    try {
      List<String> tables =
          TpcdsSpark.tablesOf(
              String.join("\n", queries.stream().map(TpcdsSpark::query).toList()),
              TpcdsTables.tables().stream().map(Table::getName).toList());
      load(spark, dir, sf, tables);
      System.out.printf(
          Locale.ROOT,
          "TPC-DS SF %s, Spark %s local[2], %s; Parquet %s, Mosaic %s on disk; best of %d runs%n",
          TpchSparkBenchmark.args(sf),
          spark.version(),
          Runtime.version(),
          TpchSparkBenchmark.mib(TpchSparkBenchmark.size(dir.resolve("parquet"))),
          TpchSparkBenchmark.mib(TpchSparkBenchmark.size(dir.resolve("pool/d"))),
          runs);
      System.out.printf(
          Locale.ROOT,
          "%-6s %10s %10s %8s %8s   %s%n",
          "query",
          "Parquet",
          "Mosaic",
          "ratio",
          "rows",
          "reused (Parquet | Mosaic)");
      for (String q : queries) {
        String sql = TpcdsSpark.query(q);
        double[] best =
            TpchSparkBenchmark.time(
                spark, format -> views(spark, dir, tables, format), List.of(sql), runs);
        Reuse parquet = planned(spark, dir, tables, "parquet", sql);
        Reuse mosaic = planned(spark, dir, tables, "mosaic", sql);
        System.out.print(
            TpchSparkBenchmark.line(q, best) + "   " + parquet + " | " + mosaic + "\n");
      }
      System.out.println("ratio = Parquet time / Mosaic time (above 1: Mosaic is faster)");
    } finally {
      spark.stop();
    }
  }

  /**
   * What the plan of {@code sql} over {@code format} reuses, planned without adaptive execution.
   */
  private static Reuse planned(
      SparkSession spark, Path dir, List<String> tables, String format, String sql) {
    String adaptive = spark.conf().get("spark.sql.adaptive.enabled");
    spark.conf().set("spark.sql.adaptive.enabled", "false");
    try {
      views(spark, dir, tables, format);
      Dataset<Row> df = spark.sql(sql);
      return TpcdsSpark.reuse(df);
    } finally {
      spark.conf().set("spark.sql.adaptive.enabled", adaptive);
    }
  }

  /**
   * Generates each table as a Mosaic table, then copies it to Parquet through Spark, unless a
   * previous run did.
   */
  private static void load(SparkSession spark, Path dir, double sf, List<String> tables)
      throws IOException {
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    for (String name : tables) {
      Path mosaic = dir.resolve("pool/d").resolve(name);
      Path parquet = dir.resolve("parquet").resolve(name);
      long start = System.nanoTime();
      if (!MosaicTable.exists(mosaic)) {
        TpcdsTables.load(Table.getTable(name), sf, mosaic, pool, Map.of(), rows -> {});
      }
      if (!Files.exists(parquet.resolve("_SUCCESS"))) {
        spark
            .read()
            .format("mosaic")
            .load(mosaic.toString())
            .write()
            .mode("overwrite")
            .parquet(parquet.toString());
        System.out.printf(
            Locale.ROOT, "loaded %s in %.1f s%n", name, (System.nanoTime() - start) / 1e9);
      }
    }
  }

  private static void views(SparkSession spark, Path dir, List<String> tables, String format) {
    for (String name : tables) {
      Dataset<Row> df =
          format.equals("parquet")
              ? spark.read().parquet(dir.resolve("parquet").resolve(name).toString())
              : spark.read().format("mosaic").load(dir.resolve("pool/d").resolve(name).toString());
      df.createOrReplaceTempView(name);
    }
  }
}
