package io.mosaic.segment;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Reads a version's columns row group by row group, in order, keeping one segment open per column:
 * a rewrite or a row match passes each segment once, and a column's earlier segment is done when
 * the next one is needed.
 */
public final class SegmentReaders implements AutoCloseable {
  private final String table;
  private final DevicePool pool;
  private final Manifest version;
  private final Map<String, SegmentEntry> segments = new HashMap<>();
  private final Map<String, SegmentReader> readers = new HashMap<>();

  public SegmentReaders(String table, DevicePool pool, Manifest version) {
    this.table = table;
    this.pool = pool;
    this.version = version;
  }

  /** Row group {@code rowGroup} of {@code column}; row groups of a column must come in order. */
  public FieldVector read(String column, int rowGroup, BufferAllocator alloc) throws IOException {
    SegmentEntry segment = version.segmentFor(column, rowGroup);
    SegmentReader reader = readers.get(column);
    if (reader == null || !segment.equals(segments.get(column))) {
      if (reader != null) {
        reader.close();
        readers.remove(column);
      }
      reader = new SegmentReader(table, pool, version, segment);
      readers.put(column, reader);
      segments.put(column, segment);
    }
    return reader.read(rowGroup, alloc);
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (SegmentReader r : readers.values()) {
      try {
        r.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    readers.clear();
    if (first != null) {
      throw first;
    }
  }
}
