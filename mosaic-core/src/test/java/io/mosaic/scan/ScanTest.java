package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The retriever over TPC-H SF 0.1 on four emulated devices (issue: scan retriever). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanTest {
  private Path dir;
  private DevicePool pool;
  private Retriever retriever;
  private MosaicTable lineitem;
  private MosaicTable orders;
  private List<List<Object>> lineitemRows;
  private List<List<Object>> orderRows;

  @BeforeAll
  void writeTables(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    pool = TableFixtures.fourDevices(dir);
    retriever = new Retriever(pool);
    lineitemRows = new ArrayList<>();
    // Sorted by ship date (column 10), so statistics can skip row groups.
    lineitem = TableFixtures.lineitem(dir.resolve("lineitem"), pool, 0.1, lineitemRows, 10);
    orderRows = new ArrayList<>();
    orders = TableFixtures.orders(dir.resolve("orders"), pool, 0.1, orderRows);
  }

  @AfterAll
  void close() {
    retriever.close();
  }

  /** Reads everything a scan returns, as rows of the scanned columns. */
  private static List<List<Object>> drain(Scan scan) {
    List<List<Object>> rows = new ArrayList<>();
    while (scan.hasNext()) {
      rows.addAll(TableFixtures.values(scan.next()));
    }
    return rows;
  }

  /**
   * Checks a scan column by column against the expected rows, without building row objects: the
   * TPC-H scans cover 600k rows many times over.
   */
  private static void assertScan(
      Scan scan, List<List<Object>> rows, List<Integer> index, String what) {
    int at = 0;
    long mismatches = 0;
    String firstMismatch = null;
    while (scan.hasNext()) {
      VectorSchemaRoot batch = scan.next();
      for (int c = 0; c < index.size(); c++) {
        var vector = batch.getVector(c);
        // With ScanRequest#dictionaries, a dictionary-encoded string column holds ids into it;
        // with #unscaledDecimals, a decimal column its unscaled longs.
        var dictionary = scan.dictionary(c);
        int scale = scan.manifest().schema().column(vector.getName()).type().scale();
        for (int i = 0; i < batch.getRowCount(); i++) {
          var values = dictionary != null ? dictionary : vector;
          int entry = dictionary != null ? ((org.apache.arrow.vector.IntVector) vector).get(i) : i;
          Object got =
              TableFixtures.plain(
                  values instanceof org.apache.arrow.vector.BigIntVector unscaled
                          && !(rows.get(at + i).get(index.get(c)) instanceof Long)
                      ? java.math.BigDecimal.valueOf(unscaled.get(entry), scale)
                      : values.getObject(entry));
          Object want = rows.get(at + i).get(index.get(c));
          if (!java.util.Objects.equals(got, want)) {
            mismatches++;
            if (firstMismatch == null) {
              firstMismatch =
                  "row " + (at + i) + " column " + vector.getName() + ": " + got + " != " + want;
            }
          }
        }
      }
      at += batch.getRowCount();
    }
    assertThat(firstMismatch).as(what).isNull();
    assertThat(mismatches).isZero();
    assertThat(at).as(what + ": rows").isEqualTo(rows.size());
  }

  private static List<List<Object>> project(List<List<Object>> rows, List<Integer> columns) {
    return rows.stream().map(r -> columns.stream().map(r::get).toList()).toList();
  }

  @Test
  void scansReadExactlyAndAreRecordedInTheTrace() {
    // Every column set of the 22 TPC-H queries, on all eight tables: mosaic-planner's TpchScanTest.
    List<String> columns = List.of("l_orderkey", "l_quantity", "l_shipmode", "l_comment");
    List<Integer> index = List.of(0, 4, 14, 15);
    try (Scan scan = retriever.scan(lineitem, ScanRequest.of(columns).queryId("q-trace"))) {
      assertScan(scan, lineitemRows, index, "lineitem " + columns);
    }
    try (Scan scan = retriever.scan(orders, ScanRequest.of(List.of("o_comment", "o_orderdate")))) {
      assertScan(scan, orderRows, List.of(8, 4), "orders");
    }
    List<TraceRecord> trace = new TraceLog(lineitem.root()).read(1);
    TraceRecord first =
        trace.stream().filter(r -> r.queryId().equals("q-trace")).findFirst().orElseThrow();
    assertThat(first.table()).isEqualTo("lineitem");
    assertThat(first.columns()).isEqualTo(columns);
    assertThat(first.rowGroups()).hasSize(lineitem.latest().rowGroups().size());
    assertThat(first.bytes()).isPositive();
    assertThat(first.bytesPerDevice().keySet()).isSubsetOf(Set.of("nvme", "ssd", "raid", "hdd"));
    assertThat(new TraceLog(orders.root()).read(1))
        .anySatisfy(r -> assertThat(r.queryId()).startsWith("mosaic-"));
  }

  @Test
  void predicatesSkipRowGroupsOnTheSortedColumnAndResultsStayExact() {
    LocalDate low = LocalDate.of(1995, 3, 1);
    LocalDate high = LocalDate.of(1995, 6, 30);
    List<String> columns = List.of("l_shipdate", "l_extendedprice", "l_orderkey");
    Predicate p = Predicate.of(Predicate.between("l_shipdate", low, high));
    try (Scan scan = retriever.scan(lineitem, ScanRequest.of(columns).where(p))) {
      List<List<Object>> got = drain(scan);
      ScanStats stats = scan.stats();
      int total = lineitem.latest().rowGroups().size();
      assertThat(stats.rowGroupsSkipped()).as("of %d row groups", total).isGreaterThan(total / 2);
      // The engine filters rows; no matching row may have been lost by skipping.
      List<List<Object>> matching =
          got.stream().filter(r -> inRange((Integer) r.get(0), low, high)).toList();
      List<List<Object>> expected =
          project(lineitemRows, List.of(10, 5, 0)).stream()
              .filter(r -> inRange((Integer) r.get(0), low, high))
              .toList();
      assertThat(matching).isEqualTo(expected).isNotEmpty();
    }
    try (Scan none =
        retriever.scan(
            lineitem,
            ScanRequest.of(columns)
                .where(Predicate.of(Predicate.lt("l_shipdate", LocalDate.of(1900, 1, 1)))))) {
      assertThat(none.hasNext()).isFalse();
    }
  }

  private static boolean inRange(int day, LocalDate low, LocalDate high) {
    return day >= low.toEpochDay() && day <= high.toEpochDay();
  }

  @Test
  void scansOfOneRowGroupEachDecodeIntoPooledVectorsAndStayExact() {
    // As an engine splits a table: one short scan per row group, each decoding into vectors that
    // earlier scans gave back; strings alternate between dictionary ids and values, and decimals
    // between unscaled longs and Arrow decimals, so pooled vectors of the other kind must be
    // refused and replaced.
    List<String> columns = List.of("l_orderkey", "l_quantity", "l_shipmode", "l_comment");
    List<Integer> index = List.of(0, 4, 14, 15);
    List<Long> groups = lineitem.latest().rowGroups();
    assertThat(groups).hasSizeGreaterThan(2);
    long reusedBefore = retriever.vectors().reused();
    int from = 0;
    for (int g = 0; g < groups.size(); g++) {
      int rows = Math.toIntExact(groups.get(g));
      ScanRequest request =
          ScanRequest.of(columns)
              .rowGroups(g, g + 1)
              .dictionaries(g % 2 == 0)
              .unscaledDecimals(g % 2 == 0);
      try (Scan scan = retriever.scan(lineitem, request)) {
        assertScan(scan, lineitemRows.subList(from, from + rows), index, "row group " + g);
      }
      assertThat(retriever.vectors().bytes()).as("pooled after row group " + g).isPositive();
      from += rows;
    }
    // Every scan after the first found the previous one's vectors.
    assertThat(retriever.vectors().reused() - reusedBefore)
        .isGreaterThanOrEqualTo((groups.size() - 1L) * columns.size());
    try (Scan scan = retriever.scan(lineitem, ScanRequest.of(columns).unscaledDecimals(true))) {
      assertThat(scan.next().getVector("l_quantity"))
          .as("decimal(12,2) as unscaled longs")
          .isInstanceOf(org.apache.arrow.vector.BigIntVector.class);
    }
  }

  @Test
  void bufferedBytesNeverExceedTheLimit() {
    Manifest m = lineitem.latest();
    long largest =
        m.segments().stream().mapToLong(SegmentEntry::compressedBytes).max().orElseThrow();
    long limit = 2 * largest;
    List<String> columns = m.schema().names();
    try (Scan scan = retriever.scan(lineitem, ScanRequest.of(columns).buffer(limit))) {
      assertThat(drain(scan)).hasSize(lineitemRows.size());
      assertThat(scan.stats().peakBufferedBytes()).isPositive().isLessThanOrEqualTo(limit);
    }
  }

  @Test
  void aBufferSmallerThanOneRowGroupStillReadsEverything() {
    // The consumer needs a whole row group before it can release anything: that row group is
    // admitted past the budget (without that, the scan failed on a chunk it never read).
    List<String> columns = List.of("l_orderkey", "l_quantity", "l_shipmode", "l_comment");
    assertTimeoutPreemptively(
        Duration.ofSeconds(120),
        () -> {
          try (Scan scan = retriever.scan(lineitem, ScanRequest.of(columns).buffer(1))) {
            assertScan(scan, lineitemRows, List.of(0, 4, 14, 15), "one-byte buffer");
          }
        });
  }

  @Test
  void closingMidwayStopsAndReleasesAndConcurrentScansStayCorrect() throws Exception {
    List<String> columns = List.of("l_orderkey", "l_comment", "l_shipinstruct");
    Scan early = retriever.scan(lineitem, ScanRequest.of(columns));
    VectorSchemaRoot first = early.next();
    assertThat(first.getRowCount()).isPositive();
    early.close(); // would throw if any Arrow buffer were still held
    assertThat(early.hasNext()).isFalse();

    ExecutorService engines = Executors.newFixedThreadPool(3);
    List<Future<List<List<Object>>>> scans = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      scans.add(
          engines.submit(
              () -> {
                try (Scan s =
                    retriever.scan(orders, ScanRequest.of(List.of("o_orderkey", "o_comment")))) {
                  return drain(s);
                }
              }));
    }
    for (Future<List<List<Object>>> f : scans) {
      assertThat(f.get()).isEqualTo(project(orderRows, List.of(0, 8)));
    }
    engines.shutdown();
  }

  @Test
  void badRequestsAreNamedAndOtherScansKeepWorking() throws IOException {
    assertThatThrownBy(() -> retriever.scan(orders, ScanRequest.of(List.of("o_nope"))))
        .hasMessageStartingWith("scan of table orders: unknown column 'o_nope'; the table has:");
    assertThatThrownBy(
            () ->
                retriever.scan(
                    orders,
                    ScanRequest.of(List.of("o_orderkey"))
                        .where(Predicate.of(Predicate.gt("o_comment", 5)))))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessage(
            "predicate 'o_comment > 5' on table orders: value 5 (Integer) does not fit column"
                + " o_comment of type string");

    SegmentEntry comments = orders.latest().segmentsOf("o_comment").get(0);
    try (Scan warm = retriever.scan(orders, ScanRequest.of(List.of("o_comment")))) {
      warm.next(); // caches the segment's footer in this retriever
    }
    Path file = pool.device(comments.device()).resolve(comments.path());
    Path aside = dir.resolve("aside");
    Files.move(file, aside);
    try {
      // A fresh retriever has no cached footer: the missing file is found at once.
      try (Retriever fresh = new Retriever(pool)) {
        assertThatThrownBy(() -> drain(fresh.scan(orders, ScanRequest.of(List.of("o_comment")))))
            .isInstanceOf(CorruptTableException.class)
            .hasMessage(
                "segment "
                    + file
                    + " of column 'o_comment' of table orders on device '"
                    + comments.device()
                    + "' (listed in manifest v"
                    + orders.latest().version()
                    + ") is missing");
        try (Scan other = fresh.scan(orders, ScanRequest.of(List.of("o_orderkey")))) {
          assertThat(drain(other)).isEqualTo(project(orderRows, List.of(0)));
        }
      }
      // With its footer cached, the read itself fails, naming column, device and file.
      try (Scan s = retriever.scan(orders, ScanRequest.of(List.of("o_comment")))) {
        assertThatThrownBy(() -> drain(s))
            .isInstanceOf(CorruptTableException.class)
            .hasMessageContaining(
                "scan of table orders failed on column 'o_comment', row group 0, device '")
            .hasMessageContaining(file.toString());
      }
    } finally {
      Files.move(aside, file);
    }
  }
}
