package io.mosaic.spark;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.spark.TpcdsSpark.Reuse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Spark reuses an exchange or subquery when two of a plan's subtrees are equal, and compares scans
 * by their {@code Batch}: Mosaic's scans are equal exactly when they read the same rows of the same
 * table version (docs/spark.md, "Exchange reuse"). TPC-DS queries that repeat a common table
 * expression then reuse as much over Mosaic as over Parquet; scans that differ in columns or
 * version are never reused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExchangeReuseTest {
  /** The queries of the TPC-DS suite that reuse the most (q14a: 34 exchanges at SF 1). */
  private static final List<String> QUERIES = List.of("q14a", "q23a", "q23b", "q64");

  private SparkSession spark;
  private Path dir;
  private final Map<String, StructType> schemas = new LinkedHashMap<>();

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    this.dir = dir;
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-exchange-reuse")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.mosaic.devices", SparkTestTables.devices(dir).toString())
            // Shuffles rather than broadcasts, as at SF 1, where the fact tables are too large to
            // broadcast; empty stages kept, so that adaptive execution plans what it would on data.
            .config("spark.sql.autoBroadcastJoinThreshold", "-1")
            .config(
                "spark.sql.adaptive.optimizer.excludedRules",
                "org.apache.spark.sql.execution.adaptive.AQEPropagateEmptyRelation")
            .getOrCreate();
    // Only the tables the queries read; empty, since the test is on the plan, and then both
    // formats give Spark the same (zero) sizes.
    Map<String, StructType> all = TpcdsSpark.schemas();
    String texts = String.join("\n", QUERIES.stream().map(TpcdsSpark::query).toList());
    for (String table : TpcdsSpark.tablesOf(texts, all.keySet())) {
      StructType schema = all.get(table);
      schemas.put(table, schema);
      Dataset<Row> empty = spark.createDataFrame(List.of(), schema);
      empty.write().parquet(dir.resolve("parquet").resolve(table).toString());
      empty.write().format("mosaic").save(dir.resolve("pool/nvme").resolve(table).toString());
    }
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private void views(String format) {
    for (String table : schemas.keySet()) {
      Dataset<Row> df =
          format.equals("parquet")
              ? spark
                  .read()
                  .schema(schemas.get(table))
                  .parquet(dir.resolve("parquet").resolve(table).toString())
              : spark
                  .read()
                  .format("mosaic")
                  .load(dir.resolve("pool/nvme").resolve(table).toString());
      df.createOrReplaceTempView(table);
    }
  }

  /** Each query's reuse over {@code format}; with adaptive execution, after running it. */
  private Map<String, Reuse> reuse(String format, boolean adaptive, List<String> queries) {
    spark.conf().set("spark.sql.adaptive.enabled", String.valueOf(adaptive));
    views(format);
    Map<String, Reuse> reuse = new LinkedHashMap<>();
    for (String q : queries) {
      Dataset<Row> df = spark.sql(TpcdsSpark.query(q));
      if (adaptive) {
        df.collectAsList();
      }
      reuse.put(q, TpcdsSpark.reuse(df));
    }
    return reuse;
  }

  @Test
  void tpcdsPlansReuseAsMuchOverMosaicAsOverParquet() {
    Map<String, Reuse> parquet = reuse("parquet", false, QUERIES);
    assertThat(parquet.get("q14a").exchanges()).isGreaterThan(10);
    assertThat(reuse("mosaic", false, QUERIES)).isEqualTo(parquet);
  }

  /** Adaptive execution (Spark's default) on q14a only: it runs the query, stage by stage. */
  @Test
  void adaptivePlansReuseAsMuchOverMosaicAsOverParquet() {
    Map<String, Reuse> parquet = reuse("parquet", true, List.of("q14a"));
    assertThat(parquet.get("q14a").exchanges()).isGreaterThan(10);
    assertThat(reuse("mosaic", true, List.of("q14a"))).isEqualTo(parquet);
  }

  /** A small table t(a, b, c) of 100 rows at {@code name}: b = a, c = 2a. */
  private String small(String name) {
    String path = dir.resolve("pool/nvme").resolve(name).toString();
    spark
        .range(100)
        .selectExpr("id AS a", "id AS b", "2 * id AS c")
        .write()
        .format("mosaic")
        .save(path);
    return path;
  }

  private Dataset<Row> read(String path) {
    return spark.read().format("mosaic").load(path);
  }

  private Dataset<Row> planned(Dataset<Row> df) {
    spark.conf().set("spark.sql.adaptive.enabled", "false");
    return df;
  }

  /** Sums of {@code column} by a: partial sums, then an exchange by a. */
  private static Dataset<Row> sums(Dataset<Row> t, String column) {
    return t.groupBy("a").agg(functions.sum(column).as("s"));
  }

  private static long total(Dataset<Row> sums) {
    return sums.collectAsList().stream().mapToLong(r -> r.getLong(1)).sum();
  }

  private static String plan(Dataset<Row> df) {
    return df.queryExecution().executedPlan().toString();
  }

  private static Scan scanOf(Dataset<Row> df) {
    return CollectionConverters.asJava(df.queryExecution().executedPlan().collectLeaves()).stream()
        .filter(p -> p instanceof BatchScanExec)
        .map(p -> ((BatchScanExec) p).scan())
        .findFirst()
        .orElseThrow();
  }

  @Test
  void twoScansOfTheSameRowsShareOneExchange() {
    Dataset<Row> t = read(small("same"));
    Dataset<Row> q = planned(sums(t, "b").union(sums(t, "b")));
    assertThat(TpcdsSpark.reuse(q)).as(plan(q)).isEqualTo(new Reuse(1, 0));
    assertThat(total(q)).isEqualTo(2 * 4950L);
  }

  /**
   * Spark's {@code BatchScanExec} compares scans by their batch, not their output: the partial sums
   * of b and of c by a have equal plans above two scans that differ only in a column.
   */
  @Test
  void scansOfOtherColumnsAreNotReused() {
    Dataset<Row> t = read(small("columns"));
    Dataset<Row> q = planned(sums(t, "b").union(sums(t, "c")));
    assertThat(TpcdsSpark.reuse(q)).as(plan(q)).isEqualTo(new Reuse(0, 0));
    assertThat(total(q)).isEqualTo(4950L + 9900L);
  }

  @Test
  void scansOfAnotherVersionAreNotReused() {
    String path = small("versions");
    Dataset<Row> before = read(path);
    spark
        .range(100, 110)
        .selectExpr("id AS a", "id AS b", "2 * id AS c")
        .write()
        .format("mosaic")
        .mode("append")
        .save(path);
    Dataset<Row> after = read(path);
    Dataset<Row> q = planned(sums(before, "b").union(sums(after, "b")));
    assertThat(TpcdsSpark.reuse(q)).as(plan(q)).isEqualTo(new Reuse(0, 0));
    assertThat(total(q)).isEqualTo(4950L + 5995L);
    assertThat(scanOf(before.select("b"))).isNotEqualTo(scanOf(after.select("b")));
  }

  @Test
  void scansAreEqualExactlyWhenTheyReadTheSameRows() {
    String path = small("equality");
    Dataset<Row> t = read(path);
    Scan scan = scanOf(t.select("a", "b").where(col("a").gt(5)));
    // Another DataFrame of the same version, filters in another order: the same rows.
    Scan same = scanOf(read(path).select("a", "b").where(col("a").gt(5)));
    assertThat(same).isEqualTo(scan).hasSameHashCodeAs(scan);
    assertThat(scanOf(t.select("a", "b").where(col("a").gt(5).and(col("b").lt(50)))))
        .isEqualTo(scanOf(t.select("a", "b").where(col("b").lt(50).and(col("a").gt(5)))));
    // The sharing policy decides how reads are shared, not which rows they return.
    assertThat(
            scanOf(
                spark
                    .read()
                    .format("mosaic")
                    .option("sharing_policy", "normal")
                    .load(path)
                    .select("a", "b")
                    .where(col("a").gt(5))))
        .isEqualTo(scan);
    assertThat(scanOf(t.select("a", "b").where(col("a").gt(6)))).isNotEqualTo(scan);
    assertThat(scanOf(t.select("a", "b"))).isNotEqualTo(scan);
    assertThat(scanOf(t.select("a", "c").where(col("a").gt(5)))).isNotEqualTo(scan);
    assertThat(
            scanOf(
                spark
                    .read()
                    .format("mosaic")
                    .option("pushdown", "false")
                    .load(path)
                    .select("a", "b")
                    .where(col("a").gt(5))))
        .isNotEqualTo(scan);
  }
}
