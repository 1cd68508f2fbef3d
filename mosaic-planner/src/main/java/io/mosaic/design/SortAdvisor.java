package io.mosaic.design;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.TableSorter;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.Text;

/**
 * Identifies a re-sort of a table from its trace (docs/physical-design.md, "Re-sorting"; Physical
 * Design Management in Ceph, Section II: a layout change other than a move, chosen from the
 * workload). The trace records per scan the columns and the row groups it read, not its predicate,
 * so the column a scan filtered on is inferred: a column <i>explains</i> a scan that skipped row
 * groups when one interval of its values meets the min/max range of every row group the scan read
 * and of none it skipped (what min/max skipping on that column would have done). The column that
 * explains the most skipped row groups is the candidate; what the explained scans would read once
 * the table is sorted by it is counted from the column's values (the sorted row groups' ranges
 * against the same interval). A scan that skipped nothing gives no evidence and is assumed to read
 * every row group afterwards too; an epoch whose scans skipped nothing yields no candidate.
 */
public final class SortAdvisor {
  private SortAdvisor() {}

  /**
   * What one recorded scan reads now and would read after the re-sort.
   *
   * @param columns the columns it read
   * @param readNow row groups it read
   * @param readAfter row groups it would read with the table sorted by the candidate
   */
  public record ScanSkip(Set<String> columns, int readNow, int readAfter) {
    public ScanSkip {
      columns = Set.copyOf(columns);
    }
  }

  /**
   * A re-sort to price: the column, the table's row groups, and the scans of the epoch that read
   * it.
   *
   * @param explained how many of the scans the column explains (skipped row groups by it)
   */
  public record SortCandidate(
      String table,
      String column,
      int rowGroups,
      int rowGroupsAfter,
      int explained,
      List<ScanSkip> scans) {
    public SortCandidate {
      scans = List.copyOf(scans);
    }

    /** The fraction of the table's rows a scan no longer reads once sorted. */
    public double savedFraction(ScanSkip scan) {
      return scan.readNow() / (double) rowGroups - scan.readAfter() / (double) rowGroupsAfter;
    }

    public long readNow() {
      return scans.stream().mapToLong(ScanSkip::readNow).sum();
    }

    public long readAfter() {
      return scans.stream().mapToLong(ScanSkip::readAfter).sum();
    }
  }

  /**
   * The identification: a candidate, or why there is none.
   *
   * @param why when there is no candidate, the reason in a sentence; else how it was found
   */
  public record Identification(Optional<SortCandidate> candidate, String why) {}

  /** Identifies the re-sort of {@code table} that its epoch's {@code records} point to, if any. */
  public static Identification identify(MosaicTable table, List<TraceRecord> records) {
    Manifest m = table.latest();
    int groups = m.rowGroups().size();
    if (groups < 2) {
      return none("table " + table.name() + " has " + groups + " row group: nothing to skip");
    }
    List<Set<Integer>> reads = new ArrayList<>();
    List<Set<String>> columns = new ArrayList<>();
    for (TraceRecord r : records) {
      Set<Integer> read = new HashSet<>();
      r.rowGroups().stream().filter(g -> g >= 0 && g < groups).forEach(read::add);
      if (!read.isEmpty() && !r.columns().isEmpty()) {
        reads.add(read);
        columns.add(new LinkedHashSet<>(r.columns()));
      }
    }
    // Several columns may explain the same skipping (one already in order with the filtered one,
    // as a row number is): the candidate is the one whose order saves the most row groups, then the
    // one that explains the most skipped row groups.
    SortCandidate best = null;
    double bestSaved = Double.NEGATIVE_INFINITY;
    long bestSkipped = 0;
    boolean explains = false;
    for (ColumnSpec c : m.schema().columns()) {
      if (!orderable(c) || !hasStats(m, c.name())) {
        continue;
      }
      long skipped = 0;
      int explained = 0;
      for (int i = 0; i < reads.size(); i++) {
        if (columns.get(i).contains(c.name())
            && reads.get(i).size() < groups
            && interval(m, c.name(), reads.get(i)).isPresent()) {
          skipped += groups - reads.get(i).size();
          explained++;
        }
      }
      if (explained == 0) {
        continue;
      }
      explains = true;
      if (TableSorter.sortedBy(m, c.name())) {
        continue; // in order already: sorting by it saves nothing
      }
      List<Long> sortedGroups = sortedRowGroups(m.rowCount(), table.rowGroupRows(m));
      SortCandidate candidate =
          new SortCandidate(
              table.name(),
              c.name(),
              groups,
              sortedGroups.size(),
              explained,
              skips(table, m, c.name(), reads, columns, sortedGroups));
      double saved = candidate.scans().stream().mapToDouble(candidate::savedFraction).sum();
      if (saved > bestSaved || (saved == bestSaved && skipped > bestSkipped)) {
        best = candidate;
        bestSaved = saved;
        bestSkipped = skipped;
      }
    }
    if (best == null) {
      return none(
          explains
              ? "the columns that explain the epoch's skipped row groups are in order already"
              : "no scan of the trace epoch skipped row groups by a column's min/max statistics,"
                  + " and the trace does not record predicates: a re-sort cannot be estimated");
    }
    SortCandidate candidate = best;
    return new Identification(
        Optional.of(candidate),
        String.format(
            Locale.ROOT,
            "%s (its order explains what %d of the epoch's scans skipped): the %d scans reading"
                + " it read %d row groups in all now (of %d each), about %d sorted by it (of %d"
                + " each)",
            candidate.column(),
            candidate.explained(),
            candidate.scans().size(),
            candidate.readNow(),
            groups,
            candidate.readAfter(),
            candidate.rowGroupsAfter()));
  }

  // What each scan reading column reads now and would read sorted by it.
  private static List<ScanSkip> skips(
      MosaicTable table,
      Manifest m,
      String column,
      List<Set<Integer>> reads,
      List<Set<String>> columns,
      List<Long> sortedGroups) {
    int groups = m.rowGroups().size();
    List<Object> sorted = sortedValues(table, m, column);
    List<ScanSkip> scans = new ArrayList<>();
    for (int i = 0; i < reads.size(); i++) {
      if (!columns.get(i).contains(column)) {
        continue;
      }
      Optional<Object[]> p = interval(m, column, reads.get(i));
      int now = reads.get(i).size();
      int after =
          now < groups && p.isPresent()
              ? sortedReads(sortedGroups, sorted, p.get())
              : sortedGroups.size();
      scans.add(new ScanSkip(columns.get(i), now, after));
    }
    return scans;
  }

  private static Identification none(String why) {
    return new Identification(Optional.empty(), why);
  }

  private static boolean orderable(ColumnSpec c) {
    return io.mosaic.format.ValueOrder.orderable(c.type());
  }

  private static RowGroupStats stats(Manifest m, String column, int g) {
    SegmentEntry s = m.segmentFor(column, g);
    return s.stats().get(g - s.firstRowGroup());
  }

  private static boolean hasStats(Manifest m, String column) {
    for (int g = 0; g < m.rowGroups().size(); g++) {
      RowGroupStats s = stats(m, column, g);
      if (s == null || s.min() == null || s.max() == null) {
        return false;
      }
    }
    return true;
  }

  /**
   * The smallest interval of {@code column}'s values that meets the range of every row group in
   * {@code read}, if it meets no other row group's range: then min/max skipping on that column
   * explains what the scan skipped.
   */
  private static Optional<Object[]> interval(Manifest m, String column, Set<Integer> read) {
    Object lowestMax = null;
    Object highestMin = null;
    for (int g : read) {
      RowGroupStats s = stats(m, column, g);
      if (lowestMax == null || TableSorter.compare(s.max(), lowestMax) < 0) {
        lowestMax = s.max();
      }
      if (highestMin == null || TableSorter.compare(s.min(), highestMin) > 0) {
        highestMin = s.min();
      }
    }
    boolean point = TableSorter.compare(lowestMax, highestMin) >= 0;
    // A point when the ranges read share one (a point of them all), else the gap between them.
    Object lo = point ? highestMin : lowestMax;
    Object hi = highestMin;
    for (int g = 0; g < m.rowGroups().size(); g++) {
      if (!read.contains(g) && meets(stats(m, column, g), lo, hi)) {
        return Optional.empty();
      }
    }
    return Optional.of(new Object[] {lo, hi});
  }

  private static boolean meets(RowGroupStats s, Object lo, Object hi) {
    return TableSorter.compare(s.max(), lo) >= 0 && TableSorter.compare(s.min(), hi) <= 0;
  }

  // The row counts of the sorted table's row groups, as its writer cuts them.
  private static List<Long> sortedRowGroups(long rows, long perGroup) {
    List<Long> groups = new ArrayList<>();
    for (long done = 0; done < rows; done += perGroup) {
      groups.add(Math.min(perGroup, rows - done));
    }
    return groups;
  }

  // The row groups of the sorted table whose range meets p.
  private static int sortedReads(List<Long> sortedGroups, List<Object> sorted, Object[] p) {
    int nulls = 0;
    while (nulls < sorted.size() && sorted.get(nulls) == null) {
      nulls++;
    }
    int read = 0;
    int from = 0;
    for (long rows : sortedGroups) {
      int to = (int) Math.min(sorted.size(), from + rows);
      int first = Math.max(from, nulls);
      if (to > first
          && TableSorter.compare(sorted.get(to - 1), p[0]) >= 0
          && TableSorter.compare(sorted.get(first), p[1]) <= 0) {
        read++;
      }
      from = to;
    }
    return Math.max(1, read);
  }

  // The column's non-null values in order (nulls sort first and no predicate range meets them).
  private static List<Object> sortedValues(MosaicTable table, Manifest m, String column) {
    ColumnSpec spec = m.schema().column(column);
    List<Object> values = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      for (SegmentEntry s : m.segmentsOf(column)) {
        try (SegmentReader reader = new SegmentReader(table.name(), table.pool(), m, s)) {
          for (int g = s.firstRowGroup(); g < s.firstRowGroup() + s.rowGroupCount(); g++) {
            try (FieldVector v = reader.read(g, alloc)) {
              for (int i = 0; i < v.getValueCount(); i++) {
                Object o = v.getObject(i);
                values.add(o instanceof Text t ? t.toString() : o);
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read column " + column + " of table " + table.name() + " to estimate a re-sort",
          e);
    }
    List<Object> nonNull = new ArrayList<>(values.stream().filter(v -> v != null).toList());
    nonNull.sort(TableSorter::compare);
    List<Object> sorted = new ArrayList<>(values.size());
    for (int i = nonNull.size(); i < values.size(); i++) {
      sorted.add(null);
    }
    sorted.addAll(nonNull);
    return sorted;
  }
}
