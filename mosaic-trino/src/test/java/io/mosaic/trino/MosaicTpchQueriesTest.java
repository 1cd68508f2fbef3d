package io.mosaic.trino;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceRecord;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries on a two-node cluster over Mosaic tables created by CREATE TABLE AS from
 * {@code tpch.tiny} return what the same queries return over the {@code tpch} catalog
 * (docs/trino.md, "Tests").
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

  /** The trace records of lineitem's current epoch with the query's id. */
  private static List<TraceRecord> lineitemRecords(MaterializedResultWithPlan result) {
    return MosaicQueryRunner.traceRecords(dir.resolve("metadata/tiny/lineitem"), result);
  }

  @Test
  void aScanOfManySplitsOnBothNodesIsOneRecordAndCountingRowsIsNone() {
    // 64 kB splits: lineitem's l_comment is read by several splits, spread over both nodes.
    MaterializedResultWithPlan full =
        runner.executeWithPlan(mosaic, "SELECT max(l_comment) FROM lineitem");
    Manifest m = MosaicTable.open(dir.resolve("metadata/tiny/lineitem"), pool()).latest();
    long stored = m.segmentsOf("l_comment").stream().mapToLong(SegmentEntry::compressedBytes).sum();
    assertThat(stored).isGreaterThan(4 * 65536);
    assertThat(lineitemRecords(full))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.columns()).containsExactly("l_comment");
              assertThat(r.rowGroups())
                  .isEqualTo(
                      java.util.stream.IntStream.range(0, m.rowGroups().size()).boxed().toList());
              // Whole chunks of every row group: the segments' compressed bytes, exactly.
              assertThat(r.bytes()).isEqualTo(stored);
            });
    // count(*) reads no column: nothing to record.
    MaterializedResultWithPlan count =
        runner.executeWithPlan(mosaic, "SELECT count(*) FROM lineitem");
    assertThat(lineitemRecords(count)).isEmpty();
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
    MaterializedResult expected = TpchAnswers.of(runner, "tiny", q);
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
    List<TraceRecord> records = lineitemRecords(result);
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
    // Bytes actually read, from the devices holding those row groups of the two columns.
    List<String> devices = new ArrayList<>();
    for (String c : scan.columns()) {
      mightMatch.forEach(g -> devices.add(m.segmentFor(c, g).device()));
    }
    assertThat(scan.bytesPerDevice().keySet())
        .containsExactlyInAnyOrderElementsOf(Set.copyOf(devices));
    assertThat(scan.bytesPerDevice().values()).allSatisfy(b -> assertThat(b).isPositive());
    assertThat(result.result().getOnlyValue())
        .isEqualTo(
            runner
                .execute(tpch, "SELECT sum(l_quantity) FROM lineitem WHERE l_orderkey < 1000")
                .getOnlyValue());
  }
}
