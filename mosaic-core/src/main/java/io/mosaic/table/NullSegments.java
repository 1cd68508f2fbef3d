package io.mosaic.table;

import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentWriter;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Writes the segment of NULLs that ADD COLUMN gives a new column over the row groups a table
 * already has (docs/format.md, "Column ids"), under a writer lock so gc leaves it alone until the
 * commit. All-NULL chunks are a run of definition levels: a few bytes per row group, whatever its
 * rows.
 */
final class NullSegments implements AutoCloseable {
  /** Rows per written batch: one small vector of NULLs serves row groups of any size. */
  private static final int BATCH = 1 << 14;

  private final MosaicTable table;
  private final WriterLock lock;
  private final Map<List<Object>, SegmentEntry> written = new HashMap<>();
  private int n;

  NullSegments(MosaicTable table) {
    this.table = table;
    this.lock = new WriterLock(table, "a");
  }

  /**
   * A segment of NULLs of {@code column} over all row groups of {@code m} (whose schema has the
   * column), written once per set of row groups: a commit attempt after a lost race reuses it.
   */
  SegmentEntry write(Manifest m, ColumnSpec column) {
    List<Object> key = List.of(column, m.schema().idOf(column.name()), m.rowGroups());
    SegmentEntry done = written.get(key);
    if (done != null) {
      return done;
    }
    lock.renew();
    Device device = table.initialDevice(m, column.name());
    table.claimFolder(m.tableId(), device);
    String path = TableWriter.segmentPath(m, column.name(), lock.id(), n++);
    try (BufferAllocator alloc = new RootAllocator();
        FieldVector nulls = column.arrowField().createVector(alloc);
        SegmentWriter writer =
            new SegmentWriter(
                column,
                m.tableId(),
                0,
                device,
                path,
                MosaicTable.codecOf(m, column.name(), device))) {
      nulls.setInitialCapacity(BATCH);
      nulls.allocateNew();
      nulls.setValueCount(BATCH);
      for (long rows : m.rowGroups()) {
        for (long at = 0; at < rows; ) {
          int k = (int) Math.min(BATCH, rows - at);
          writer.write(nulls, 0, k);
          at += k;
        }
        writer.endRowGroup(rows);
      }
      SegmentEntry entry = writer.finish();
      written.put(key, entry);
      return entry;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(
          "cannot write the NULLs of new column '"
              + column.name()
              + "' of table "
              + table.name()
              + " to "
              + device.where(path)
              + " on device '"
              + device.id()
              + "': "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() throws IOException {
    lock.close();
  }
}
