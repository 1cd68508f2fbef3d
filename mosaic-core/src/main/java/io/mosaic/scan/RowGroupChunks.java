package io.mosaic.scan;

import java.util.List;

/**
 * One row group of a {@link Scan} in chunk mode: its table row group index, its row count, and one
 * {@link RawChunk} per requested column, in the request's column order (none for a scan of no
 * columns, which still delivers the row count).
 */
public record RowGroupChunks(int rowGroup, long rows, List<RawChunk> chunks) {
  public RowGroupChunks {
    chunks = List.copyOf(chunks);
  }

  /** Bytes of the raw chunks. */
  public long bytes() {
    long n = 0;
    for (RawChunk c : chunks) {
      n += c.bytes().length;
    }
    return n;
  }
}
