package io.mosaic.spark;

import static java.math.BigDecimal.TEN;
import static java.math.RoundingMode.DOWN;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.trace.TraceLog;
import io.mosaic.warehouse.Warehouse;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** {@code spark.read.format("mosaic")} and {@code df.write.format("mosaic")} on a local Spark. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicDataSourceTest {
  private Path dir;
  private Path devices;
  private SparkSession spark;
  private Dataset<Row> orders;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    devices = SparkTestTables.devices(dir);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-source")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config(
                "spark.sql.catalog.mosaic.warehouse", dir.resolve("pool/nvme/warehouse").toString())
            .getOrCreate();
    orders = SparkTestTables.orders(spark);
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private String table(String name) {
    return dir.resolve("pool/nvme").resolve(name).toString();
  }

  @Test
  void writeFromTasksThenReadBackEqual() {
    orders.write().format("mosaic").mode("append").save(table("orders"));
    Dataset<Row> back = spark.read().format("mosaic").load(table("orders"));
    assertThat(back.schema()).isEqualTo(SparkTestTables.ORDERS);
    assertThat(back.count()).isEqualTo(15_000);
    assertThat(back.exceptAll(orders).count()).isZero();
    assertThat(orders.exceptAll(back).count()).isZero();

    // Append again, then overwrite: the table holds what the last job wrote.
    orders.limit(100).write().format("mosaic").mode("append").save(table("orders"));
    assertThat(spark.read().format("mosaic").load(table("orders")).count()).isEqualTo(15_100);
    orders.limit(7).write().format("mosaic").mode("overwrite").save(table("orders"));
    assertThat(spark.read().format("mosaic").load(table("orders")).count()).isEqualTo(7);
  }

  @Test
  void dictionaryEncodedStringsAndFixedWidthNullsReadBackExactly() {
    // Few distinct strings and binaries: stored dictionary-encoded, read through
    // DictionaryColumnVector; the ints through FixedWidthColumnVector; all with nulls.
    StructType schema =
        new StructType()
            .add("mode", DataTypes.StringType, true)
            .add("tag", DataTypes.BinaryType, true)
            .add("n", DataTypes.IntegerType, true)
            .add("day", DataTypes.DateType, true);
    String[] modes = {"AIR", "AIR REG", "MAIL", "RAIL", "SHIP", "TRUCK", "FOB", "ünï"};
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 6_000; i++) {
      rows.add(
          RowFactory.create(
              i % 11 == 0 ? null : modes[i % modes.length],
              i % 13 == 0 ? null : new byte[] {(byte) (i % 5), 0, (byte) 0xff},
              i % 17 == 0 ? null : i * 7 - 20_000,
              i % 19 == 0
                  ? null
                  : java.sql.Date.valueOf(LocalDate.of(1995, 1, 1).plusDays(i % 900))));
    }
    Dataset<Row> source = spark.createDataFrame(rows, schema);
    source.write().format("mosaic").save(table("dictionaries"));
    Dataset<Row> back = spark.read().format("mosaic").load(table("dictionaries"));
    assertThat(back.exceptAll(source).count()).isZero();
    assertThat(source.exceptAll(back).count()).isZero();
    String filter = "mode = 'AIR REG' OR mode IS NULL OR tag = X'0300FF'";
    assertThat(back.where(filter).count()).isEqualTo(source.where(filter).count()).isPositive();
    assertThat(back.groupBy("mode").count().exceptAll(source.groupBy("mode").count()).count())
        .isZero();
  }

  @Test
  void decimalsReadBackExactlyWithSignsNullsAndEveryPrecision() {
    // decimal(12,2) and (18,0) come as unscaled longs (UnscaledDecimalColumnVector); (38,10) as
    // Arrow's 16-byte decimals, through Spark's ArrowColumnVector.
    StructType schema =
        new StructType()
            .add("price", DataTypes.createDecimalType(12, 2), true)
            .add("wide", DataTypes.createDecimalType(18, 0), true)
            .add("huge", DataTypes.createDecimalType(38, 10), true)
            .add("rate", DataTypes.createDecimalType(12, 2), true);
    List<Row> rows = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 5_000; i++) {
      rows.add(
          RowFactory.create(
              i % 97 == 0
                  ? null
                  : BigDecimal.valueOf(random.nextLong(-99_999_999_999L, 1L << 36), 2),
              i % 89 == 0 ? null : BigDecimal.valueOf(random.nextLong(), 0).divide(TEN, 0, DOWN),
              i % 83 == 0
                  ? null
                  : new BigDecimal(
                          random.nextLong() + "%09d".formatted(random.nextInt(1_000_000_000)))
                      .movePointLeft(10),
              // Seven values: stored dictionary-encoded, read as ids (DictionaryColumnVector).
              i % 31 == 0 ? null : BigDecimal.valueOf(i % 7 - 3, 2)));
    }
    rows.add(
        RowFactory.create(
            new BigDecimal("9999999999.99"), new BigDecimal("999999999999999999"), null, null));
    rows.add(
        RowFactory.create(
            new BigDecimal("-9999999999.99"), new BigDecimal("-999999999999999999"), null, null));
    Dataset<Row> source = spark.createDataFrame(rows, schema);
    source.write().format("mosaic").save(table("decimals"));
    Dataset<Row> back = spark.read().format("mosaic").load(table("decimals"));
    assertThat(back.exceptAll(source).count()).isZero();
    assertThat(source.exceptAll(back).count()).isZero();
    // Aggregates run on the vectors directly (whole-stage codegen over the columnar batch).
    String sums =
        "sum(price) as p, sum(wide) as w, sum(huge) as h, min(price) as lo, max(wide) as hi,"
            + " sum(rate) as r, min(rate) as rlo";
    assertThat(back.selectExpr(sums.split(", ")).collectAsList())
        .isEqualTo(source.selectExpr(sums.split(", ")).collectAsList());
  }

  @Test
  void pushedFiltersSkipAndResultsDoNotChange() throws Exception {
    orders.orderBy("o_orderdate").write().format("mosaic").mode("append").save(table("sorted"));
    Dataset<Row> mosaic =
        spark
            .read()
            .format("mosaic")
            .load(table("sorted"))
            .filter(col("o_orderdate").lt(lit(Date.valueOf("1993-01-01"))))
            .select("o_orderkey", "o_totalprice");
    String plan = mosaic.queryExecution().executedPlan().toString();
    assertThat(plan)
        .contains("MosaicScan sorted", "[o_orderkey, o_totalprice, o_orderdate]", "o_orderdate <");
    Dataset<Row> expected =
        orders
            .filter(col("o_orderdate").lt(lit(Date.valueOf("1993-01-01"))))
            .select("o_orderkey", "o_totalprice");
    assertThat(mosaic.count()).isEqualTo(expected.count()).isPositive();
    assertThat(mosaic.exceptAll(expected).count()).isZero();
    // A filter Mosaic cannot use (a function of a column) goes back to Spark, never an error.
    assertThat(
            spark
                .read()
                .format("mosaic")
                .load(table("sorted"))
                .filter(col("o_comment").startsWith("carefully"))
                .count())
        .isEqualTo(orders.filter(col("o_comment").startsWith("carefully")).count());
    // Every scan is in the trace, with Spark's execution id and the application's id ...
    TraceLog log = new TraceLog(Path.of(table("sorted")));
    String app = "@" + spark.sparkContext().applicationId();
    assertThat(log.read(1))
        .anySatisfy(r -> assertThat(r.queryId()).startsWith("spark-execution-").endsWith(app));
    // ... and so is each query's own time, once Spark's listeners heard the executions end
    // (docs/cost-model.md, "Predicted query time").
    spark.sparkContext().listenerBus().waitUntilEmpty();
    Map<String, Long> queries = log.queryMillis(1);
    assertThat(log.read(1))
        .filteredOn(r -> r.queryId().startsWith("spark-execution-"))
        .isNotEmpty()
        .allSatisfy(r -> assertThat(queries).containsKey(r.queryId()));
    assertThat(queries.values()).allSatisfy(ms -> assertThat(ms).isNotNegative());
  }

  @Test
  void sqlCatalogCreatesInsertsSelectsAndDrops() {
    spark.sql("CREATE NAMESPACE mosaic.tpch");
    spark.sql("CREATE TABLE mosaic.tpch.t (k BIGINT, s STRING)");
    spark.sql("INSERT INTO mosaic.tpch.t VALUES (1, 'a'), (2, 'b'), (3, NULL)");
    assertThat(spark.sql("SELECT sum(k), count(s) FROM mosaic.tpch.t").first())
        .isEqualTo(RowFactory.create(6L, 2L));
    orders.createOrReplaceTempView("orders_view");
    spark.sql("CREATE TABLE mosaic.tpch.o AS SELECT o_orderkey, o_totalprice FROM orders_view");
    assertThat(spark.sql("SELECT count(*) FROM mosaic.tpch.o").first().getLong(0))
        .isEqualTo(15_000);
    assertThat(spark.sql("SHOW TABLES IN mosaic.tpch").collectAsList())
        .extracting(r -> r.getString(1))
        .containsExactly("o", "t");
    spark.sql("DROP TABLE mosaic.tpch.t");
    assertThat(spark.sql("SHOW TABLES IN mosaic.tpch").collectAsList())
        .extracting(r -> r.getString(1))
        .containsExactly("o");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM mosaic.tpch.t").collect())
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
  }

  /**
   * DROP TABLE in this long-lived driver JVM gives the devices their space back in the accounting
   * of the pool the catalog writes and drops through (one per JVM and devices.toml, {@link
   * MosaicOptions#pool}): the bytes the CTAS booked are released, not only deleted from disk.
   */
  @Test
  void dropTableGivesTheDevicesTheirSpaceBack() throws IOException {
    DevicePool pool = new MosaicOptions(dir.toString(), devices.toString()).pool();
    Map<String, Long> used = new HashMap<>();
    Map<String, Long> free = new HashMap<>();
    for (Device d : pool.devices()) {
      used.put(d.id(), d.usedBytes());
      free.put(d.id(), d.freeBytes());
    }
    spark.sql("CREATE NAMESPACE mosaic.space");
    orders.createOrReplaceTempView("orders_space");
    spark.sql("CREATE TABLE mosaic.space.o AS SELECT * FROM orders_space");
    assertThat(pool.devices())
        .anySatisfy(d -> assertThat(d.usedBytes()).isGreaterThan(used.get(d.id())));

    // Renaming moves only the table root: the bytes stay booked, the data stays readable.
    spark.sql("ALTER TABLE mosaic.space.o RENAME TO space.o2");
    assertThat(spark.sql("SELECT count(*) FROM mosaic.space.o2").first().getLong(0))
        .isEqualTo(15_000);
    assertThat(spark.sql("SHOW TABLES IN mosaic.space").collectAsList())
        .extracting(r -> r.getString(1))
        .containsExactly("o2");

    spark.sql("DROP TABLE mosaic.space.o2");
    for (Device d : pool.devices()) {
      assertThat(d.usedBytes())
          .as("device %s after DROP TABLE", d.id())
          .isEqualTo(used.get(d.id()));
      assertThat(d.freeBytes())
          .as("device %s after DROP TABLE", d.id())
          .isEqualTo(free.get(d.id()));
    }
    spark.sql("DROP NAMESPACE mosaic.space");
    assertThat(spark.sql("SHOW NAMESPACES IN mosaic").collectAsList())
        .extracting(r -> r.getString(0))
        .doesNotContain("space");
  }

  /** The warehouse's names, the same as Trino's (core's {@link Warehouse#checkName}). */
  @Test
  void namesAreCoresAndANonEmptyNamespaceIsNotDropped() {
    assertThatThrownBy(() -> spark.sql("CREATE NAMESPACE mosaic.`a b`"))
        .hasMessageContaining("namespace name 'a b' is not allowed: use letters, digits");
    spark.sql("CREATE NAMESPACE mosaic.names");
    assertThatThrownBy(() -> spark.sql("CREATE TABLE mosaic.names.`..evil` (k BIGINT)"))
        .hasMessageContaining("table name '..evil' is not allowed");
    assertThatThrownBy(() -> spark.sql("CREATE NAMESPACE mosaic.names"))
        .hasMessageContaining("SCHEMA_ALREADY_EXISTS");
    spark.sql("CREATE TABLE mosaic.names.t (k BIGINT)");
    assertThatThrownBy(() -> spark.sql("CREATE TABLE mosaic.names.t (k BIGINT)"))
        .hasMessageContaining("TABLE_OR_VIEW_ALREADY_EXISTS");
    assertThatThrownBy(() -> spark.sql("DROP NAMESPACE mosaic.names"))
        .hasMessageContaining("SCHEMA_NOT_EMPTY");
    spark.sql("DROP NAMESPACE mosaic.names CASCADE");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM mosaic.names.t").collect())
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
  }

  @Test
  void missingPoolOrTableIsAClearError() {
    assertThatThrownBy(() -> spark.read().format("mosaic").load(table("nope")).count())
        .hasMessageContaining("no Mosaic table at " + table("nope"));
  }
}
