package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.device.DevicePool;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statistics (docs/trino.md): {@code SHOW STATS} of Mosaic tables written by CREATE TABLE AS from
 * {@code tpch.tiny} gives, for every column, a distinct-value count within 5 % of {@code
 * count(DISTINCT x)}, the true null fraction and, for strings, the true data size; they stay so
 * after an INSERT (the row groups' sketches union) and a move to another device, and a table whose
 * manifest predates sketches gets them from {@code ANALYZE}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicStatisticsTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  @BeforeAll
  void createTables() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    runner.execute("CREATE SCHEMA mosaic.tiny");
    for (String t : List.of("lineitem", "orders")) {
      // Row groups of 4096 rows: lineitem has 15, orders 4, whose sketches SHOW STATS unions.
      runner.execute(
          "CREATE TABLE mosaic.tiny."
              + t
              + " WITH (row_group_rows = 4096) AS SELECT * FROM tpch.tiny."
              + t);
    }
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private Map<String, ShowStats> showStats(String table) {
    return ShowStats.of(runner, table);
  }

  private long scalar(String sql) {
    return ((Number) runner.execute(sql).getOnlyValue()).longValue();
  }

  /** Every column's NDV within 5 % of the exact count over {@code source}; data sizes exact. */
  private void assertStatsMatch(String table, String source) {
    Map<String, ShowStats> stats = showStats(table);
    MaterializedResult types = runner.execute("DESCRIBE " + table);
    for (MaterializedRow row : types.getMaterializedRows()) {
      String c = (String) row.getField(0);
      String type = (String) row.getField(1);
      ShowStats s = stats.get(c);
      long exact = scalar("SELECT count(DISTINCT " + c + ") FROM " + source);
      assertThat(s.distinct()).as("%s.%s NDV", table, c).isNotNull();
      assertThat(s.distinct()).as("%s.%s NDV", table, c).isCloseTo(exact, within(exact * 0.05));
      assertThat(s.nullsFraction()).as("%s.%s nulls", table, c).isEqualTo(0.0);
      if (type.startsWith("varchar")) {
        long bytes = scalar("SELECT sum(length(to_utf8(" + c + "))) FROM " + source);
        assertThat(s.dataSize())
            .as("%s.%s data size", table, c)
            .isCloseTo((double) bytes, within(0.5));
      }
    }
  }

  @Test
  void everyColumnOfLineitemAndOrdersHasItsDistinctCountNullsAndSize() {
    assertStatsMatch("mosaic.tiny.lineitem", "tpch.tiny.lineitem");
    assertStatsMatch("mosaic.tiny.orders", "tpch.tiny.orders");
    ShowStats quantity = showStats("mosaic.tiny.lineitem").get("l_quantity");
    assertThat(quantity.low()).isEqualTo("1.0");
    assertThat(quantity.high()).isEqualTo("50.0");
  }

  @Test
  void statisticsMergeOverAnInsertAndSurviveAMove() {
    runner.execute(
        "CREATE TABLE mosaic.tiny.orders_more WITH (row_group_rows = 4096) AS"
            + " SELECT * FROM tpch.tiny.orders WHERE o_orderkey < 30000");
    // Half new keys, half keys the table has: the union counts each once.
    runner.execute(
        "INSERT INTO mosaic.tiny.orders_more SELECT * FROM tpch.tiny.orders"
            + " WHERE o_orderkey >= 15000");
    assertThat(scalar("SELECT count(*) FROM mosaic.tiny.orders_more"))
        .isGreaterThan(scalar("SELECT count(*) FROM tpch.tiny.orders"));
    assertStatsMatch("mosaic.tiny.orders_more", "mosaic.tiny.orders_more");

    Map<String, ShowStats> before = showStats("mosaic.tiny.orders_more");
    // Re-encoded for the other device's codec: the same values, so the same statistics.
    runner.execute(
        "CALL mosaic.system.move_columns('tiny', 'orders_more', 'o_comment=slow,o_orderkey=slow')");
    MosaicTable table = MosaicTable.open(dir.resolve("metadata/tiny/orders_more"), pool());
    assertThat(table.latest().segmentsOf("o_comment"))
        .allSatisfy(s -> assertThat(s.device()).isEqualTo("slow"));
    assertThat(showStats("mosaic.tiny.orders_more")).isEqualTo(before);
  }

  @Test
  void aTableWrittenBeforeSketchesGetsThemFromAnalyze() {
    runner.execute(
        "CREATE TABLE mosaic.tiny.orders_old WITH (row_group_rows = 4096) AS"
            + " SELECT * FROM tpch.tiny.orders");
    Map<String, ShowStats> written = showStats("mosaic.tiny.orders_old");
    MosaicTable table = MosaicTable.open(dir.resolve("metadata/tiny/orders_old"), pool());
    // The manifest as a writer before this change left it: no sketches, no data sizes.
    table.commit(
        "strip",
        base ->
            base.next(
                "strip",
                base.rowGroups(),
                base.segments().stream().map(MosaicStatisticsTest::withoutValueStats).toList()));

    Map<String, ShowStats> old = showStats("mosaic.tiny.orders_old");
    assertThat(old.get("o_orderkey").distinct()).isNull();
    assertThat(old.get("o_comment").dataSize()).isNotNull(); // the encoded size, as before
    assertThat(old.get("o_orderkey").nullsFraction()).isEqualTo(0.0);
    assertThat(scalar("SELECT count(*) FROM mosaic.tiny.orders_old")).isEqualTo(15000);

    long version = table.latest().version();
    assertThat(runner.execute("ANALYZE mosaic.tiny.orders_old").getOnlyValue()).isEqualTo(15000L);
    assertThat(table.latest().version()).isEqualTo(version + 1);
    assertThat(table.latest().operation()).isEqualTo("analyze");
    assertThat(showStats("mosaic.tiny.orders_old")).isEqualTo(written);
  }

  private static SegmentEntry withoutValueStats(SegmentEntry s) {
    return s.withStats(
        s.stats().stream().map(st -> new RowGroupStats(st.min(), st.max(), st.nulls())).toList());
  }

  private static DevicePool pool() {
    return DevicePool.load(dir.resolve("devices.toml"));
  }
}
