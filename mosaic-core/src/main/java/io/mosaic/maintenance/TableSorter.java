package io.mosaic.maintenance;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.ValueOrder;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.CrashPoints;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Rewrites a table's rows sorted by one column (a re-sort, docs/physical-design.md; Physical Design
 * Management in Ceph, Section II: a layout transformation besides moves), so that the row groups'
 * min/max statistics on that column no longer overlap and a range predicate on it skips most of
 * them. The new row groups are written by a {@link TableWriter} (each column on the device it is
 * on, with its codec) and committed in one version that records the order in the table property
 * {@value MosaicTable#CLUSTERING}; a kill before the commit leaves the old version whole (gc
 * deletes the partial files), one after leaves the new one. The old segments are retired by gc.
 *
 * <p>The sort is in memory: every column's values are decoded at once. Tables larger than the JVM's
 * heap need an external sort (not yet).
 */
public final class TableSorter {
  /** Progress: {@code bytes} of the old segments of {@code device} read and rewritten. */
  public interface Listener {
    default void copied(String device, long bytes) {}

    /** {@code rows} of {@code total} written in the new order (a chance to stop the sort). */
    default void written(long rows, long total) {}
  }

  private static final int BATCH_ROWS = 64 * 1024;

  private final MosaicTable table;

  public TableSorter(MosaicTable table) {
    this.table = table;
  }

  /**
   * Whether {@code m}'s rows are in {@code column}'s order (nulls first), by its row group stats.
   */
  public static boolean sortedBy(Manifest m, String column) {
    Object lastMax = null;
    for (int g = 0; g < m.rowGroups().size(); g++) {
      SegmentEntry segment = m.segmentFor(column, g);
      var s = segment.stats().get(g - segment.firstRowGroup());
      if (s == null || s.min() == null) {
        return false;
      }
      if (lastMax != null && compare(lastMax, s.min()) > 0) {
        return false;
      }
      lastMax = s.max();
    }
    return true;
  }

  /**
   * Sorts the latest version's rows by {@code column} and commits them; returns the new version.
   */
  public Manifest sort(String column, Listener listener) throws IOException {
    // Pinned, as a compaction's base is (TableCompactor#optimize).
    Manifest base;
    Manifest sorted;
    try (TablePin pin = table.pin()) {
      base = pin.manifest();
      sorted = sort(base, column, listener);
    }
    // Once unpinned, so that gc can delete what no other reader holds.
    new GarbageCollector(table).retire(base.segments());
    return sorted;
  }

  private Manifest sort(Manifest base, String column, Listener listener) throws IOException {
    String key = base.schema().column(column).name();
    TableFolders.requirePlainId(table, base, "re-sort");
    List<ColumnSpec> columns = base.schema().columns();
    int groups = base.rowGroups().size();
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter()) {
      // Every column's row groups, decoded (what a sort in memory needs).
      Map<String, List<FieldVector>> data = new LinkedHashMap<>();
      try {
        for (ColumnSpec c : columns) {
          List<FieldVector> vectors = new ArrayList<>();
          data.put(c.name(), vectors);
          for (SegmentEntry s : base.segmentsOf(c.name())) {
            try (SegmentReader reader = new SegmentReader(table.name(), table.pool(), base, s)) {
              for (int g = s.firstRowGroup(); g < s.firstRowGroup() + s.rowGroupCount(); g++) {
                vectors.add(reader.read(g, alloc));
                listener.copied(s.device(), s.fileBytes() / s.rowGroupCount());
              }
            }
          }
        }
        // The permutation: (row group, row) pairs in the key's order, stable.
        List<FieldVector> keys = data.get(key);
        List<long[]> rows = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
          FieldVector v = keys.get(g);
          // Deleted rows are left out here, so the sorted version needs no deletions.
          var deleted = base.deletedRows(g);
          for (int i = 0; i < v.getValueCount(); i++) {
            if (deleted != null && deleted.contains(i)) {
              continue;
            }
            rows.add(new long[] {g, i, values.size()});
            values.add(ValueOrder.normalize(v.getObject(i)));
          }
        }
        rows.sort(
            Comparator.comparing(
                (long[] r) -> values.get((int) r[2]), Comparator.nullsFirst(TableSorter::compare)));
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(base.schema().arrowSchema(), alloc)) {
          for (int from = 0; from < rows.size(); from += BATCH_ROWS) {
            int n = Math.min(BATCH_ROWS, rows.size() - from);
            batch.allocateNew();
            for (ColumnSpec c : columns) {
              FieldVector out = batch.getVector(c.name());
              List<FieldVector> in = data.get(c.name());
              for (int i = 0; i < n; i++) {
                long[] r = rows.get(from + i);
                out.copyFromSafe((int) r[1], i, in.get((int) r[0]));
              }
              out.setValueCount(n);
            }
            batch.setRowCount(n);
            writer.write(batch);
            listener.written(from + n, rows.size());
          }
        }
      } finally {
        data.values().forEach(list -> list.forEach(FieldVector::close));
      }
      WriteResult result = writer.finish();
      CrashPoints.reached("sort-written");
      long baseVersion = base.version();
      Manifest sorted =
          table.commit(
              "sort",
              latest -> {
                if (latest.version() != baseVersion) {
                  throw new TableConflictException(
                      "table "
                          + table.name()
                          + " changed during the re-sort by "
                          + key
                          + " (v"
                          + baseVersion
                          + " -> v"
                          + latest.version()
                          + "); nothing was committed, run the re-sort again");
                }
                Map<String, String> properties = new LinkedHashMap<>(latest.properties());
                properties.put(TableProperties.CLUSTERING, key);
                return latest
                    .next("sort", result.rowGroups(), result.segments())
                    .withDeletions(Map.of())
                    .withProperties(properties);
              });
      CrashPoints.reached("sort-committed");
      return sorted;
    } catch (IllegalStateException | UnsupportedOperationException e) {
      throw new MosaicException(
          MosaicException.Kind.UNSUPPORTED,
          "cannot sort table "
              + table.name()
              + " by "
              + column
              + ": "
              + e.getMessage()
              + "; sort by a column of a number, date, timestamp or string type",
          e);
    }
  }

  /** Orders like Parquet's statistics ({@link ValueOrder#compare}). */
  public static int compare(Object a, Object b) {
    return ValueOrder.compare(a, b);
  }
}
