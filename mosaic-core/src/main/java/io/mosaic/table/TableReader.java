package io.mosaic.table;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Reads a pinned version row group by row group, one column after another: the plain read path for
 * checks, import tests and tools. Scans in engines go through the parallel retriever.
 */
public final class TableReader implements AutoCloseable {
  private final MosaicTable table;
  private final Manifest manifest;
  private final List<ColumnSpec> columns;
  private final Map<SegmentEntry, SegmentReader> open = new HashMap<>();

  public TableReader(MosaicTable table, Manifest manifest, List<String> columns) {
    this.table = table;
    this.manifest = manifest;
    this.columns = columns.stream().map(c -> manifest.schema().column(c)).toList();
  }

  public int rowGroupCount() {
    return manifest.rowGroups().size();
  }

  /**
   * Row group {@code rowGroup} of the chosen columns, without its deleted rows (docs/format.md,
   * "Deletion vectors"); the caller closes the root.
   */
  public VectorSchemaRoot read(int rowGroup, BufferAllocator allocator) throws IOException {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (ColumnSpec c : columns) {
        SegmentEntry segment = manifest.segmentFor(c.name(), rowGroup);
        SegmentReader reader = open.get(segment);
        if (reader == null) {
          reader = new SegmentReader(table.name(), table.pool(), manifest, segment);
          open.put(segment, reader);
        }
        vectors.add(reader.read(rowGroup, allocator));
      }
    } catch (IOException | RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    VectorSchemaRoot stored = new VectorSchemaRoot(vectors);
    stored.setRowCount((int) (long) manifest.rowGroups().get(rowGroup));
    DeletedRows deleted = manifest.deletedRows(rowGroup);
    if (deleted == null) {
      return stored;
    }
    try (stored) {
      return liveRows(stored, deleted, allocator);
    }
  }

  /** The rows of {@code batch} that {@code deleted} does not name, copied. */
  public static VectorSchemaRoot liveRows(
      VectorSchemaRoot batch, DeletedRows deleted, BufferAllocator alloc) {
    VectorSchemaRoot live = VectorSchemaRoot.create(batch.getSchema(), alloc);
    live.allocateNew();
    int[] rows = deleted.livePositions(batch.getRowCount());
    int n = rows.length;
    for (int c = 0; c < batch.getFieldVectors().size(); c++) {
      FieldVector from = batch.getVector(c);
      FieldVector to = live.getVector(c);
      for (int i = 0; i < n; i++) {
        to.copyFromSafe(rows[i], i, from);
      }
    }
    for (FieldVector v : live.getFieldVectors()) {
      v.setValueCount(n);
    }
    live.setRowCount(n);
    return live;
  }

  @Override
  public void close() throws IOException {
    for (SegmentReader r : open.values()) {
      r.close();
    }
    open.clear();
  }
}
