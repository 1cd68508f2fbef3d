package io.mosaic.trino;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.trace.TraceRecord;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.plugin.tpcds.TpcdsPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryFailedException;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every TPC-DS table of {@code tpcds.tiny} copies into Mosaic by CREATE TABLE AS with its types as
 * they are (21 of the 24 have {@code char(n)} columns), and the 99 TPC-DS queries return over the
 * copies what they return over the {@code tpcds} catalog; {@code char(n)} filters, pushed down or
 * not, answer as Trino's own char semantics do (docs/trino.md, "Types").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicTpcdsQueriesTest {
  static final List<String> TABLES =
      List.of(
          "call_center",
          "catalog_page",
          "catalog_returns",
          "catalog_sales",
          "customer",
          "customer_address",
          "customer_demographics",
          "date_dim",
          "household_demographics",
          "income_band",
          "inventory",
          "item",
          "promotion",
          "reason",
          "ship_mode",
          "store",
          "store_returns",
          "store_sales",
          "time_dim",
          "warehouse",
          "web_page",
          "web_returns",
          "web_sales",
          "web_site");

  @TempDir static Path dir;
  private DistributedQueryRunner runner;
  private final Session mosaic =
      testSessionBuilder().setCatalog("mosaic").setSchema("tiny").build();
  private final Session tpcds = testSessionBuilder().setCatalog("tpcds").setSchema("tiny").build();

  @BeforeAll
  void createTables() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    runner.installPlugin(new TpcdsPlugin());
    runner.createCatalog("tpcds", "tpcds", Map.of());
    runner.execute("CREATE SCHEMA mosaic.tiny");
    for (String t : TABLES) {
      // Row groups of 4096 rows: the fact tables have several, so scans skip and split on them.
      MaterializedResult created =
          runner.execute(
              "CREATE TABLE mosaic.tiny."
                  + t
                  + " WITH (row_group_rows = 4096) AS SELECT * FROM tpcds.tiny."
                  + t);
      assertThat(created.getOnlyValue())
          .isEqualTo(runner.execute("SELECT count(*) FROM tpcds.tiny." + t).getOnlyValue());
    }
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  @Test
  void everyColumnKeepsItsTypeCharIncluded() {
    String columns =
        "SELECT table_name, column_name, data_type FROM %s.information_schema.columns"
            // dbgen_version, the generator's own table, is no TPC-DS table (and has a time(3)).
            + " WHERE table_schema = 'tiny' AND table_name <> 'dbgen_version'";
    MaterializedResult expected = runner.execute(columns.formatted("tpcds"));
    assertThat(expected.getMaterializedRows())
        .anySatisfy(r -> assertThat(r.getField(2)).isEqualTo("char(16)"));
    assertEqualsIgnoreOrder(
        runner.execute(columns.formatted("mosaic")).getMaterializedRows(),
        expected.getMaterializedRows());
  }

  static List<Integer> queries() {
    return IntStream.rangeClosed(1, TraceGenerator.TPCDS_QUERY_COUNT).boxed().toList();
  }

  @ParameterizedTest(name = "q{0}")
  @MethodSource("queries")
  void queryMatchesTpcdsCatalog(int q) {
    String sql = TraceGenerator.tpcdsQuery(q);
    MaterializedResult expected;
    try {
      expected = runner.execute(tpcds, sql);
    } catch (QueryFailedException e) {
      // At schema tiny, q12 and q90 divide by a sum that is zero; the answer is that error.
      assertThatThrownBy(() -> runner.execute(mosaic, sql))
          .isInstanceOf(QueryFailedException.class)
          .hasMessage(e.getMessage());
      return;
    }
    MaterializedResult actual = runner.execute(mosaic, sql);
    assertThat(actual.getRowCount()).isEqualTo(expected.getRowCount());
    assertEqualsIgnoreOrder(actual.getMaterializedRows(), expected.getMaterializedRows());
  }

  /** Filters on char(50) i_category, pushed down (= and in) or not, as over the tpcds catalog. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "i_category = 'Books'",
        "i_category = 'Books   '",
        "i_category = CAST('Books' AS char(50))",
        "i_category <> 'Books'",
        "i_category IN ('Books', 'Music  ', 'Nothing')",
        "i_category < 'Children'",
        "i_category BETWEEN 'Books ' AND 'Jewelry'",
        "i_category >= 'Women'",
        "i_category LIKE 'Boo%'",
        "i_category LIKE 'Books'",
        "i_category IS NULL",
        "rtrim(i_category) = 'Books'",
        "i_category = CAST('Books' AS varchar(50))"
      })
  void charFiltersMatchTrinosCharSemantics(String filter) {
    String sql = "SELECT i_item_sk, i_category FROM item WHERE " + filter;
    MaterializedResult expected = runner.execute(tpcds, sql);
    assertEqualsIgnoreOrder(
        runner.execute(mosaic, sql).getMaterializedRows(), expected.getMaterializedRows());
    if (filter.startsWith("i_category = 'Books")) {
      assertThat(expected.getRowCount()).as("the tiny schema's books").isPositive();
    }
  }

  @Test
  void aJoinOfCharOnVarcharMatchesTheTpcdsCatalog() {
    String sql =
        "SELECT i.i_item_sk, v.name FROM item i JOIN (VALUES 'Books', 'Music  ', 'Home')"
            + " v(name) ON i.i_category = v.name";
    MaterializedResult expected = runner.execute(tpcds, sql);
    assertThat(expected.getRowCount()).isPositive();
    assertEqualsIgnoreOrder(
        runner.execute(mosaic, sql).getMaterializedRows(), expected.getMaterializedRows());
  }

  /**
   * One value per row group: = and in read only the row group holding the trimmed value; ranges
   * read them all, since 'a' || tab orders before 'a' as char(3) but after it as bytes.
   */
  @Test
  void equalityPrunesRowGroupsAndRangesKeepCharOrder() {
    String values =
        "(VALUES (1, CAST('ab' AS char(3))), (2, CAST('a' || chr(9) AS char(3))),"
            + " (3, CAST('b  ' AS char(3))), (4, CAST(NULL AS char(3)))) t(k, c)";
    runner.execute(
        "CREATE TABLE mosaic.tiny.chars WITH (row_group_rows = 1) AS SELECT * FROM " + values);
    for (String filter :
        List.of("c = 'ab '", "c IN ('b', 'zz')", "c < 'a'", "c > 'a' || chr(9)", "c = 'a'")) {
      MaterializedResult expected =
          runner.execute(mosaic, "SELECT k FROM " + values + " WHERE " + filter);
      MaterializedResultWithPlan actual =
          runner.executeWithPlan(mosaic, "SELECT k FROM chars WHERE " + filter);
      assertEqualsIgnoreOrder(
          actual.result().getMaterializedRows(), expected.getMaterializedRows());
      List<TraceRecord> scans =
          MosaicQueryRunner.traceRecords(dir.resolve("metadata/tiny/chars"), actual);
      int read = scans.stream().mapToInt(r -> r.rowGroups().size()).sum();
      if (filter.startsWith("c < ") || filter.startsWith("c > ")) {
        assertThat(read).as(filter).isEqualTo(4);
      } else {
        assertThat(read).as(filter).isEqualTo(expected.getRowCount());
      }
    }
    assertThat(runner.execute(mosaic, "SELECT k FROM chars WHERE c < 'a'").getOnlyValue())
        .isEqualTo(2);
  }
}
