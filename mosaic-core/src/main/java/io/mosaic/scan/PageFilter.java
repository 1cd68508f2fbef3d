package io.mosaic.scan;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.ValueCodec;
import io.mosaic.scan.PageIndexCache.PageIndex;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndexBuilder;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

/**
 * Which rows of a row group a predicate cannot rule out, from the page statistics of Parquet's
 * column indexes (DESIGN section 5: pages that min/max prove irrelevant are never read). Each page
 * is tested with {@link RowGroupFilter}'s own per-term test, so pages and row groups follow one
 * comparison semantics; the rows of the pages a term keeps become parquet-java's {@link RowRanges}
 * (through the column's offset index), intersected over the terms. Like row-group skipping it only
 * drops pages the statistics prove empty of matches; engines still apply the predicate to the rows.
 */
final class PageFilter {
  private PageFilter() {}

  /**
   * The rows of a row group of {@code rows} rows that may match {@code filter}'s predicate, or null
   * when that is all of them (no term's pages rule any row out, or no term has a page index).
   *
   * @param index the page index of a predicate column's chunk in this row group
   */
  static RowRanges rowRanges(
      RowGroupFilter filter, long rows, Function<ColumnSpec, PageIndex> index) {
    RowRanges result = null;
    for (RowGroupFilter.Bound term : filter.terms()) {
      PageIndex pages = index.apply(term.column());
      ColumnIndex ci = pages.columnIndex();
      OffsetIndex oi = pages.offsetIndex();
      if (ci == null || oi == null || ci.getNullPages().size() != oi.getPageCount()) {
        continue; // no usable index: this term cannot rule pages out
      }
      int[] kept =
          IntStream.range(0, oi.getPageCount())
              .filter(p -> mightMatch(term, pages, p, rows))
              .toArray();
      RowRanges ranges = RowRanges.create(rows, IntStream.of(kept).iterator(), oi);
      result = result == null ? ranges : RowRanges.intersection(result, ranges);
    }
    return result == null || result.rowCount() == rows ? null : result;
  }

  private static boolean mightMatch(RowGroupFilter.Bound term, PageIndex pages, int p, long rows) {
    ColumnIndex ci = pages.columnIndex();
    OffsetIndex oi = pages.offsetIndex();
    long pageRows = oi.getLastRowIndex(p, rows) - oi.getFirstRowIndex(p) + 1;
    boolean nullPage = ci.getNullPages().get(p);
    List<Long> nullCounts = ci.getNullCounts();
    long nulls = nullPage ? pageRows : nullCounts == null ? -1 : nullCounts.get(p);
    Object min = null;
    Object max = null;
    if (!nullPage) {
      RowGroupStats s =
          minMax(term.column(), pages, ci.getMinValues().get(p), ci.getMaxValues().get(p));
      min = s.min();
      max = s.max();
    }
    return RowGroupFilter.mightMatch(term, min, max, nulls, pageRows);
  }

  /** A page's min and max in the statistics' types, as the manifest's come from the footer's. */
  private static RowGroupStats minMax(
      ColumnSpec column, PageIndex pages, ByteBuffer min, ByteBuffer max) {
    byte[] lo = bytes(min);
    byte[] hi = bytes(max);
    if (column.type().isText() && !(utf8(lo) && utf8(hi))) {
      return new RowGroupStats(null, null, -1); // a truncated bound that is no string: unknown
    }
    Statistics<?> stats =
        Statistics.getBuilderForReading(pages.type()).withMin(lo).withMax(hi).build();
    // In the segment's own type: a widened column's older segments hold the narrower one.
    ColumnType stored = column.type().storedIn(pages.type());
    return ValueCodec.fromParquet(stored == null ? column.type() : stored, stats);
  }

  private static byte[] bytes(ByteBuffer b) {
    ByteBuffer d = b.duplicate();
    byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }

  private static boolean utf8(byte[] b) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /**
   * The entries of {@code index} whose pages hold rows of {@code ranges} (the pages to read), with
   * their offsets, sizes and first row indexes: what an engine's reader needs to place their rows.
   */
  static OffsetIndex overlapping(OffsetIndex index, RowRanges ranges, long rows) {
    OffsetIndexBuilder kept = OffsetIndexBuilder.getBuilder();
    for (int p = 0; p < index.getPageCount(); p++) {
      long first = index.getFirstRowIndex(p);
      if (ranges.isOverlapping(first, index.getLastRowIndex(p, rows))) {
        kept.add(index.getOffset(p), index.getCompressedPageSize(p), first);
      }
    }
    return kept.build();
  }
}
