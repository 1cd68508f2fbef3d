package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.format.ValueOrder;
import io.mosaic.segment.SegmentWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes one task's rows (docs/format.md, "Writing and committing"): Arrow batches go straight into
 * one segment per column, each on the device the table's current placement gives the column (new
 * columns: the default device), cut into row groups of the table's size. Nothing is visible until
 * the driver commits the {@link WriteResult}. While writing, the writer holds a lock in the table's
 * {@code _writers} directory so gc leaves its files alone; a crashed writer's lock dies with it.
 */
public final class TableWriter implements AutoCloseable {
  private final MosaicTable table;
  private final Manifest base;
  private final long rowGroupRows;
  private final List<Long> rowGroups = new ArrayList<>();
  private final Map<String, SegmentWriter> segments = new HashMap<>();
  private final WriterLock lock;
  private long rowsInGroup;
  private boolean finished;
  // With the table property sorted_by, rows wait here until their row group is full and go out
  // sorted by that column (docs/format.md, "Sort order on write"): memory for one row group.
  private final String sortKey;
  private BufferAllocator sortMemory;
  private VectorSchemaRoot pending;
  private int pendingRows;

  TableWriter(MosaicTable table, Manifest base) {
    this.table = table;
    this.base = base;
    this.rowGroupRows = table.rowGroupRows(base);
    this.lock = new WriterLock(table, "w");
    this.sortKey = base.properties().get(TableProperties.SORTED_BY);
  }

  String writerId() {
    return lock.id();
  }

  /** Where a new segment of {@code column} goes: where the column lives now, else the default. */
  public static Device placementOf(MosaicTable table, Manifest base, String column) {
    List<SegmentEntry> existing = base.segmentsOf(column);
    return existing.isEmpty()
        ? table.initialDevice(base, column)
        : table.pool().device(existing.get(existing.size() - 1).device());
  }

  /**
   * Segment path on its device: {@code <tableId>/<column id>/<writer id>-<n>.parquet} (the id, not
   * the name, so a rename moves no file: docs/format.md, "Column ids").
   */
  public static String segmentPath(Manifest m, String column, String writerId, int n) {
    return m.tableId() + "/" + m.schema().idOf(column) + "/" + writerId + "-" + n + ".parquet";
  }

  /** Appends a batch; its schema must be the table's (names, types, nullability). */
  public void write(VectorSchemaRoot batch) throws IOException {
    TableSchema schema;
    try {
      schema = TableSchema.fromArrow(batch.getSchema());
    } catch (MosaicException e) {
      throw new MosaicException(
          e.kind(), "cannot write to table " + table.name() + ": " + e.getMessage(), e);
    }
    if (!schema.sameColumns(base.schema())) {
      throw MosaicException.invalid(
          "schema mismatch writing to table "
              + table.name()
              + ": the batch has "
              + schema.columns()
              + ", the table has "
              + base.schema().columns());
    }
    if (segments.isEmpty()) {
      openSegments();
    }
    if (sortKey != null) {
      buffer(batch);
    } else {
      writeRows(batch);
    }
  }

  /** Streams the batch's rows into the segments, ending each row group once it is full. */
  private void writeRows(VectorSchemaRoot batch) throws IOException {
    int rows = batch.getRowCount();
    int done = 0;
    while (done < rows) {
      int n = (int) Math.min(rows - done, rowGroupRows - rowsInGroup);
      for (ColumnSpec c : base.schema().columns()) {
        FieldVector vector = batch.getVector(c.name());
        segments.get(c.name()).write(vector, done, n);
      }
      rowsInGroup += n;
      done += n;
      if (rowsInGroup == rowGroupRows) {
        endRowGroup();
      }
    }
  }

  /** Holds the batch's rows until a row group is full, then writes it sorted. */
  private void buffer(VectorSchemaRoot batch) throws IOException {
    if (pending == null) {
      sortMemory = new RootAllocator();
      pending = VectorSchemaRoot.create(base.schema().arrowSchema(), sortMemory);
      pending.allocateNew();
    }
    int rows = batch.getRowCount();
    int done = 0;
    while (done < rows) {
      int n = (int) Math.min(rows - done, rowGroupRows - pendingRows);
      for (ColumnSpec c : base.schema().columns()) {
        FieldVector from = batch.getVector(c.name());
        FieldVector to = pending.getVector(c.name());
        for (int k = 0; k < n; k++) {
          to.copyFromSafe(done + k, pendingRows + k, from);
        }
      }
      pendingRows += n;
      done += n;
      if (pendingRows == rowGroupRows) {
        writeSorted();
      }
    }
  }

  /** The held rows, as one row group in the order of {@link #sortKey} (stable, nulls first). */
  private void writeSorted() throws IOException {
    int n = pendingRows;
    for (FieldVector v : pending.getFieldVectors()) {
      v.setValueCount(n);
    }
    pending.setRowCount(n);
    FieldVector key = pending.getVector(sortKey);
    Object[] values = new Object[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      values[i] = key.getObject(i);
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> ValueOrder.NULLS_FIRST.compare(values[a], values[b]));
    try (VectorSchemaRoot sorted = VectorSchemaRoot.create(pending.getSchema(), sortMemory)) {
      sorted.allocateNew();
      for (int c = 0; c < pending.getFieldVectors().size(); c++) {
        FieldVector from = pending.getVector(c);
        FieldVector to = sorted.getVector(c);
        for (int i = 0; i < n; i++) {
          to.copyFromSafe(order[i], i, from);
        }
        to.setValueCount(n);
      }
      sorted.setRowCount(n);
      writeRows(sorted);
    }
    pending.clear();
    pending.allocateNew();
    pendingRows = 0;
  }

  private void releaseSortMemory() {
    if (pending != null) {
      pending.close();
      sortMemory.close();
      pending = null;
    }
  }

  private void openSegments() throws IOException {
    for (ColumnSpec c : base.schema().columns()) {
      Device device = placementOf(table, base, c.name());
      table.claimFolder(base.tableId(), device);
      segments.put(
          c.name(),
          new SegmentWriter(
              c,
              base.tableId(),
              base.rowGroups().size(),
              device,
              segmentPath(base, c.name(), lock.id(), 0),
              MosaicTable.codecOf(base, c.name(), device)));
      CrashPoints.reached("segment-created");
    }
  }

  private void endRowGroup() throws IOException {
    for (SegmentWriter w : segments.values()) {
      w.endRowGroup(rowsInGroup);
    }
    rowGroups.add(rowsInGroup);
    rowsInGroup = 0;
    lock.renew();
    CrashPoints.reached("row-group-written");
  }

  /**
   * Ends the last row group and the segment files; the result is ready to commit. The writer's lock
   * is held until {@link #close()}, so a commit made before closing cannot lose its files to gc; a
   * result committed later (by a job's driver) is kept by gc's grace period.
   */
  public WriteResult finish() throws IOException {
    if (pendingRows > 0) {
      writeSorted();
    }
    releaseSortMemory();
    if (rowsInGroup > 0) {
      endRowGroup();
    }
    List<SegmentEntry> entries = new ArrayList<>();
    for (ColumnSpec c : base.schema().columns()) {
      SegmentWriter w = segments.get(c.name());
      if (w != null) {
        entries.add(w.finish());
        CrashPoints.reached("segment-finished");
      }
    }
    finished = true;
    lock.renew();
    return new WriteResult(lock.id(), base.schema(), rowGroups, entries);
  }

  /**
   * Releases the writer's lock; a writer not finished is abandoned, its files deleted now (or by gc
   * after a crash).
   */
  @Override
  public void close() throws IOException {
    try {
      if (!finished) {
        finished = true;
        for (SegmentWriter w : segments.values()) {
          w.close();
        }
      }
    } finally {
      releaseSortMemory();
      lock.close();
    }
  }
}
