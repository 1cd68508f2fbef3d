package io.mosaic.model;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The row groups {@code [from, to)} of a placement unit below a column (docs/row-ranges.md), named
 * in the cost model as {@code column[from:to]}. A scan reads its row groups in order, so the units
 * it reads on different devices overlap in time only within a range of rows that they share: for
 * such a scan Eq. 3's "slowest device" holds per range of rows, and the ranges add up ({@link
 * #shares}, docs/cost-model.md).
 */
public record RowRange(int from, int to) {
  private static final Pattern NAME = Pattern.compile("(.+)\\[(\\d{1,9}):(\\d{1,9})\\]");

  public RowRange {
    if (from < 0 || to <= from) {
      throw new IllegalArgumentException("row range [" + from + ":" + to + "] is empty");
    }
  }

  /** The unit {@code column[from:to]} of a column. */
  public static ColumnRef unit(ColumnRef column, int from, int to) {
    return new ColumnRef(column.table(), column.column() + "[" + from + ":" + to + "]");
  }

  /** The range a unit's name gives, or empty for a whole column. */
  public static Optional<RowRange> of(ColumnRef column) {
    Matcher m = NAME.matcher(column.column());
    if (!m.matches()) {
      return Optional.empty();
    }
    int from = Integer.parseInt(m.group(2));
    int to = Integer.parseInt(m.group(3));
    return to > from ? Optional.of(new RowRange(from, to)) : Optional.empty();
  }

  /**
   * For a scan's columns, in order: each column's share of its bytes in each range of rows the
   * scan's units cut it into ({@code [column][range]}), or null when the scan has one range (whole
   * columns, or units over the same rows), where Eq. 3 applies as it is. A unit's bytes are taken
   * as spread evenly over its row groups.
   */
  public static double[][] shares(List<ColumnRef> columns) {
    RowRange[] ranges = new RowRange[columns.size()];
    TreeSet<Integer> cuts = new TreeSet<>();
    for (int c = 0; c < columns.size(); c++) {
      Optional<RowRange> r = of(columns.get(c));
      if (r.isEmpty()) {
        return null; // a whole column spans every range: no finer order to model
      }
      ranges[c] = r.get();
      cuts.add(r.get().from);
      cuts.add(r.get().to);
    }
    if (cuts.size() <= 2) {
      return null;
    }
    Integer[] at = cuts.toArray(new Integer[0]);
    double[][] shares = new double[columns.size()][at.length - 1];
    for (int c = 0; c < columns.size(); c++) {
      RowRange u = ranges[c];
      for (int r = 0; r + 1 < at.length; r++) {
        int lo = Math.max(u.from, at[r]);
        int hi = Math.min(u.to, at[r + 1]);
        if (hi > lo) {
          shares[c][r] = (hi - lo) / (double) (u.to - u.from);
        }
      }
    }
    return shares;
  }
}
