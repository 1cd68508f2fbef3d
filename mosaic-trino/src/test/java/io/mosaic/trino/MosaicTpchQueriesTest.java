package io.mosaic.trino;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries on a two-node cluster over Mosaic tables created by CREATE TABLE AS from
 * {@code tpch.tiny} return what the same queries return over the {@code tpch} catalog (DESIGN
 * section 8).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicTpchQueriesTest {
  static final List<String> TABLES =
      List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

  @TempDir static Path dir;
  private DistributedQueryRunner runner;
  private final Session mosaic =
      testSessionBuilder().setCatalog("mosaic").setSchema("tiny").build();
  private final Session tpch = testSessionBuilder().setCatalog("tpch").setSchema("tiny").build();

  @BeforeAll
  void createTables() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    runner.execute("CREATE SCHEMA mosaic.tiny");
    for (String t : TABLES) {
      // Row groups of 4096 rows: lineitem has 15, so scans skip and split on row groups.
      MaterializedResult created =
          runner.execute(
              "CREATE TABLE mosaic.tiny."
                  + t
                  + " WITH (row_group_rows = 4096) AS SELECT * FROM tpch.tiny."
                  + t);
      assertThat(created.getOnlyValue())
          .isEqualTo(runner.execute("SELECT count(*) FROM tpch.tiny." + t).getOnlyValue());
    }
  }

  private static DevicePool pool() {
    return DevicePool.load(dir.resolve("devices.toml"));
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  static List<Integer> queries() {
    return java.util.stream.IntStream.rangeClosed(1, 22).boxed().toList();
  }

  @ParameterizedTest(name = "q{0}")
  @MethodSource("queries")
  void queryMatchesTpchCatalog(int q) {
    String sql = TraceGenerator.tpchQuery(q);
    MaterializedResult expected = runner.execute(tpch, sql);
    MaterializedResult actual = runner.execute(mosaic, sql);
    assertThat(actual.getRowCount()).isEqualTo(expected.getRowCount());
    assertEqualsIgnoreOrder(actual.getMaterializedRows(), expected.getMaterializedRows());
    System.out.printf("q%02d: %d rows%n", q, actual.getRowCount());
  }

  @Test
  void scansAreTracedWithTrinosQueryIdAndSkipRowGroups() {
    MaterializedResultWithPlan result =
        runner.executeWithPlan(
            mosaic, "SELECT sum(l_quantity) FROM lineitem WHERE l_orderkey < 1000");
    String queryId = result.queryId().toString();
    List<TraceRecord> records =
        new TraceLog(dir.resolve("metadata/tiny/lineitem"))
            .read(new TraceLog(dir.resolve("metadata/tiny/lineitem")).epoch()).stream()
                .filter(r -> r.queryId().equals(queryId))
                .toList();
    assertThat(records).hasSize(1);
    TraceRecord scan = records.get(0);
    assertThat(scan.columns()).containsExactly("l_orderkey", "l_quantity");
    // The row groups read are exactly those whose l_orderkey minimum is below 1000: a few of them
    // (each writer task cuts its own row groups of at most 4096 rows).
    Manifest m = MosaicTable.open(dir.resolve("metadata/tiny/lineitem"), pool()).latest();
    List<Integer> mightMatch = new ArrayList<>();
    for (SegmentEntry s : m.segmentsOf("l_orderkey")) {
      for (int g = 0; g < s.rowGroupCount(); g++) {
        if ((long) s.stats().get(g).min() < 1000) {
          mightMatch.add(s.firstRowGroup() + g);
        }
      }
    }
    assertThat(m.rowGroups()).hasSizeGreaterThanOrEqualTo(15);
    assertThat(scan.rowGroups()).isEqualTo(mightMatch).hasSizeBetween(1, m.rowGroups().size() - 1);
    assertThat(result.result().getOnlyValue())
        .isEqualTo(
            runner
                .execute(tpch, "SELECT sum(l_quantity) FROM lineitem WHERE l_orderkey < 1000")
                .getOnlyValue());
  }
}
