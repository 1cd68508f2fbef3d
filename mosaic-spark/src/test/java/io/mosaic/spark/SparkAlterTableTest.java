package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER TABLE ADD / DROP / RENAME COLUMN on a local Spark (docs/operations.md, "Changing columns"),
 * checked against the same statements on a Parquet table where Spark's file source has them (ADD
 * COLUMNS) and against the expected rows where it has not (DROP and RENAME COLUMN are for v2 tables
 * only).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkAlterTableTest {
  private SparkSession spark;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    Path devices = SparkTestTables.devices(dir);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-alter-table")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toString())
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .getOrCreate();
    spark.sql("CREATE NAMESPACE mosaic.alt");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private List<String> rowStrings(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).toList();
  }

  @Test
  void addColumnReadsNullInOldRowsAsParquetDoes() {
    for (String t : List.of("mosaic.alt.added", "spark_catalog.default.added_parquet")) {
      String using = t.startsWith("mosaic") ? "" : " USING parquet";
      spark.sql("CREATE TABLE " + t + " (x bigint, s string)" + using);
      spark.sql("INSERT INTO " + t + " VALUES (1, 'a'), (2, 'b')");
      spark.sql("ALTER TABLE " + t + " ADD COLUMNS (n int)");
      spark.sql("INSERT INTO " + t + " VALUES (3, 'c', 30), (4, 'd', NULL), (5, 'e', 7)");
    }
    String mosaic = "mosaic.alt.added";
    String parquet = "spark_catalog.default.added_parquet";
    assertThat(rowStrings("SELECT * FROM " + mosaic + " ORDER BY x"))
        .containsExactly("[1,a,null]", "[2,b,null]", "[3,c,30]", "[4,d,null]", "[5,e,7]")
        .isEqualTo(rowStrings("SELECT * FROM " + parquet + " ORDER BY x"));
    // A predicate on the added column: pushed to Mosaic's row group filter, NULLs never match.
    for (String where : List.of("n > 10", "n IS NULL", "n < 10", "n = 30 OR s = 'a'")) {
      assertThat(rowStrings("SELECT x FROM " + mosaic + " WHERE " + where + " ORDER BY x"))
          .as(where)
          .isEqualTo(rowStrings("SELECT x FROM " + parquet + " WHERE " + where + " ORDER BY x"))
          .isNotEmpty();
    }
    assertThat(rowStrings("SELECT count(n), count(*), sum(n) FROM " + mosaic))
        .containsExactly("[2,5,37]");
  }

  @Test
  void renameAndDropColumn() {
    String t = "mosaic.alt.changed";
    spark.sql("CREATE TABLE " + t + " (x bigint, s string, n int)");
    spark.sql("INSERT INTO " + t + " VALUES (1, 'a', 10), (2, 'b', 20)");

    spark.sql("ALTER TABLE " + t + " RENAME COLUMN s TO label");
    assertThat(spark.table(t).columns()).containsExactly("x", "label", "n");
    spark.sql("INSERT INTO " + t + " VALUES (3, 'c', 30)");
    assertThat(rowStrings("SELECT label FROM " + t + " WHERE label >= 'b' ORDER BY x"))
        .containsExactly("[b]", "[c]");

    spark.sql("ALTER TABLE " + t + " DROP COLUMN n");
    assertThat(spark.table(t).columns()).containsExactly("x", "label");
    assertThat(rowStrings("SELECT * FROM " + t + " ORDER BY x"))
        .containsExactly("[1,a]", "[2,b]", "[3,c]");

    // Added again under the same name, it is a new column: the dropped values do not come back.
    spark.sql("ALTER TABLE " + t + " ADD COLUMN n int");
    assertThat(rowStrings("SELECT * FROM " + t + " ORDER BY x"))
        .containsExactly("[1,a,null]", "[2,b,null]", "[3,c,null]");
  }

  /**
   * ALTER COLUMN ... TYPE to wider types: the rows written before read as the same values in the
   * new types, beside rows only the new types hold, as a Parquet table created with the wide types
   * holds them; predicates on the widened columns select the same rows over old and new segments.
   */
  @Test
  void widenedColumnsReadOldRowsInTheNewTypesAsParquetWithThoseTypes() {
    String t = "mosaic.alt.widened";
    String ref = "spark_catalog.default.widened_parquet";
    spark.sql("CREATE TABLE " + t + " (k bigint, b tinyint, i int, f float, d decimal(9,2))");
    String old =
        " VALUES (1, 1Y, 2147483647, 1.5F, 1234567.89BD), (2, -128Y, -2147483648, -0.25F,"
            + " -0.01BD), (3, NULL, NULL, NULL, NULL), (4, 7Y, 40, 3.0F, 0.50BD)";
    spark.sql("INSERT INTO " + t + old);
    spark.sql("ALTER TABLE " + t + " ALTER COLUMN b TYPE smallint");
    spark.sql("ALTER TABLE " + t + " ALTER COLUMN i TYPE bigint");
    spark.sql("ALTER TABLE " + t + " ALTER COLUMN f TYPE double");
    spark.sql("ALTER TABLE " + t + " ALTER COLUMN d TYPE decimal(20,2)");
    String wide =
        " VALUES (5, 32767S, 9000000000, 1.0E300D, 123456789012345678.99BD), (6, NULL, -5, NULL,"
            + " 2.00BD)";
    spark.sql("INSERT INTO " + t + wide);
    spark.sql(
        "CREATE TABLE "
            + ref
            + " (k bigint, b smallint, i bigint, f double, d decimal(20,2)) USING parquet");
    spark.sql("INSERT INTO " + ref + old);
    spark.sql("INSERT INTO " + ref + wide);

    assertThat(spark.table(t).schema().simpleString())
        .isEqualTo("struct<k:bigint,b:smallint,i:bigint,f:double,d:decimal(20,2)>");
    assertThat(rowStrings("SELECT * FROM " + t + " ORDER BY k"))
        .hasSize(6)
        .isEqualTo(rowStrings("SELECT * FROM " + ref + " ORDER BY k"));
    for (String where :
        List.of(
            "i > 2147483646",
            "i < 0",
            "i IS NULL",
            "b = -128",
            "b > 100",
            "f >= 1.5",
            "f < 0",
            "d = 1234567.89",
            "d > 1000000",
            "i BETWEEN -10 AND 100")) {
      assertThat(rowStrings("SELECT k FROM " + t + " WHERE " + where + " ORDER BY k"))
          .as(where)
          .isEqualTo(rowStrings("SELECT k FROM " + ref + " WHERE " + where + " ORDER BY k"))
          .isNotEmpty();
    }
    assertThat(rowStrings("SELECT sum(i), max(f), sum(d) FROM " + t))
        .isEqualTo(rowStrings("SELECT sum(i), max(f), sum(d) FROM " + ref));
  }

  @Test
  void aTypeChangeThatIsNoWideningIsRefusedAndChangesNothing() {
    String t = "mosaic.alt.notwidened";
    spark.sql("CREATE TABLE " + t + " (k bigint, i int, d decimal(9,2))");
    spark.sql("INSERT INTO " + t + " VALUES (1, 10, 1.25)");
    // Spark itself allows these up-casts; Mosaic would have to rewrite the column for them.
    for (String change : List.of("i TYPE double", "d TYPE decimal(12,4)")) {
      assertThatThrownBy(() -> spark.sql("ALTER TABLE " + t + " ALTER COLUMN " + change))
          .as(change)
          .isInstanceOf(MosaicException.class)
          .hasMessageContaining("cannot change column '")
          .hasMessageContaining("int32 to int64");
    }
    assertThat(spark.table(t).schema().simpleString())
        .isEqualTo("struct<k:bigint,i:int,d:decimal(9,2)>");
    assertThat(rowStrings("SELECT * FROM " + t)).containsExactly("[1,10,1.25]");
  }

  @Test
  void unsupportedChangesAreRefusedNamingWhatIsSupported() {
    String t = "mosaic.alt.refused";
    spark.sql("CREATE TABLE " + t + " (x bigint, s string)");
    spark.sql("INSERT INTO " + t + " VALUES (1, 'a')");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE " + t + " ADD COLUMN k int NOT NULL"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("cannot add NOT NULL column 'k'")
        .hasMessageContaining("add the column as nullable");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE " + t + " ALTER COLUMN x COMMENT 'key'"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("is not supported")
        .hasMessageContaining("RENAME COLUMN and ALTER COLUMN ... TYPE to a wider type");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE " + t + " ADD COLUMN k int FIRST"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("a column position");
    assertThat(spark.table(t).columns()).containsExactly("x", "s");
    assertThat(rowStrings("SELECT * FROM " + t)).containsExactly("[1,a]");
  }
}
