package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TablePin;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page pruning in chunk mode, against brute force over the rows: the row ranges a scan hands out
 * hold every matching row (results stay exact) and are exactly the rows of the pages whose own
 * min/max, computed here from the rows, admit every term; the pieces are the file's bytes of the
 * dictionary page and those pages; a damaged page that is read fails its CRC, naming the file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PagePruningTest {
  // l_orderkey is sorted (generator order), l_shipdate not; l_quantity decimal, l_shipmode text.
  private static final List<String> COLUMNS =
      List.of("l_orderkey", "l_shipdate", "l_quantity", "l_shipmode");
  private static final int[] INDEX = {0, 10, 4, 14};

  private DevicePool pool;
  private Retriever retriever;
  private MosaicTable lineitem;
  private final List<List<Object>> rows = new ArrayList<>();

  @BeforeAll
  void writeTable(@TempDir Path dir) throws IOException {
    pool = TableFixtures.fourDevices(dir);
    retriever = new Retriever(pool);
    lineitem = TableFixtures.lineitem(dir.resolve("lineitem"), pool, 0.03, rows, -1);
  }

  @AfterAll
  void close() {
    retriever.close();
  }

  /** One term: a column, the predicate, and the same test on one value, written out here. */
  private record Term(int column, ColumnPredicate predicate, Function<Object, Boolean> test) {}

  private Term randomTerm(Random random) {
    int c = random.nextInt(COLUMNS.size());
    String name = COLUMNS.get(c);
    List<Object> values = column(c);
    Object a = values.get(random.nextInt(values.size()));
    Object b = values.get(random.nextInt(values.size()));
    if (compare(a, b) > 0) {
      Object t = a;
      a = b;
      b = t;
    }
    Object lo = a;
    Object hi = b;
    return switch (random.nextInt(5)) {
      case 0 -> new Term(c, Predicate.between(name, lo, hi), v -> in(v, lo, hi));
      case 1 -> new Term(c, Predicate.eq(name, lo), v -> compare(v, lo) == 0);
      case 2 -> new Term(c, Predicate.ge(name, hi), v -> compare(v, hi) >= 0);
      case 3 -> new Term(c, Predicate.lt(name, lo), v -> compare(v, lo) < 0);
      default ->
          new Term(c, Predicate.in(name, List.of(lo, hi)), v -> v.equals(lo) || v.equals(hi));
    };
  }

  private List<Object> column(int c) {
    return rows.stream().map(r -> r.get(INDEX[c])).toList();
  }

  private static boolean in(Object v, Object lo, Object hi) {
    return compare(v, lo) >= 0 && compare(v, hi) <= 0;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    return a instanceof BigDecimal x ? x.compareTo((BigDecimal) b) : ((Comparable) a).compareTo(b);
  }

  @Test
  void rowRangesHoldEveryMatchAndExactlyThePagesWhoseValuesAdmitTheTerms() throws Exception {
    Random random = new Random(20);
    int narrowed = 0;
    for (int trial = 0; trial < 60; trial++) {
      List<Term> terms = new ArrayList<>();
      terms.add(randomTerm(random));
      if (trial % 3 == 0) {
        terms.add(randomTerm(random));
      }
      Predicate p = new Predicate(terms.stream().map(Term::predicate).toList());
      long offset = 0;
      try (TablePin pin = lineitem.pin();
          Scan scan =
              retriever.chunks(lineitem, pin, ScanRequest.of(COLUMNS).where(p).recorded(false))) {
        List<Integer> groups = scan.rowGroups();
        int next = 0;
        for (int g = 0; g < pin.manifest().rowGroups().size(); g++) {
          long n = pin.manifest().rowGroups().get(g);
          if (next < groups.size() && groups.get(next) == g) {
            next++;
            RowGroupChunks chunks = scan.nextChunks();
            BitSet expected = expectedRows(pin.manifest(), g, offset, n, terms);
            BitSet got = rows(chunks.rowRanges(), n);
            for (int r = 0; r < n; r++) {
              boolean match = true;
              for (Term t : terms) {
                match &= t.test().apply(rows.get((int) (offset + r)).get(INDEX[t.column()]));
              }
              if (match) {
                assertThat(got.get(r)).as("%s: row %d of row group %d", p, r, g).isTrue();
              }
            }
            assertThat(got).as("%s, row group %d", p, g).isEqualTo(expected);
            assertThat(chunks.selectedRows()).isEqualTo(got.cardinality());
            if (chunks.rowRanges() != null && got.cardinality() > 0) {
              narrowed++;
              checkPieces(pin.manifest(), g, chunks);
            }
          }
          offset += n;
        }
      }
    }
    assertThat(narrowed).as("trials whose pages narrowed the rows read").isGreaterThan(10);
  }

  /** The rows of the pages whose min/max (from the rows themselves) admit every term. */
  private BitSet expectedRows(Manifest m, int group, long offset, long n, List<Term> terms)
      throws IOException {
    BitSet all = new BitSet();
    all.set(0, (int) n);
    for (Term t : terms) {
      OffsetIndex pages = offsetIndex(m, COLUMNS.get(t.column()), group);
      BitSet kept = new BitSet();
      for (int p = 0; p < pages.getPageCount(); p++) {
        int from = (int) pages.getFirstRowIndex(p);
        int to = (int) pages.getLastRowIndex(p, n);
        Object min = null;
        Object max = null;
        for (int r = from; r <= to; r++) {
          Object v = rows.get((int) offset + r).get(INDEX[t.column()]);
          min = min == null || compare(v, min) < 0 ? v : min;
          max = max == null || compare(v, max) > 0 ? v : max;
        }
        if (admits(t.predicate(), min, max)) {
          kept.set(from, to + 1);
        }
      }
      all.and(kept);
    }
    return all;
  }

  private static boolean admits(ColumnPredicate p, Object min, Object max) {
    List<Object> v = p.values();
    return switch (p.op()) {
      case BETWEEN -> compare(max, v.get(0)) >= 0 && compare(min, v.get(1)) <= 0;
      case EQ -> in(v.get(0), min, max);
      case GE -> compare(max, v.get(0)) >= 0;
      case LT -> compare(min, v.get(0)) < 0;
      case IN -> v.stream().anyMatch(x -> in(x, min, max));
      default -> throw new IllegalArgumentException(p.toString());
    };
  }

  private static BitSet rows(RowRanges ranges, long n) {
    BitSet set = new BitSet();
    if (ranges == null) {
      set.set(0, (int) n);
    } else {
      for (RowRanges.Range r : ranges.getRanges()) {
        set.set((int) r.from, (int) r.to + 1);
      }
    }
    return set;
  }

  private Path file(SegmentEntry s) {
    return pool.device(s.device()).resolve(s.path());
  }

  private ColumnChunkMetaData chunk(Manifest m, String column, int group) throws IOException {
    SegmentEntry s = m.segmentFor(column, group);
    try (ParquetFileReader r =
        ParquetFileReader.open(new LocalInputFile(file(s)), SegmentReader.readOptions().build())) {
      return r.getFooter().getBlocks().get(group - s.firstRowGroup()).getColumns().get(0);
    }
  }

  private OffsetIndex offsetIndex(Manifest m, String column, int group) throws IOException {
    SegmentEntry s = m.segmentFor(column, group);
    try (ParquetFileReader r =
        ParquetFileReader.open(new LocalInputFile(file(s)), SegmentReader.readOptions().build())) {
      return r.readOffsetIndex(
          r.getFooter().getBlocks().get(group - s.firstRowGroup()).getColumns().get(0));
    }
  }

  /**
   * Each piece is the file's bytes at its offset; together they are the chunk's dictionary page and
   * the pages the chunk's offset index lists, which are those overlapping the row ranges.
   */
  private void checkPieces(Manifest m, int group, RowGroupChunks chunks) throws IOException {
    for (RawChunk c : chunks.chunks()) {
      Path file = file(m.segmentFor(c.column().name(), group));
      for (ChunkPiece piece : c.pieces()) {
        byte[] onDisk = new byte[piece.bytes().length];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
          f.seek(piece.offset());
          f.readFully(onDisk);
        }
        assertThat(piece.bytes()).isEqualTo(onDisk);
      }
      OffsetIndex all = offsetIndex(m, c.column().name(), group);
      long expected = all.getOffset(0) - chunk(m, c.column().name(), group).getStartingPos();
      int overlapping = 0;
      for (int p = 0; p < all.getPageCount(); p++) {
        if (chunks
            .rowRanges()
            .isOverlapping(all.getFirstRowIndex(p), all.getLastRowIndex(p, chunks.rows()))) {
          expected += all.getCompressedPageSize(p);
          overlapping++;
        }
      }
      assertThat(c.offsetIndex().getPageCount()).isEqualTo(overlapping);
      assertThat(c.bytes()).isEqualTo(expected);
      if (overlapping < all.getPageCount()) {
        assertThat(c.bytes()).isLessThan(chunk(m, c.column().name(), group).getTotalSize());
      }
    }
  }

  @Test
  void aSharedChunkScanWhosePredicatePrunesPagesReadsOnTheOrderedPath() {
    // A shared scan reads whole chunks: where pages can be pruned, the scan reads on the ordered
    // path instead, whatever the sharing policy.
    long key = (Long) rows.get(rows.size() / 2).get(0);
    ScanRequest narrow =
        ScanRequest.of(COLUMNS)
            .where(Predicate.of(Predicate.between("l_orderkey", key, key + 10)))
            .recorded(false);
    try (Retriever relevance = new Retriever(pool, 2, 0, SharingPolicy.RELEVANCE, 64L << 20)) {
      try (TablePin pin = lineitem.pin();
          Scan scan = relevance.chunks(lineitem, pin, narrow)) {
        int taken = 0;
        while (scan.hasNext()) {
          assertThat(scan.nextChunks().rowRanges()).as("pages pruned").isNotNull();
          taken++;
        }
        assertThat(taken).isPositive();
      }
      assertThat(relevance.sharedManager(SharingPolicy.RELEVANCE)).isNull();
      // A range of l_shipdate, which is not sorted: its pages span the row group's dates, so the
      // scan shares (judged from the manifest alone, no page index read).
      RowGroupFilter dates =
          RowGroupFilter.bind(
              "lineitem",
              lineitem.latest(),
              Predicate.of(
                  Predicate.between(
                      "l_shipdate", LocalDate.parse("1994-01-01"), LocalDate.parse("1994-12-31"))));
      assertThat(dates.select(0, lineitem.latest().rowGroups().size()))
          .allMatch(g -> dates.prunableShare(g) == 0);
      // A range of whole row groups of the sorted key (as Table 3's queries): only row groups at
      // its ends, where an order's lines straddle two, are cut, and the scan shares.
      Manifest m = lineitem.latest();
      int last = m.rowGroups().size() - 1;
      assertThat(last).isPositive();
      Object lo = keyStats(m, 1).min();
      Object hi = keyStats(m, last).max();
      RowGroupFilter whole =
          RowGroupFilter.bind("lineitem", m, Predicate.of(Predicate.between("l_orderkey", lo, hi)));
      List<Integer> read = whole.select(0, last + 1);
      assertThat(read.stream().mapToDouble(whole::prunableShare).sum())
          .isLessThan(0.5 * read.size());
      // Page pruning off: the same scan goes through the shared buffer.
      try (TablePin pin = lineitem.pin();
          Scan scan = relevance.chunks(lineitem, pin, narrow.pagePruning(false))) {
        while (scan.hasNext()) {
          scan.ready().join();
          if (scan.hasNext()) {
            assertThat(scan.nextChunks().rowRanges()).isNull();
          }
        }
      }
      assertThat(relevance.sharedManager(SharingPolicy.RELEVANCE)).isNotNull();
    }
  }

  private static io.mosaic.format.RowGroupStats keyStats(Manifest m, int group) {
    SegmentEntry s = m.segmentFor("l_orderkey", group);
    return s.stats().get(group - s.firstRowGroup());
  }

  @Test
  void aNarrowRangeOnTheSortedKeyReadsFewBytes() {
    long key = (Long) rows.get(rows.size() / 2).get(0);
    ScanRequest request =
        ScanRequest.of(COLUMNS)
            .where(Predicate.of(Predicate.between("l_orderkey", key, key + 10)))
            .recorded(false);
    long pruned;
    long whole;
    try (TablePin pin = lineitem.pin();
        Scan scan = retriever.chunks(lineitem, pin, request)) {
      while (scan.hasNext()) {
        scan.nextChunks();
      }
      pruned = scan.stats().bytesPerDevice().values().stream().mapToLong(Long::longValue).sum();
    }
    try (TablePin pin = lineitem.pin();
        Scan scan = retriever.chunks(lineitem, pin, request.pagePruning(false))) {
      while (scan.hasNext()) {
        RowGroupChunks g = scan.nextChunks();
        assertThat(g.rowRanges()).isNull();
      }
      whole = scan.stats().bytesPerDevice().values().stream().mapToLong(Long::longValue).sum();
    }
    // Here 9 pages per chunk, and dictionaries read whole: about a quarter of the bytes.
    assertThat(pruned).isPositive().isLessThan(whole / 2);
  }

  @Test
  void aDamagedPageThatIsReadFailsItsCrcNamingTheFile() throws Exception {
    long key = (Long) rows.get(rows.size() / 2).get(0);
    Manifest m = lineitem.latest();
    int group = 0;
    long offset = 0;
    while (offset + m.rowGroups().get(group) <= rows.size() / 2) {
      offset += m.rowGroups().get(group++);
    }
    // The last byte of the l_quantity page holding the key's rows: in its body, under its CRC.
    OffsetIndex pages = offsetIndex(m, "l_quantity", group);
    long row = rows.size() / 2 - offset;
    int page = 0;
    while (page + 1 < pages.getPageCount() && pages.getFirstRowIndex(page + 1) <= row) {
      page++;
    }
    Path file = file(m.segmentFor("l_quantity", group));
    long at = pages.getOffset(page) + pages.getCompressedPageSize(page) - 1;
    ScanRequest request =
        ScanRequest.of(COLUMNS)
            .where(Predicate.of(Predicate.eq("l_orderkey", key)))
            .recorded(false);
    byte original;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      original = f.readByte();
      f.seek(at);
      f.writeByte(original ^ 0x5a);
    }
    try (TablePin pin = lineitem.pin();
        Scan scan = retriever.chunks(lineitem, pin, request)) {
      assertThatThrownBy(
              () -> {
                while (scan.hasNext()) {
                  scan.nextChunks();
                }
              })
          .isInstanceOf(CorruptTableException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("fails its page CRC");
    } finally {
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        f.seek(at);
        f.writeByte(original);
      }
    }
  }
}
