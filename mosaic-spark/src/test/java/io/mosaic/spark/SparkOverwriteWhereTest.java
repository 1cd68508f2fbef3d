package io.mosaic.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.table.MosaicTable;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Date;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.AlwaysFalse;
import org.apache.spark.sql.connector.expressions.filter.AlwaysTrue;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Overwrite by a condition on a local Spark (docs/spark.md, "Overwrite by a condition"): {@code
 * writeTo(t).overwrite(condition)} and {@code INSERT INTO t REPLACE WHERE}, each checked against
 * the same change computed by Spark over the same rows read from a Parquet table, and committed as
 * one version that deletes rows by deletion vectors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkOverwriteWhereTest {
  @TempDir static Path dir;
  private SparkSession spark;
  private DevicePool pool;

  /** The rows of the table: k, s, d, price and x with NULLs, x with NaN, -0.0 and 0.0. */
  private static final String ROWS =
      "SELECT id, CASE WHEN id % 11 = 0 THEN NULL ELSE CAST(id % 7 AS INT) END AS k,"
          + " CASE WHEN id % 13 = 0 THEN NULL ELSE concat('s', id % 5) END AS s,"
          + " CASE WHEN id % 17 = 0 THEN NULL ELSE date_add(DATE '2024-01-01', CAST(id % 10 AS"
          + " INT)) END AS d,"
          + " CASE WHEN id % 19 = 0 THEN NULL ELSE CAST((id % 13) * 1.25 AS DECIMAL(10,2)) END AS"
          + " price,"
          + " CASE WHEN id % 23 = 0 THEN NULL WHEN id % 9 = 0 THEN CAST('NaN' AS DOUBLE)"
          + " WHEN id % 9 = 1 THEN -0.0D ELSE CAST(id % 6 AS DOUBLE) END AS x"
          + " FROM range(0, 400)";

  @BeforeAll
  void start() throws Exception {
    Path devices = SparkTestTables.devices(dir);
    pool = DevicePool.load(devices);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-overwrite-where")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toString())
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .getOrCreate();
    spark.sql("CREATE NAMESPACE mosaic.ow");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private MosaicTable table(String name) {
    return MosaicTable.open(dir.resolve("warehouse/ow").resolve(name), pool);
  }

  /** A Mosaic table and a Parquet table of the same rows; the Parquet one is the reference. */
  private Dataset<Row> create(String name) {
    spark.sql(
        "CREATE TABLE mosaic.ow."
            + name
            + " TBLPROPERTIES ('row_group_rows' = '50') AS "
            + ROWS
            + " ORDER BY id");
    spark.sql("CREATE TABLE " + name + "_ref USING parquet AS " + ROWS);
    return spark.table(name + "_ref");
  }

  /** The reference after an overwrite where {@code condition}: unmatched rows, then new ones. */
  private static Dataset<Row> replaced(Dataset<Row> before, Column condition, Dataset<Row> rows) {
    return before.filter(not(coalesce(condition, lit(false)))).unionByName(rows).localCheckpoint();
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  private Dataset<Row> newRows(String select) {
    return spark.sql(
        "SELECT CAST(id AS BIGINT) id, CAST(k AS INT) k, CAST(s AS STRING) s, CAST(d AS DATE) d,"
            + " CAST(price AS DECIMAL(10,2)) price, CAST(x AS DOUBLE) x FROM ("
            + select
            + ")");
  }

  /** Overwrites {@code t} where {@code condition} and checks the reference and the one version. */
  private Dataset<Row> overwrite(
      String name, Dataset<Row> reference, Column condition, Dataset<Row> rows) throws Exception {
    Manifest before = table(name).latest();
    rows.writeTo("mosaic.ow." + name).overwrite(condition);
    Dataset<Row> expected = replaced(reference, condition, rows);
    checkOneVersion(name, before, expected);
    return expected;
  }

  private void checkOneVersion(String name, Manifest before, Dataset<Row> expected) {
    Manifest after = table(name).latest();
    assertThat(after.version()).isEqualTo(before.version() + 1);
    assertThat(after.operation()).isEqualTo(MosaicTable.REPLACE_WHERE);
    // Nothing was rewritten: the rows are deleted by deletion vectors.
    assertThat(after.segments()).containsAll(before.segments());
    assertThat(after.liveRowCount()).isEqualTo(expected.count());
    assertThat(sorted(spark.table("mosaic.ow." + name))).isEqualTo(sorted(expected));
  }

  @Test
  void overwriteWhereOnIntegersStringsDatesDecimalsAndDoubles() throws Exception {
    Dataset<Row> ref = create("frame");
    long created = table("frame").latest().version();
    long nullK = ref.filter(col("k").isNull()).count();
    // k = 3: rows whose k is NULL are not deleted.
    ref =
        overwrite(
            "frame",
            ref,
            col("k").equalTo(3),
            newRows(
                "SELECT 1000 + id AS id, 3 AS k, 'new' AS s, DATE '2025-01-01' AS d,"
                    + " 1.5 AS price, 0.5 AS x FROM range(0, 5)"));
    assertThat(spark.table("mosaic.ow.frame").filter(col("k").isNull()).count()).isEqualTo(nullK);
    // A string, a range of dates and a decimal, with the literal on either side.
    ref =
        overwrite(
            "frame",
            ref,
            col("s").equalTo("s2").and(col("d").geq(lit(Date.valueOf("2024-01-05")))),
            newRows(
                "SELECT 2000 AS id, 1 AS k, 's2' AS s, DATE '2024-01-06' AS d, 0 AS price,"
                    + " 1 AS x"));
    ref =
        overwrite(
            "frame",
            ref,
            lit(new BigDecimal("2.50")).equalTo(col("price")).or(lit(false)),
            newRows("SELECT 3000 AS id, 2 AS k, 's9' AS s, NULL AS d, 2.5 AS price, 2 AS x"));
    ref =
        overwrite(
            "frame",
            ref,
            col("d").between(Date.valueOf("2024-01-02"), Date.valueOf("2024-01-03")),
            newRows(
                "SELECT 4000 AS id, NULL AS k, NULL AS s, NULL AS d, NULL AS price,"
                    + " NULL AS x"));
    // Doubles as Spark compares them: NaN = NaN and above all others, -0.0 = 0.0.
    ref =
        overwrite(
            "frame",
            ref,
            col("x").equalTo(Double.NaN),
            newRows(
                "SELECT 5000 AS id, 1 AS k, 'n' AS s, NULL AS d, 1 AS price,"
                    + " CAST('NaN' AS DOUBLE) AS x"));
    ref =
        overwrite(
            "frame",
            ref,
            col("x").equalTo(0.0),
            newRows("SELECT 6000 AS id, 1 AS k," + " 'z' AS s, NULL AS d, 1 AS price, 0.0 AS x"));
    ref =
        overwrite(
            "frame",
            ref,
            col("x").gt(4.0).and(col("k").isin(1, 2, 5)),
            newRows("SELECT 7000 AS id, 1 AS k, 'z' AS s, NULL AS d, 1 AS price, 4.5 AS x"));
    // A condition that matches nothing appends only, still as one version.
    Manifest before = table("frame").latest();
    ref =
        overwrite(
            "frame",
            ref,
            col("k").equalTo(100),
            newRows("SELECT 8000 AS id, 100 AS k, 'x' AS s, NULL AS d, 1 AS price, 1 AS x"));
    assertThat(table("frame").latest().deletions()).isEqualTo(before.deletions());
    // Time travel still reads the rows the overwrites deleted.
    assertThat(spark.sql("SELECT * FROM mosaic.ow.frame VERSION AS OF " + created).count())
        .isEqualTo(400);
  }

  @Test
  void insertIntoReplaceWhere() throws Exception {
    Dataset<Row> ref = create("sql");
    ref.createOrReplaceTempView("sql_before");
    Manifest before = table("sql").latest();
    // New values for the rows of s = 's1', read from the table itself (the version replaced).
    spark.sql(
        "INSERT INTO mosaic.ow.sql REPLACE WHERE s = 's1' AND k IN (1, 2, 3)"
            + " SELECT id, k, 's1' AS s, d, price * 2 AS price, x FROM mosaic.ow.sql"
            + " WHERE s = 's1' AND k IN (1, 2, 3)");
    Dataset<Row> expected =
        spark
            .sql(
                "SELECT * FROM sql_before WHERE NOT coalesce(s = 's1' AND k IN (1, 2, 3), false)"
                    + " UNION ALL SELECT id, k, 's1', d, CAST(price * 2 AS DECIMAL(10,2)), x"
                    + " FROM sql_before WHERE s = 's1' AND k IN (1, 2, 3)")
            .localCheckpoint();
    checkOneVersion("sql", before, expected);

    before = table("sql").latest();
    spark.sql(
        "INSERT INTO mosaic.ow.sql REPLACE WHERE d < DATE '2024-01-03' AND price IS NOT NULL"
            + " SELECT 9000L, 1, 'a', DATE '2024-01-01', 1.00BD, 1.0D");
    expected =
        replaced(
            expected,
            col("d").lt(lit(Date.valueOf("2024-01-03"))).and(col("price").isNotNull()),
            newRows(
                "SELECT 9000 AS id, 1 AS k, 'a' AS s, DATE '2024-01-01' AS d, 1 AS price,"
                    + " 1.0 AS x"));
    checkOneVersion("sql", before, expected);
  }

  @Test
  void conditionsWithoutAnExactFormAreRefusedAndChangeNothing() {
    create("refused");
    Manifest before = table("refused").latest();
    Dataset<Row> rows =
        newRows("SELECT 1 AS id, 1 AS k, 'a' AS s, NULL AS d, NULL AS price, NULL AS x");
    for (Column condition :
        List.of(col("k").mod(2).equalTo(0), col("k").equalTo(1).or(col("k").equalTo(2)))) {
      assertThatThrownBy(() -> rows.writeTo("mosaic.ow.refused").overwrite(condition))
          .isInstanceOf(MosaicException.class)
          .satisfies(
              e ->
                  assertThat(((MosaicException) e).kind())
                      .isEqualTo(MosaicException.Kind.UNSUPPORTED))
          .hasMessageContaining("cannot overwrite table refused where")
          .hasMessageContaining("run DELETE FROM ... WHERE and then INSERT INTO");
    }
    assertThatThrownBy(
            () ->
                spark.sql(
                    "INSERT INTO mosaic.ow.refused REPLACE WHERE k <> 3 SELECT 1L, 1, 'a',"
                        + " NULL, NULL, NULL"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("where NOT (k = 3): Mosaic has no exact form of NOT");
    assertThat(table("refused").latest().version()).isEqualTo(before.version());
    assertThat(spark.table("mosaic.ow.refused").count()).isEqualTo(400);
  }

  @Test
  void sparkPredicatesTranslateExactly() {
    var k = Expressions.column("k");
    var three = new LiteralValue<>(3, DataTypes.IntegerType);
    var nothing = new LiteralValue<>(null, DataTypes.IntegerType);
    var day = new LiteralValue<>(19_723, DataTypes.DateType);
    // Literal first: the comparison turns round.
    assertThat(exact(predicate("<", three, k), predicate(">=", k, day)).predicate())
        .isEqualTo(
            io.mosaic.scan.Predicate.of(
                io.mosaic.scan.Predicate.gt("k", 3),
                io.mosaic.scan.Predicate.ge("k", java.time.LocalDate.of(2024, 1, 1))));
    assertThat(exact(predicate("<=>", k, nothing)).predicate())
        .isEqualTo(io.mosaic.scan.Predicate.of(io.mosaic.scan.Predicate.isNull("k")));
    assertThat(exact(predicate("NOT", predicate("IS_NULL", k))).predicate())
        .isEqualTo(io.mosaic.scan.Predicate.of(io.mosaic.scan.Predicate.isNotNull("k")));
    assertThat(exact(predicate("=", k, nothing)).never()).isTrue();
    assertThat(exact(new AlwaysFalse()).never()).isTrue();
    assertThat(exact(new AlwaysTrue()).predicate().terms()).isEmpty();
    var s = Expressions.column("s");
    var a =
        new LiteralValue<>(
            org.apache.spark.unsafe.types.UTF8String.fromString("a"), DataTypes.StringType);
    assertThatThrownBy(() -> exact(predicate("STARTS_WITH", s, a)))
        .hasMessageContaining("Mosaic has no exact form of STARTS_WITH");
    assertThatThrownBy(() -> exact(predicate("=", k, k)))
        .hasMessageContaining("k is not a literal");
  }

  private static org.apache.spark.sql.connector.expressions.filter.Predicate predicate(
      String name, Expression... children) {
    return new org.apache.spark.sql.connector.expressions.filter.Predicate(name, children);
  }

  private static SparkFilters.Condition exact(
      org.apache.spark.sql.connector.expressions.filter.Predicate... predicates) {
    return SparkFilters.exact("t", predicates);
  }

  @Test
  void charColumnsCompareAsPadded() throws Exception {
    spark.sql("CREATE TABLE mosaic.ow.chars (id bigint, c char(3))");
    spark.sql("INSERT INTO mosaic.ow.chars VALUES (1, 'a'), (2, 'a  '), (3, 'ab'), (4, NULL)");
    Dataset<Row> z = spark.sql("SELECT 9L AS id, CAST('z' AS CHAR(3)) AS c");
    // 'a' and 'a  ' are one char(3) value; the NULL stays.
    z.writeTo("mosaic.ow.chars").overwrite(col("c").equalTo("a"));
    assertThat(sorted(spark.table("mosaic.ow.chars")))
        .containsExactly("[3,ab ]", "[4,null]", "[9,z  ]");
    // 'ab ' < 'ab' is false padded; <= is true.
    z.writeTo("mosaic.ow.chars").overwrite(col("c").lt("ab"));
    assertThat(sorted(spark.table("mosaic.ow.chars")))
        .containsExactly("[3,ab ]", "[4,null]", "[9,z  ]", "[9,z  ]");
    z.writeTo("mosaic.ow.chars").overwrite(col("c").leq("ab"));
    assertThat(sorted(spark.table("mosaic.ow.chars")))
        .containsExactly("[4,null]", "[9,z  ]", "[9,z  ]", "[9,z  ]");
  }

  @Test
  void overwriteByTrueStillTruncates() throws Exception {
    create("everything");
    newRows("SELECT 1 AS id, 1 AS k, 'a' AS s, NULL AS d, NULL AS price, NULL AS x")
        .writeTo("mosaic.ow.everything")
        .overwrite(lit(true));
    assertThat(table("everything").latest().operation()).isEqualTo("overwrite");
    assertThat(spark.table("mosaic.ow.everything").count()).isEqualTo(1);
  }
}
