package io.mosaic.scan;

import io.mosaic.format.ColumnSpec;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;

/**
 * One column chunk of one row group as a {@link Scan} in chunk mode ({@link Retriever#chunks})
 * hands it out: its bytes as read from its device, already checked (the whole chunk against the
 * chunk checksum the manifest records, pages read alone against their page CRCs), not decoded; with
 * what an engine's own Parquet reader needs to decode them.
 *
 * @param column the table column
 * @param descriptor the Parquet column of the segment (types, levels)
 * @param metadata the chunk's entry in the segment footer (codec, offsets, value count, sizes)
 * @param pieces the bytes read, in file order: the whole chunk (dictionary page and data pages with
 *     their headers) as one piece starting at the footer's {@code getStartingPos()}, or under page
 *     pruning ({@link RowGroupChunks#rowRanges}) the dictionary page and the runs of data pages
 *     that overlap the row ranges
 * @param offsetIndex null when the row group is read whole; else the offset index of exactly the
 *     data pages in {@code pieces} (their first row indexes tell the engine where each page's rows
 *     lie in the row group)
 * @param source how errors name the chunk: the segment file, column, table, device and row group
 */
public record RawChunk(
    ColumnSpec column,
    ColumnDescriptor descriptor,
    ColumnChunkMetaData metadata,
    List<ChunkPiece> pieces,
    OffsetIndex offsetIndex,
    String source) {
  public RawChunk {
    pieces = List.copyOf(pieces);
  }

  /** Bytes read for this chunk (all pieces). */
  public long bytes() {
    long n = 0;
    for (ChunkPiece p : pieces) {
      n += p.bytes().length;
    }
    return n;
  }
}
