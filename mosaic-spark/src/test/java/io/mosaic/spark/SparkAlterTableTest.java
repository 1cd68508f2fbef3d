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
        .hasMessageContaining("DROP COLUMN(S) and RENAME COLUMN");
    assertThatThrownBy(() -> spark.sql("ALTER TABLE " + t + " ADD COLUMN k int FIRST"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("a column position");
    assertThat(spark.table(t).columns()).containsExactly("x", "s");
    assertThat(rowStrings("SELECT * FROM " + t)).containsExactly("[1,a]");
  }
}
