package io.mosaic.workload;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.RowRange;
import io.mosaic.model.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Placement units below a column (docs/row-ranges.md, "Units"): a column's row groups split into
 * ranges that the recorded scans read alike. Adjacent row groups of a column that exactly the same
 * scans read are one unit, so a table read evenly stays one unit per column and the model grows
 * with the distinct access patterns, not with the row groups. Each unit is a column of the cost
 * model, named {@code column[from:to]} (row groups from to to - 1, as a slice) in its table, with
 * its own size, and a scan reads the units of the row groups it read: Eq. 2-5, the CPU term, LOPT
 * and the budget sweep apply to units unchanged.
 */
public final class RangeUnits {
  private RangeUnits() {}

  /** One unit: row groups {@code [from, to)} of a column. */
  public record Unit(ColumnRef column, int from, int to) {
    /** The unit as a column of the cost model. */
    public ColumnRef ref() {
      return RowRange.unit(column, from, to);
    }
  }

  /** A scan as the trace records it: its columns, the row groups it read, how often. */
  public record RangeScan(String table, Set<String> columns, Set<Integer> rowGroups, long weight) {
    public RangeScan {
      columns = Set.copyOf(columns);
      rowGroups = Set.copyOf(rowGroups);
    }
  }

  /**
   * A column's bytes per row group: uncompressed, and stored per codec where measured (as {@link
   * ColumnSize} holds them for whole columns).
   */
  public record RowGroupSizes(long[] bytes, Map<Codec, long[]> stored) {
    public RowGroupSizes {
      for (long[] s : stored.values()) {
        if (s.length != bytes.length) {
          throw MosaicException.invalid(
              "stored sizes for " + s.length + " row groups, uncompressed for " + bytes.length);
        }
      }
      stored = Map.copyOf(stored);
    }
  }

  /** The units, their sizes, and the workload over them. */
  public record Split(List<Unit> units, List<ColumnSize> sizes, Workload workload) {
    public Split {
      units = List.copyOf(units);
      sizes = List.copyOf(sizes);
    }
  }

  /**
   * Splits one table's columns into units from its scans.
   *
   * @param sizes per column of the table, its bytes per row group (all columns have as many row
   *     groups)
   */
  public static Split split(String table, Map<String, RowGroupSizes> sizes, List<RangeScan> scans) {
    int groups = -1;
    for (var e : sizes.entrySet()) {
      int n = e.getValue().bytes().length;
      if (groups >= 0 && n != groups) {
        throw MosaicException.invalid(
            "column "
                + e.getKey()
                + " of "
                + table
                + " has "
                + n
                + " row groups, others "
                + groups);
      }
      groups = n;
    }
    // Distinct scans: the same columns over the same row groups are one, weights added.
    Map<RangeScan, Long> distinct = new LinkedHashMap<>();
    for (RangeScan s : scans) {
      if (!s.table().equals(table)) {
        continue;
      }
      for (String c : s.columns()) {
        if (!sizes.containsKey(c)) {
          throw MosaicException.invalid(
              "scan of " + table + " reads column '" + c + "', which the sizes do not list");
        }
      }
      distinct.merge(new RangeScan(table, s.columns(), s.rowGroups(), 1), s.weight(), Long::sum);
    }
    List<RangeScan> kinds = new ArrayList<>(distinct.keySet());
    List<Unit> units = new ArrayList<>();
    List<ColumnSize> unitSizes = new ArrayList<>();
    // Per distinct scan, the units it reads.
    List<Set<ColumnRef>> reads = new ArrayList<>();
    kinds.forEach(k -> reads.add(new HashSet<>()));
    for (var e : sizes.entrySet()) {
      String column = e.getKey();
      int from = 0;
      Set<Integer> signature = signature(kinds, column, 0);
      for (int g = 1; g <= groups; g++) {
        Set<Integer> next = g < groups ? signature(kinds, column, g) : null;
        if (next != null && next.equals(signature)) {
          continue;
        }
        Unit u = new Unit(new ColumnRef(table, column), from, g);
        units.add(u);
        unitSizes.add(size(u, e.getValue()));
        for (int k : signature) {
          reads.get(k).add(u.ref());
        }
        from = g;
        signature = next;
      }
    }
    List<DistinctScan> unitScans = new ArrayList<>();
    for (int k = 0; k < kinds.size(); k++) {
      if (!reads.get(k).isEmpty()) {
        unitScans.add(new DistinctScan(reads.get(k), distinct.get(kinds.get(k))));
      }
    }
    return new Split(units, unitSizes, Workload.merging(unitScans));
  }

  // Which distinct scans read this column's row group (indexes into kinds).
  private static Set<Integer> signature(List<RangeScan> kinds, String column, int group) {
    Set<Integer> readers = new TreeSet<>();
    for (int k = 0; k < kinds.size(); k++) {
      RangeScan s = kinds.get(k);
      if (s.columns().contains(column) && s.rowGroups().contains(group)) {
        readers.add(k);
      }
    }
    return readers;
  }

  private static ColumnSize size(Unit u, RowGroupSizes sizes) {
    long bytes = 0;
    for (int g = u.from(); g < u.to(); g++) {
      bytes += sizes.bytes()[g];
    }
    Map<Codec, Long> stored = new HashMap<>();
    for (var e : sizes.stored().entrySet()) {
      long s = 0;
      for (int g = u.from(); g < u.to(); g++) {
        s += e.getValue()[g];
      }
      stored.put(e.getKey(), s);
    }
    return new ColumnSize(u.ref(), bytes, stored);
  }
}
