package io.mosaic.scan;

import java.util.List;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

/**
 * One row group of a {@link Scan} in chunk mode: its table row group index, its row count, and one
 * {@link RawChunk} per requested column, in the request's column order (none for a scan of no
 * columns, which still delivers the row count).
 *
 * @param rowRanges null when every row is to be read; else the rows (indexes within the row group)
 *     that the page indexes cannot rule out, the same for every column, whose chunks then hold only
 *     the pages overlapping them: the engine decodes only these rows ({@link #selectedRows()})
 */
public record RowGroupChunks(int rowGroup, long rows, List<RawChunk> chunks, RowRanges rowRanges) {
  public RowGroupChunks {
    chunks = List.copyOf(chunks);
  }

  /** Rows the engine gets: all of the row group's, or those of the row ranges. */
  public long selectedRows() {
    return rowRanges == null ? rows : rowRanges.rowCount();
  }

  /** Bytes of the raw chunks. */
  public long bytes() {
    long n = 0;
    for (RawChunk c : chunks) {
      n += c.bytes();
    }
    return n;
  }
}
