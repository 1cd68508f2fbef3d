package io.mosaic.maintenance;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReaders;
import io.mosaic.table.CrashPoints;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableReader;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.util.ArrayList;
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
 * one. Appends committed meanwhile follow the compacted row groups in the new version; any other
 * commit meanwhile is not overwritten: the compaction is refused with a conflict and nothing of the
 * other commit is lost. The version compacted is pinned while it is read.
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
    // Pinned: a migration or row change may replace the base's files meanwhile, and gc must keep
    // them until the rewrite has read them (docs/format.md, "Pins, writer locks and gc").
    Result result;
    List<SegmentEntry> replaced = new ArrayList<>();
    try (TablePin pin = table.pin()) {
      result = optimize(pin.manifest(), listener, replaced);
    }
    // Once unpinned, so that gc can delete what no other reader holds.
    new GarbageCollector(table).retire(replaced);
    return result;
  }

  private Result optimize(Manifest base, Listener listener, List<SegmentEntry> replaced)
      throws IOException {
    int before = base.rowGroups().size();
    long target = table.rowGroupRows(base);
    if (before <= rowGroupsNeeded(base, target) && base.deletions().isEmpty()) {
      return new Result(base.version(), Optional.empty(), base.rowCount(), before, before, 0);
    }
    TableFolders.requirePlainId(table, base, "optimize");
    long[] bytes = {0};
    List<WriteResult> written = new ArrayList<>();
    // The writers stay open until the commit is done, as an append's does: their leases keep gc
    // from taking their files for a dead writer's meanwhile (docs/format.md, "Commits without
    // POSIX locks").
    List<TableWriter> writers = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator();
        java.io.Closeable closeWriters = () -> closeAll(writers)) {
      written.add(rewrite(base, 0, alloc, listener, bytes, writers));
      CrashPoints.reached("optimize-written");
      Manifest read = base; // the newest version whose rows the results hold
      for (int attempt = 1; ; attempt++) {
        Manifest through = read;
        Manifest compacted;
        try {
          compacted = table.commit("optimize", latest -> composed(through, latest, written));
        } catch (AppendedMeanwhile e) {
          if (attempt == MAX_REWRITES) {
            throw new TableConflictException(
                "table "
                    + table.name()
                    + " got appends during each of "
                    + attempt
                    + " tries to commit optimize; nothing was committed, run optimize again");
          }
          // The appended row groups are rewritten too, as rows of their own: their files stamp
          // their row group numbers, which the compacted version changes (SegmentStamp).
          try (TablePin pin = table.pin(e.latest.version())) {
            written.add(
                rewrite(
                    pin.manifest(), through.rowGroups().size(), alloc, listener, bytes, writers));
            read = pin.manifest();
          }
          continue;
        }
        CrashPoints.reached("optimize-committed");
        // Appends only add segments: the last version read names every file replaced.
        replaced.addAll(through.segments());
        return new Result(
            base.version(),
            Optional.of(compacted.version()),
            through.liveRowCount(),
            before,
            compacted.rowGroups().size(),
            bytes[0]);
      }
    }
  }

  private static void closeAll(List<TableWriter> writers) throws IOException {
    IOException first = null;
    for (TableWriter w : writers) {
      try {
        w.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /** Tries to commit a compaction before giving up while appends keep coming. */
  private static final int MAX_REWRITES = 5;

  /** Appends came after the rows a compaction read: it rewrites them too, then commits. */
  private static final class AppendedMeanwhile extends RuntimeException {
    final transient Manifest latest;

    AppendedMeanwhile(Manifest latest) {
      super(null, null, false, false);
      this.latest = latest;
    }
  }

  /**
   * Rewrites row groups {@code from ..} of {@code m}, one at a time, leaving deleted rows out; adds
   * the bytes read to {@code bytes[0]}.
   */
  private WriteResult rewrite(
      Manifest m,
      int from,
      BufferAllocator alloc,
      Listener listener,
      long[] bytes,
      List<TableWriter> writers)
      throws IOException {
    int total = m.rowGroups().size();
    List<ColumnSpec> columns = m.schema().columns();
    TableWriter writer = table.newWriter();
    writers.add(writer);
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(m.schema().arrowSchema(), alloc);
        SegmentReaders readers = new SegmentReaders(table.name(), table.pool(), m)) {
      for (int g = from; g < total; g++) {
        for (ColumnSpec c : columns) {
          SegmentEntry s = m.segmentFor(c.name(), g);
          try (FieldVector in = readers.read(c.name(), g, alloc)) {
            in.makeTransferPair(batch.getVector(c.name())).transfer();
          }
          bytes[0] += s.fileBytes() / s.rowGroupCount();
        }
        batch.setRowCount((int) (long) m.rowGroups().get(g));
        DeletedRows deleted = m.deletedRows(g);
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
        listener.rowGroupRead(g + 1, total, bytes[0]);
      }
      return writer.finish();
    }
  }

  /**
   * The compacted version on {@code latest}: the rewritten row groups of {@code read}, in {@code
   * written}'s order. Appends since {@code read} are rewritten as well ({@link AppendedMeanwhile}):
   * a table fed by small inserts keeps getting them while it is compacted, and refusing then would
   * never let a compaction commit. Any other commit since (a row change, a migration, an ALTER,
   * another rewrite) changed the rows or files the rewrite read, so the compaction is refused and
   * that commit kept.
   */
  private Manifest composed(Manifest read, Manifest latest, List<WriteResult> written) {
    if (latest.version() == read.version()) {
      List<Long> rowGroups = new ArrayList<>();
      List<SegmentEntry> segments = new ArrayList<>();
      for (WriteResult r : written) {
        int first = rowGroups.size();
        rowGroups.addAll(r.rowGroups());
        r.segments().forEach(s -> segments.add(s.startingAt(first + s.firstRowGroup())));
      }
      // Every deletion of the versions read is applied by the rewrite.
      return latest.next("optimize", rowGroups, segments).withDeletions(Map.of());
    }
    for (long v = read.version() + 1; v <= latest.version(); v++) {
      String operation;
      try {
        operation = v == latest.version() ? latest.operation() : table.version(v).operation();
      } catch (MosaicException e) {
        operation = "a version gc retired";
      }
      if (!operation.equals("append")) {
        throw new TableConflictException(
            "table "
                + table.name()
                + " changed during optimize (v"
                + read.version()
                + " -> v"
                + latest.version()
                + ", by "
                + operation
                + "); nothing was committed and that change is kept, run optimize again");
      }
    }
    throw new AppendedMeanwhile(latest);
  }
}
