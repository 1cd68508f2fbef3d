package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code CHAR(n)} through Spark: a table created by SQL DDL in the Mosaic catalog, or by a
 * DataFrame write, keeps char(n) in its schema and its values without trailing spaces, and every
 * query answers as over a Parquet table of the same DDL and rows in the same session, with Spark's
 * read-side padding on (the default) or off (docs/spark.md, "Types").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkCharTest {
  private static final String ROWS =
      "(1, 'ab'), (2, 'ab   '), (3, 'Books'), (4, NULL), (5, concat('a', char(9))), (6, '  x'),"
          + " (7, 'b')";

  private Path dir;
  private DevicePool pool;
  private SparkSession spark;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    Path devices = SparkTestTables.devices(dir);
    pool = DevicePool.load(devices);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-char")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toString())
            .config("spark.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", warehouse().toString())
            .getOrCreate();
    spark.sql("CREATE NAMESPACE mosaic.db");
    spark.sql("CREATE TABLE mosaic.db.t (k INT, c CHAR(5))");
    spark.sql("CREATE TABLE p (k INT, c CHAR(5)) USING parquet");
    spark.sql("INSERT INTO mosaic.db.t VALUES " + ROWS);
    spark.sql("INSERT INTO p VALUES " + ROWS);
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private Path warehouse() {
    return dir.resolve("pool/nvme/warehouse");
  }

  private Manifest manifest(String table) {
    return MosaicTable.open(warehouse().resolve("db").resolve(table), pool).latest();
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void ddlKeepsCharNAndStoresTrimmedValues() {
    Manifest m = manifest("t");
    assertThat(m.schema().column("c").type()).isEqualTo(ColumnType.charOf(5));
    List<RowGroupStats> stats =
        m.segmentsOf("c").stream().flatMap(s -> s.stats().stream()).toList();
    // Spark wrote the values padded to 5; the segments hold them without the padding.
    List<String> bounds =
        stats.stream()
            .flatMap(s -> java.util.stream.Stream.of(s.min(), s.max()))
            .map(v -> (String) v)
            .toList();
    assertThat(bounds).contains("  x", "b").allSatisfy(v -> assertThat(v).doesNotEndWith(" "));
    assertThat(spark.table("mosaic.db.t").schema().apply("c").dataType().simpleString())
        .isEqualTo(spark.table("p").schema().apply("c").dataType().simpleString());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "true",
        "c = 'ab'",
        "c = 'ab   '",
        "c = 'ab     '",
        "c IN ('ab', 'Books', 'zz')",
        "c <> 'ab'",
        "c < 'ab'",
        "c >= 'b'",
        "c BETWEEN 'a' AND 'b'",
        "c LIKE 'a%'",
        "c LIKE '% '",
        "c IS NULL",
        "length(c) = 5",
        "c = concat('a', char(9))"
      })
  void queriesAnswerAsOverParquetWithAndWithoutReadSidePadding(String filter) {
    for (String padding : List.of("true", "false")) {
      spark.conf().set("spark.sql.readSideCharPadding", padding);
      try {
        String sql = "SELECT k, c, length(c) FROM TABLE WHERE " + filter;
        assertThat(sorted(spark.sql(sql.replace("TABLE", "mosaic.db.t"))))
            .as("%s with spark.sql.readSideCharPadding=%s", filter, padding)
            .isEqualTo(sorted(spark.sql(sql.replace("TABLE", "p"))));
      } finally {
        spark.conf().unset("spark.sql.readSideCharPadding");
      }
    }
  }

  /**
   * Spark 4.2 compares a char column padded (read-side padding on: the padded read; off: {@code
   * rpad(c, 5)} in the filter), which is no column, so only {@code is not null} reaches Mosaic, and
   * the rows are right either way.
   */
  @ParameterizedTest
  @ValueSource(strings = {"true", "false"})
  void onlyIsNotNullIsPushedOnACharColumn(String padding) {
    spark.conf().set("spark.sql.readSideCharPadding", padding);
    try {
      Dataset<Row> rows = spark.sql("SELECT k FROM mosaic.db.t WHERE c = 'ab'");
      assertThat(rows.queryExecution().executedPlan().toString())
          .contains("MosaicScan t v2 [k, c] where c is not null ")
          .doesNotContain("where c = ");
      assertThat(sorted(rows)).containsExactly("[1]", "[2]");
    } finally {
      spark.conf().unset("spark.sql.readSideCharPadding");
    }
  }

  @Test
  void aJoinOfCharOnStringAnswersAsOverParquet() {
    String sql =
        "SELECT t.k, s.v FROM %s t JOIN (SELECT * FROM VALUES ('ab   '), ('Books'), ('b') s(v))"
            + " s ON t.c = s.v";
    // Spark compares char(5) with a string as strings, the char side padded: 'ab   ' matches.
    assertThat(sorted(spark.sql(sql.formatted("mosaic.db.t"))))
        .isEqualTo(sorted(spark.sql(sql.formatted("p"))))
        .isNotEmpty();
  }

  @Test
  void aDataFrameWriteOfACharColumnCreatesACharTable() throws Exception {
    spark.table("p").writeTo("mosaic.db.from_df").create();
    assertThat(manifest("from_df").schema().column("c").type()).isEqualTo(ColumnType.charOf(5));
    assertThat(sorted(spark.table("mosaic.db.from_df"))).isEqualTo(sorted(spark.table("p")));

    String path = dir.resolve("pool/nvme/by_path").toString();
    spark.table("p").write().format("mosaic").save(path);
    assertThat(MosaicTable.open(Path.of(path), pool).latest().schema().column("c").type())
        .isEqualTo(ColumnType.charOf(5));
    assertThat(sorted(spark.read().format("mosaic").load(path)))
        .isEqualTo(sorted(spark.table("p")));
  }
}
