package io.mosaic.maintenance;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.CrashPoints;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableReader;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Compaction (docs/operations.md, "Compaction"): rewrites a table whose appends left more row
 * groups than its rows need into row groups of the table's {@code row_group_rows}, in the same row
 * order, each column on the device of its newest segment with that device's codec, and commits them
 * in one version. Small row groups cost a scan per row group what a large one costs (a request, a
 * footer entry, a seek: the paper's Eq. 3 charges a scan per column chunk), so many small inserts
 * slow every later scan.
 *
 * <p>The rewrite streams one row group at a time, so it needs memory for one row group, not the
 * table. It rewrites the whole table, not only its small row groups: segments hold runs of row
 * groups, and keeping some of them would renumber files older versions still read. A kill before
 * the commit leaves the old version whole (gc deletes the partial files), one after leaves the new
 * one. A table changed by another commit meanwhile is not overwritten: the compaction is refused
 * with a conflict and nothing of the other commit is lost.
 */
public final class TableCompactor {
  /** Progress of a compaction. */
  public interface Listener {
    /** Table row group {@code done} of {@code total} read ({@code bytes} of its segments). */
    default void rowGroupRead(int done, int total, long bytes) {}
  }

  /**
   * What a compaction did.
   *
   * @param version the committed version, or empty when the table had nothing to compact
   * @param rowGroupsBefore row groups of the version compacted
   * @param rowGroupsAfter row groups after the compaction (as before when nothing was done)
   * @param bytesRewritten bytes of the old segments read and written again
   */
  public record Result(
      long baseVersion,
      Optional<Long> version,
      long rows,
      int rowGroupsBefore,
      int rowGroupsAfter,
      long bytesRewritten) {
    public boolean compacted() {
      return version.isPresent();
    }
  }

  private final MosaicTable table;

  public TableCompactor(MosaicTable table) {
    this.table = table;
  }

  /** The fewest row groups of {@code rowGroupRows} rows that hold {@code m}'s live rows. */
  private static int rowGroupsNeeded(Manifest m, long rowGroupRows) {
    return (int) ((m.liveRowCount() + rowGroupRows - 1) / rowGroupRows);
  }

  /**
   * Compacts the latest version if it has more row groups than its rows need, or deleted rows: they
   * are left out of the rewrite, which so applies the deletion vectors.
   */
  public Result optimize(Listener listener) throws IOException {
    Manifest base = table.latest();
    int before = base.rowGroups().size();
    long target = table.rowGroupRows(base);
    if (before <= rowGroupsNeeded(base, target) && base.deletions().isEmpty()) {
      return new Result(base.version(), Optional.empty(), base.rowCount(), before, before, 0);
    }
    TableFolders.requirePlainId(table, base, "optimize");
    List<ColumnSpec> columns = base.schema().columns();
    long bytes = 0;
    Map<SegmentEntry, SegmentReader> readers = new HashMap<>();
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(base.schema().arrowSchema(), alloc)) {
      try {
        for (int g = 0; g < before; g++) {
          for (ColumnSpec c : columns) {
            SegmentEntry s = base.segmentFor(c.name(), g);
            SegmentReader reader = readers.get(s);
            if (reader == null) {
              // Segments are read in row group order: the previous one of this column is done.
              closeDone(readers, c.name(), g);
              reader = new SegmentReader(table.name(), table.pool(), base, s);
              readers.put(s, reader);
            }
            try (FieldVector in = reader.read(g, alloc)) {
              in.makeTransferPair(batch.getVector(c.name())).transfer();
            }
            bytes += s.fileBytes() / s.rowGroupCount();
          }
          batch.setRowCount((int) (long) base.rowGroups().get(g));
          DeletedRows deleted = base.deletedRows(g);
          if (deleted == null) {
            writer.write(batch);
          } else {
            try (VectorSchemaRoot live = TableReader.liveRows(batch, deleted, alloc)) {
              if (live.getRowCount() > 0) {
                writer.write(live);
              }
            }
          }
          batch.clear();
          listener.rowGroupRead(g + 1, before, bytes);
        }
      } finally {
        for (SegmentReader r : readers.values()) {
          r.close();
        }
      }
      WriteResult result = writer.finish();
      CrashPoints.reached("optimize-written");
      long baseVersion = base.version();
      Manifest compacted =
          table.commit(
              "optimize",
              latest -> {
                if (latest.version() != baseVersion) {
                  throw new TableConflictException(
                      "table "
                          + table.name()
                          + " changed during optimize (v"
                          + baseVersion
                          + " -> v"
                          + latest.version()
                          + ", by "
                          + latest.operation()
                          + "); nothing was committed and that change is kept, run optimize"
                          + " again");
                }
                return latest
                    .next("optimize", result.rowGroups(), result.segments())
                    .withDeletions(Map.of());
              });
      CrashPoints.reached("optimize-committed");
      new GarbageCollector(table).retire(base.segments());
      return new Result(
          baseVersion,
          Optional.of(compacted.version()),
          base.liveRowCount(),
          before,
          compacted.rowGroups().size(),
          bytes);
    }
  }

  /** Closes the readers of {@code column}'s segments that end before row group {@code g}. */
  private static void closeDone(Map<SegmentEntry, SegmentReader> readers, String column, int g)
      throws IOException {
    var it = readers.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      SegmentEntry s = e.getKey();
      if (s.column().equals(column) && s.firstRowGroup() + s.rowGroupCount() <= g) {
        e.getValue().close();
        it.remove();
      }
    }
  }
}
