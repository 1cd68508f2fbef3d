package io.mosaic.spark.shaded;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Run by {@code ShadedJarIT} in a JVM with only Spark's class path and the shaded jar: writes a
 * Mosaic table, appends to it, reads it back with a filter, and uses Spark's own Parquet in the
 * same session. Prints {@code KEY=value} lines. Uses Spark's API only: no Mosaic class is on the
 * class path at compile time of a user's job either.
 */
public final class ShadedJarMain {
  private ShadedJarMain() {}

  public static void main(String[] args) throws Exception {
    String devices = args[0];
    String table = args[1];
    String parquet = args[2];
    String warehouse = args[3];
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-shaded-jar")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.catalog.mosaic", "io.mosaic.spark.MosaicCatalog")
            .config("spark.sql.catalog.mosaic.devices", devices)
            .config("spark.sql.catalog.mosaic.warehouse", warehouse)
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      String select = "id, cast(id % 7 AS STRING) AS bucket, cast(id AS DECIMAL(12,2)) AS price";
      spark
          .range(0, 10_000)
          .selectExpr(select.split(", (?=cast)"))
          .write()
          .format("mosaic")
          .option("devices", devices)
          .save(table);
      spark
          .range(10_000, 20_000)
          .selectExpr(select.split(", (?=cast)"))
          .write()
          .format("mosaic")
          .option("devices", devices)
          .mode("append")
          .save(table);
      Row r =
          spark
              .read()
              .format("mosaic")
              .option("devices", devices)
              .load(table)
              .filter("id >= 5000")
              .selectExpr("count(*)", "sum(id)", "sum(price)", "count(DISTINCT bucket)")
              .first();
      System.out.println("MOSAIC_COUNT=" + r.getLong(0));
      System.out.println("MOSAIC_SUM_ID=" + r.getLong(1));
      System.out.println("MOSAIC_SUM_PRICE=" + r.getDecimal(2).toPlainString());
      System.out.println("MOSAIC_BUCKETS=" + r.getLong(3));
      // Spark's own Parquet keeps working beside Mosaic's relocated copy.
      spark.range(0, 1000).write().parquet(parquet);
      System.out.println(
          "SPARK_PARQUET_SUM="
              + spark.read().parquet(parquet).selectExpr("sum(id)").first().get(0));
      System.out.println(
          "SPARK_PARQUET_FROM=" + origin("org.apache.parquet.hadoop.ParquetFileReader"));
      System.out.println(
          "MOSAIC_PARQUET_FROM="
              + origin("io.mosaic.shaded.org.apache.parquet.hadoop.ParquetFileReader"));
      System.out.println("ARROW_FROM=" + origin("org.apache.arrow.vector.BigIntVector"));
      System.out.println("SOURCE_FROM=" + origin("io.mosaic.spark.MosaicDataSource"));
      // The placement procedures: the planner and OR-Tools from the shaded jar.
      spark.sql("CREATE NAMESPACE mosaic.ns");
      spark.sql(
          "CREATE TABLE mosaic.ns.t TBLPROPERTIES ('default_device' = 'hdd') AS"
              + " SELECT id, cast(id % 7 AS STRING) AS bucket FROM range(0, 10000)");
      spark.sql("SELECT sum(id) FROM mosaic.ns.t WHERE id > 10").collectAsList();
      List<Row> plan =
          spark
              .sql("CALL mosaic.system.place(table => 'ns.t', strategy => 'lopt', apply => true)")
              .collectAsList();
      System.out.println("PLACE_STRATEGY_ROWS=" + plan.size());
      System.out.println("PLANNED=" + placement(plan, "planned_device"));
      System.out.println(
          "PLACED="
              + placement(
                  spark.sql("CALL mosaic.system.placement(table => 'ns.t')").collectAsList(),
                  "device"));
      System.out.println("ORTOOLS_FROM=" + origin("com.google.ortools.Loader"));
    } finally {
      spark.stop();
    }
  }

  /** "column:device" pairs, sorted; the columns named as the result schema names them. */
  private static String placement(List<Row> rows, String deviceField) {
    return rows.stream()
        .map(r -> r.<String>getAs("column_name") + ":" + r.<String>getAs(deviceField))
        .sorted()
        .collect(Collectors.joining(","));
  }

  private static String origin(String className) throws ClassNotFoundException, URISyntaxException {
    return Path.of(
            Class.forName(className).getProtectionDomain().getCodeSource().getLocation().toURI())
        .getFileName()
        .toString();
  }
}
