package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableMultiset;
import io.trino.Session;
import io.trino.operator.OperatorStats;
import io.trino.spi.QueryId;
import io.trino.spi.metrics.Count;
import io.trino.spi.metrics.Metric;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The read path's decoding into Trino blocks (trino-parquet's column readers over the chunks core
 * prefetched): every column type, with nulls, dictionary-encoded and plain pages, from both of the
 * test pool's codecs (zstd on 'fast', LZ4_RAW on 'slow'), checked against Trino computing the same
 * rows itself; empty tables; a damaged chunk; and columns a filter makes unnecessary never decoded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicBlocksTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  /**
   * One column per core ColumnType (decimals short in int32 and int64, long in fixed bytes), most
   * with nulls; {@code bd}, {@code vs} and {@code vb} have few values (dictionary pages), {@code
   * bi}, {@code i} and {@code vu} are unique (plain pages once the dictionary does not pay).
   */
  private static final String ROWS =
      "SELECT"
          + " CASE WHEN x % 11 = 0 THEN NULL ELSE x % 2 = 0 END AS bo,"
          + " CAST(CASE WHEN x % 13 = 0 THEN NULL ELSE x % 100 - 50 END AS tinyint) AS ti,"
          + " CAST(x % 30000 - 15000 AS smallint) AS si,"
          + " CAST(CASE WHEN x % 17 = 0 THEN NULL ELSE x * 7 END AS integer) AS i,"
          + " CASE WHEN x % 19 = 0 THEN NULL ELSE x * 1000003 END AS bi,"
          + " x % 5 AS bd,"
          + " CASE WHEN x % 23 = 0 THEN NULL ELSE CAST(x AS real) / 3 END AS r,"
          + " CAST(x AS double) / 7 AS d,"
          + " CAST(CASE WHEN x % 29 = 0 THEN NULL ELSE x % 10000 END AS decimal(9,2)) / 100"
          + "   AS dec9,"
          + " CAST(-x * 1234567 AS decimal(15,3)) AS dec15,"
          + " CAST(CAST(x AS decimal(30,5)) * DECIMAL '12345678901234567890.12345'"
          + "   AS decimal(30,5)) AS dec30,"
          + " CASE WHEN x % 31 = 0 THEN NULL ELSE date_add('day', x % 400 - 200,"
          + "   DATE '2020-02-29') END AS dt,"
          + " CAST(from_unixtime_nanos(x * BIGINT '1000001000' - 3600000000000)"
          + "   AT TIME ZONE 'UTC' AS timestamp(6)) AS ts,"
          + " CASE WHEN x % 7 = 0 THEN NULL ELSE 'v' || CAST(x % 9 AS varchar) END AS vs,"
          + " 'unique value ' || CAST(x AS varchar) AS vu,"
          + " CASE WHEN x % 37 = 0 THEN NULL ELSE to_utf8(CAST(x % 3 AS varchar)) END AS vb"
          + " FROM "
          + numbers(3);

  /** x from 1 to {@code tens} * 10,000 (Trino's sequence() stops at 10,000 entries). */
  private static String numbers(int tens) {
    return "(SELECT i * 10000 + j AS x FROM UNNEST(sequence(0, "
        + (tens - 1)
        + ")) a(i) CROSS JOIN UNNEST(sequence(1, 10000)) b(j))";
  }

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    runner.execute("CREATE SCHEMA mosaic.tiny");
    for (String device : List.of("fast", "slow")) {
      runner.execute(
          "CREATE TABLE types_"
              + device
              + " WITH (row_group_rows = 7000, default_device = '"
              + device
              + "') AS "
              + ROWS);
    }
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private static ImmutableMultiset<?> rows(MaterializedResult result) {
    return ImmutableMultiset.copyOf(result.getMaterializedRows());
  }

  /** The same rows, read back whole, and through filters, projections and aggregations. */
  @ParameterizedTest
  @ValueSource(strings = {"fast", "slow"})
  void everyTypeReadsBackAsWritten(String device) {
    String table = "types_" + device;
    MaterializedResult read = runner.execute("SELECT * FROM " + table);
    assertThat(read.getRowCount()).isEqualTo(30000);
    assertThat(rows(read)).isEqualTo(rows(runner.execute(ROWS)));
    for (String query :
        List.of(
            "SELECT vs, count(*), count(bo), sum(ti), sum(si), sum(i), sum(bi), sum(r), sum(d),"
                + " sum(dec9), sum(dec15), sum(dec30), min(dt), max(ts), max(vu), count(vb)"
                + " FROM %s GROUP BY vs",
            "SELECT ts, dec30, vu FROM %s WHERE bd = 3 AND vb = X'31' AND dt > DATE '2020-06-01'",
            "SELECT count(*) FROM %s WHERE bi IS NULL OR i IS NULL",
            "SELECT d, r FROM %s WHERE si BETWEEN -10 AND 10")) {
      assertThat(rows(runner.execute(String.format(query, table))))
          .as(query)
          .isEqualTo(rows(runner.execute(String.format(query, "(" + ROWS + ")"))));
    }
  }

  @Test
  void emptyTablesAndRowGroupsRuledOut() {
    runner.execute("CREATE TABLE empty AS SELECT * FROM types_fast WHERE bd > 100");
    assertThat(runner.execute("SELECT * FROM empty").getRowCount()).isZero();
    assertThat(runner.execute("SELECT count(*) FROM empty").getOnlyValue()).isEqualTo(0L);
    assertThat(runner.execute("SELECT count(*) FROM types_fast WHERE bi < 0").getOnlyValue())
        .isEqualTo(0L);
    assertThat(runner.execute("SELECT count(*) FROM types_slow").getOnlyValue()).isEqualTo(30000L);
  }

  /**
   * A chunk damaged on disk fails its checksum when core reads it: the query fails with Mosaic's
   * CORRUPT error naming the file, not with a decoder's exception.
   */
  @Test
  void damagedChunkIsACorruptTableNamingTheFile() throws Exception {
    runner.execute(
        "CREATE TABLE damaged WITH (default_device = 'slow') AS"
            + " SELECT x, 'row ' || CAST(x AS varchar) AS s FROM UNNEST(sequence(1, 5000)) t(x)");
    Path segment;
    try (Stream<Path> files = Files.walk(dir.resolve("devices/slow"))) {
      segment =
          files
              .filter(f -> f.toString().endsWith(".parquet"))
              .max((a, b) -> Long.compare(a.toFile().lastModified(), b.toFile().lastModified()))
              .orElseThrow();
    }
    try (FileChannel ch =
        FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, 40);
      b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
      ch.write(b, 40); // inside the first chunk: past the magic, before the footer
    }
    assertThatThrownBy(() -> runner.execute("SELECT * FROM damaged"))
        .satisfies(
            e ->
                assertThat(MosaicErrorsTest.errorCode(e).getName())
                    .isEqualTo(MosaicErrorCode.MOSAIC_CORRUPT_TABLE.toErrorCode().getName()))
        .hasMessageContaining(segment.getFileName().toString())
        .hasMessageContaining("checksum");
  }

  /**
   * A selective filter on one column of a table: the other column is decoded only for the pages
   * that have a matching row; every other page of it is skipped, which the page source's metrics
   * show.
   */
  @Test
  void columnsAFilterMakesUnnecessaryAreNotDecoded() {
    runner.execute(
        "CREATE TABLE wide WITH (row_group_rows = 50000) AS SELECT (x * 7919) % 30011 AS a,"
            + " 'row ' || CAST(x AS varchar) AS b FROM "
            + numbers(10));
    Session session = runner.getDefaultSession();
    QueryId id;
    var result = runner.executeWithPlan(session, "SELECT b FROM wide WHERE a = 5");
    id = result.queryId();
    assertThat(result.result().getOnlyColumnAsSet())
        .isEqualTo(
            runner
                .execute(
                    "SELECT 'row ' || CAST(x AS varchar) FROM "
                        + numbers(10)
                        + " WHERE (x * 7919) % 30011 = 5")
                .getOnlyColumnAsSet());
    long decodedA = 0;
    long skippedA = 0;
    long decodedB = 0;
    long skippedB = 0;
    for (OperatorStats op :
        runner
            .getCoordinator()
            .getQueryManager()
            .getFullQueryInfo(id)
            .getQueryStats()
            .getOperatorSummaries()) {
      Map<String, Metric<?>> m = op.getConnectorMetrics().getMetrics();
      decodedA += count(m, MosaicPageSource.DECODED_BATCHES + ":a");
      skippedA += count(m, MosaicPageSource.SKIPPED_BATCHES + ":a");
      decodedB += count(m, MosaicPageSource.DECODED_BATCHES + ":b");
      skippedB += count(m, MosaicPageSource.SKIPPED_BATCHES + ":b");
    }
    // 100,000 rows in pages of at most 8,192: at least 13 batches, all of 'a' decoded.
    assertThat(decodedA).isGreaterThanOrEqualTo(13);
    assertThat(skippedA).isZero();
    // 'b' only in the pages that hold one of the few matching rows.
    long matches = result.result().getRowCount();
    assertThat(matches).isBetween(1L, 4L);
    assertThat(decodedB).isBetween(1L, matches);
    assertThat(skippedB).isEqualTo(decodedA - decodedB);
  }

  private static long count(Map<String, Metric<?>> metrics, String name) {
    Metric<?> m = metrics.get(name);
    return m == null ? 0 : ((Count<?>) m).getTotal();
  }
}
