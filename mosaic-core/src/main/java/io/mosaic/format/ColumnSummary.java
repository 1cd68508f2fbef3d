package io.mosaic.format;

import java.util.OptionalLong;

/**
 * One column's statistics over a whole table version, from its row groups' statistics in the
 * manifest: what both engines' cost-based optimizers get (Trino's {@code getTableStatistics},
 * Spark's {@code estimateStatistics}), so they report the same numbers.
 *
 * @param rows the table's rows
 * @param nulls null values
 * @param distinct estimated distinct non-null values (the union of the row groups' sketches, at
 *     most the non-null values), empty if a row group has no sketch (docs/format.md: written before
 *     sketches, or imported; ANALYZE adds them)
 * @param dataBytes for strings and binaries the total length of the non-null values, empty when a
 *     row group does not record it, or for other types
 * @param min the smallest value, null if unknown (a row group without min/max but with values)
 * @param max the largest value, likewise
 */
public record ColumnSummary(
    long rows, long nulls, OptionalLong distinct, OptionalLong dataBytes, Object min, Object max) {

  public static ColumnSummary of(Manifest m, String column) {
    ColumnType type = m.schema().column(column).type();
    long nulls = 0;
    long dataBytes = 0;
    boolean sized = type.isVariableWidth();
    boolean counted = true;
    boolean ranged = true;
    Object min = null;
    Object max = null;
    DistinctSketch union = new DistinctSketch();
    for (SegmentEntry s : m.segmentsOf(column)) {
      for (int k = 0; k < s.rowGroupCount(); k++) {
        RowGroupStats g = s.stats().get(k);
        long rows = m.rowGroups().get(s.firstRowGroup() + k);
        nulls += g.nulls();
        if (counted && g.hasDistinct()) {
          union.merge(DistinctSketch.fromBase64(g.distinct()));
        } else {
          counted = false;
        }
        sized &= g.dataBytes() >= 0;
        dataBytes += g.dataBytes();
        if (g.min() != null && g.max() != null) {
          min = min == null || ValueCodec.ordered(type, g.min(), min) ? g.min() : min;
          max = max == null || ValueCodec.ordered(type, max, g.max()) ? g.max() : max;
        } else if (g.nulls() < rows) {
          ranged = false; // values whose range the row group does not record
        }
      }
    }
    long rows = m.rowCount();
    long nonNull = rows - nulls;
    OptionalLong distinct = OptionalLong.empty();
    if (counted) {
      long estimate = Math.min(nonNull, Math.round(union.estimate()));
      distinct = OptionalLong.of(nonNull > 0 ? Math.max(1, estimate) : 0);
    }
    boolean orderable = !type.isVariableWidth();
    return new ColumnSummary(
        rows,
        nulls,
        distinct,
        sized ? OptionalLong.of(dataBytes) : OptionalLong.empty(),
        ranged && orderable ? min : null,
        ranged && orderable ? max : null);
  }
}
