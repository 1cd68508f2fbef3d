package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceRecord;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page pruning (docs/trino.md, "What happens in a query") on a two-node cluster: a table sorted on
 * {@code k}, two row groups of 200,000 rows and ten pages per column each; a narrow range on {@code
 * k} answers what it answers with {@code page_pruning_enabled = false} while reading a small part
 * of the chunks' bytes (the trace counts the bytes read); so does a predicate on a column with
 * nulls and a join's dynamic filter; a damaged page under a pruned read is CORRUPT, naming the
 * file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicPagePruningTest {
  private static final String RANGE =
      "SELECT count(*), sum(v), min(s), max(s), count(n) FROM pp.sorted"
          + " WHERE k BETWEEN 123000 AND 123500";

  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir, Map.of());
    runner.execute("CREATE SCHEMA mosaic.pp");
    // k = 0..399999 in order, by one writer; n is null where k is a multiple of 5.
    runner.execute(
        oneWriter(),
        "CREATE TABLE mosaic.pp.sorted WITH (row_group_rows = 200000) AS SELECT k,"
            + " CASE WHEN k % 5 = 0 THEN NULL ELSE k * 2 END AS n, CAST(k AS varchar) AS s,"
            + " k * 3 AS v FROM (SELECT a * 1000 + b AS k FROM UNNEST(sequence(0, 399)) x(a)"
            + " CROSS JOIN UNNEST(sequence(0, 999)) y(b)) ORDER BY k");
    runner.execute("CREATE TABLE mosaic.pp.build AS SELECT * FROM (VALUES BIGINT '250250') t(k)");
    assertThat(table().rowGroups()).hasSize(2);
    assertThat(offsetIndex("k", 0).getPageCount()).isGreaterThanOrEqualTo(8);
  }

  /** One writer task, so the rows stay in the order of the query. */
  private Session oneWriter() {
    return Session.builder(runner.getDefaultSession())
        .setSystemProperty("scale_writers", "false")
        .setSystemProperty("redistribute_writes", "false")
        .build();
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private static Manifest table() {
    return MosaicTable.open(
            dir.resolve("metadata/pp/sorted"), DevicePool.load(dir.resolve("devices.toml")))
        .latest();
  }

  private static Path file(String column, int group) {
    SegmentEntry s = table().segmentFor(column, group);
    return DevicePool.load(dir.resolve("devices.toml")).device(s.device()).resolve(s.path());
  }

  private static OffsetIndex offsetIndex(String column, int group) throws Exception {
    SegmentEntry s = table().segmentFor(column, group);
    try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file(column, group)))) {
      return r.readOffsetIndex(
          r.getFooter().getBlocks().get(group - s.firstRowGroup()).getColumns().get(0));
    }
  }

  // On: the default sharing policy, whose scans read on the ordered path where pages are pruned.
  // Off: whole chunks on the ordered path (a shared scan could be served from the node's buffer).
  private Session pruning(boolean on) {
    return Session.builder(runner.getDefaultSession())
        .setCatalogSessionProperty("mosaic", "page_pruning_enabled", Boolean.toString(on))
        .setCatalogSessionProperty("mosaic", "sharing_policy", on ? "relevance" : "normal")
        .build();
  }

  /** The sorted table's one trace record of the query. */
  private static TraceRecord scan(MaterializedResultWithPlan result) {
    List<TraceRecord> records =
        MosaicQueryRunner.traceRecords(dir.resolve("metadata/pp/sorted"), result);
    assertThat(records).hasSize(1);
    return records.get(0);
  }

  private MaterializedResultWithPlan both(String sql, Session on, Session off, long[] bytes) {
    MaterializedResultWithPlan pruned = runner.executeWithPlan(on, sql);
    MaterializedResultWithPlan whole = runner.executeWithPlan(off, sql);
    assertThat(pruned.result().getMaterializedRows())
        .as(sql)
        .isEqualTo(whole.result().getMaterializedRows());
    bytes[0] = scan(pruned).bytes();
    bytes[1] = scan(whole).bytes();
    return pruned;
  }

  @Test
  void aNarrowRangeOnTheSortedKeyAnswersTheSameFromFarFewerBytes() {
    long[] bytes = new long[2];
    MaterializedResult result = both(RANGE, pruning(true), pruning(false), bytes).result();
    long sum = 0;
    long nonNull = 0;
    for (long k = 123000; k <= 123500; k++) {
      sum += 3 * k;
      nonNull += k % 5 == 0 ? 0 : 1;
    }
    assertThat(result.getMaterializedRows().get(0).getFields())
        .containsExactly(501L, sum, "123000", "123500", nonNull);
    // One page of about ten per column is read (and the dictionaries), not the row group.
    assertThat(bytes[0]).isPositive().isLessThan(bytes[1] / 4);
  }

  @Test
  void predicatesOnAColumnWithNullsAnswerTheSame() {
    long[] bytes = new long[2];
    MaterializedResult isNull =
        both(
                "SELECT count(*), sum(v) FROM pp.sorted WHERE n IS NULL AND k < 30000",
                pruning(true),
                pruning(false),
                bytes)
            .result();
    assertThat(isNull.getMaterializedRows().get(0).getField(0)).isEqualTo(6000L);
    assertThat(bytes[0]).isLessThan(bytes[1] / 2);
    MaterializedResult range =
        both(
                "SELECT count(*), sum(k) FROM pp.sorted WHERE n BETWEEN 300000 AND 300200",
                pruning(true),
                pruning(false),
                bytes)
            .result();
    // n = 2k for k in [150000, 150100], multiples of 5 excepted.
    assertThat(range.getMaterializedRows().get(0).getField(0)).isEqualTo(101L - 21);
    assertThat(bytes[0]).isLessThan(bytes[1] / 2);
    // Every page of n holds nulls: is null rules none out, and the answer is still right.
    MaterializedResult all =
        both("SELECT count(*) FROM pp.sorted WHERE n IS NULL", pruning(true), pruning(false), bytes)
            .result();
    assertThat(all.getOnlyValue()).isEqualTo(80_000L);
  }

  @Test
  void aJoinsDynamicFilterPrunesPagesToo() {
    String join = "SELECT count(*), sum(p.v) FROM pp.sorted p JOIN pp.build b ON p.k = b.k";
    Session.SessionBuilder base =
        Session.builder(runner.getDefaultSession())
            .setSystemProperty("join_reordering_strategy", "NONE")
            .setSystemProperty("join_distribution_type", "BROADCAST")
            .setCatalogSessionProperty("mosaic", "dynamic_filtering_wait_timeout", "30s");
    Session on =
        Session.builder(base.build())
            .setCatalogSessionProperty("mosaic", "page_pruning_enabled", "true")
            .build();
    Session off =
        Session.builder(base.build())
            .setCatalogSessionProperty("mosaic", "page_pruning_enabled", "false")
            .setCatalogSessionProperty("mosaic", "sharing_policy", "normal")
            .build();
    long[] bytes = new long[2];
    MaterializedResult result = both(join, on, off, bytes).result();
    assertThat(result.getMaterializedRows().get(0).getFields()).containsExactly(1L, 3L * 250250);
    // Both read the one row group the filter admits; with pruning only a page of each column.
    assertThat(bytes[0]).isPositive().isLessThan(bytes[1] / 4);
  }

  @Test
  void deletedRowsStayDeletedUnderAPrunedRead() {
    // The rows of a pruned read are a row group's row ranges: deletions are found by position.
    runner.execute(
        oneWriter(),
        "CREATE TABLE mosaic.pp.changed WITH (row_group_rows = 200000) AS SELECT k, k * 3 AS v"
            + " FROM (SELECT a * 1000 + b AS k FROM UNNEST(sequence(0, 399)) x(a)"
            + " CROSS JOIN UNNEST(sequence(0, 999)) y(b)) ORDER BY k");
    runner.execute("DELETE FROM mosaic.pp.changed WHERE k BETWEEN 123100 AND 123199 OR k = 123400");
    String range =
        "SELECT count(*), sum(v), min(k), max(k) FROM pp.changed WHERE k BETWEEN 123000 AND 123500";
    long sum = 0;
    for (long k = 123000; k <= 123500; k++) {
      sum += (k >= 123100 && k <= 123199) || k == 123400 ? 0 : 3 * k;
    }
    for (boolean on : new boolean[] {true, false}) {
      assertThat(runner.execute(pruning(on), range).getMaterializedRows().get(0).getFields())
          .as("page pruning %s", on)
          .containsExactly(400L, sum, 123000L, 123500L);
      assertThat(
              runner
                  .execute(
                      pruning(on), "SELECT k FROM pp.changed WHERE k BETWEEN 123399 AND 123401")
                  .getOnlyColumnAsSet())
          .containsExactlyInAnyOrder(123399L, 123401L);
    }
  }

  @Test
  void aDamagedPageUnderAPrunedReadIsCorruptNamingTheFile() throws Exception {
    // The last byte of the page of v holding k = 123000 (row group 0): in its body, under its CRC.
    OffsetIndex pages = offsetIndex("v", 0);
    int page = 0;
    while (page + 1 < pages.getPageCount() && pages.getFirstRowIndex(page + 1) <= 123000) {
      page++;
    }
    Path file = file("v", 0);
    long at = pages.getOffset(page) + pages.getCompressedPageSize(page) - 1;
    byte original;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      original = f.readByte();
      f.seek(at);
      f.writeByte(original ^ 0x5a);
    }
    try {
      assertThatThrownBy(() -> runner.execute(pruning(true), RANGE))
          .hasMessageContaining(file.toString())
          .hasMessageContaining("fails its page CRC");
    } finally {
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        f.seek(at);
        f.writeByte(original);
      }
    }
    assertThat(runner.execute(pruning(true), RANGE).getRowCount()).isEqualTo(1);
  }
}
