package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.mosaic.format.CorruptTableException;
import io.mosaic.scan.ChunkPiece;
import io.mosaic.scan.RawChunk;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.ChunkReader;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.parquet.reader.ColumnReader;
import io.trino.parquet.reader.ColumnReaderFactory;
import io.trino.parquet.reader.FilteredRowRanges;
import io.trino.parquet.reader.PageReader;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Decodes one column chunk that core prefetched and checked ({@link RawChunk}) with trino-parquet's
 * column reader, batch by batch on the driver thread, straight into Trino blocks: dictionary
 * encoded chunks become {@code DictionaryBlock}s over one dictionary block, short decimals stay
 * longs, dates and timestamps come in Trino's representation. A batch that is never loaded is
 * skipped, not decoded (the reader skips values it was not asked for when it next reads).
 */
final class ChunkColumnReader {
  private final RawChunk chunk;
  // The row group's rows to decode (null: all): every column of a row group gets the same ranges,
  // so their batches line up.
  private final Optional<FilteredRowRanges> rows;
  private final Type type;
  private final int id;
  private final ColumnReaderFactory factory;
  private final AggregatedMemoryContext memory;
  // Made on the first read: a column no page of the row group touches is never even parsed.
  private ColumnReader reader;
  private long skipped;
  private int batch;

  ChunkColumnReader(
      RawChunk chunk,
      Optional<FilteredRowRanges> rows,
      Type type,
      int id,
      ColumnReaderFactory factory,
      AggregatedMemoryContext memory) {
    this.chunk = chunk;
    this.rows = rows;
    this.type = type;
    this.id = id;
    this.factory = factory;
    this.memory = memory;
  }

  private ColumnReader open() {
    ColumnChunkMetaData m = chunk.metadata();
    List<ChunkReader> pieces = new ArrayList<>();
    for (ChunkPiece p : chunk.pieces()) {
      pieces.add(new HeldChunk(p.offset(), p.bytes(), p.bytes().length));
    }
    int length = Math.toIntExact(chunk.bytes());
    CompressionCodecName codec = m.getCodec();
    long first = m.getFirstDataPageOffset();
    long dictionary = m.getDictionaryPageOffset();
    if (codec == CompressionCodecName.LZ4_RAW) {
      // trino-parquet 476 reads no LZ4_RAW (Mosaic's codec for fast devices): the pages are
      // decompressed here, each once, into a chunk of uncompressed pages it reads as it is. The
      // pieces of a pruned read are whole pages, so they decompress as one run of pages.
      byte[] bytes = new byte[length];
      int at = 0;
      for (ChunkPiece p : chunk.pieces()) {
        System.arraycopy(p.bytes(), 0, bytes, at, p.bytes().length);
        at += p.bytes().length;
      }
      long start = chunk.pieces().get(0).offset();
      Lz4RawPages.Uncompressed u =
          Lz4RawPages.uncompress(bytes, start, m.getTotalUncompressedSize());
      pieces = List.of(new HeldChunk(start, u.bytes(), u.length()));
      length = u.length();
      codec = CompressionCodecName.UNCOMPRESSED;
      first = u.firstDataPageOffset();
      dictionary = u.dictionaryPageOffset() < 0 ? dictionary : u.dictionaryPageOffset();
    }
    ColumnChunkMetadata metadata =
        ColumnChunkMetadata.get(
            m.getPath(),
            m.getPrimitiveType(),
            codec,
            m.getEncodingStats(),
            m.getEncodings(),
            m.getStatistics(),
            first,
            dictionary,
            m.getValueCount(),
            length,
            codec == m.getCodec() ? m.getTotalUncompressedSize() : length);
    // Under page pruning the pieces are the dictionary page and the pages overlapping the row
    // ranges, and the offset index lists exactly those pages: trino-parquet's ParquetReader hands
    // its column readers the same (a filtered offset index and the row ranges).
    ChunkedInputStream in = new ChunkedInputStream(pieces);
    PageReader pages =
        PageReader.createPageReader(
            new ParquetDataSourceId(chunk.source()),
            in,
            metadata,
            chunk.descriptor(),
            chunk.offsetIndex(),
            Optional.empty());
    ColumnReader r =
        factory.create(
            new PrimitiveField(
                type, chunk.descriptor().getMaxDefinitionLevel() == 0, chunk.descriptor(), id),
            memory);
    r.setPageReader(pages, rows);
    return r;
  }

  /** The next {@code rows} rows are the next batch (decoded only by {@link #read()}). */
  void next(int rows) {
    if (reader != null) {
      reader.prepareNextRead(rows);
    } else {
      skipped += batch;
      batch = rows;
    }
  }

  /** Decodes the batch last announced by {@link #next}, skipping batches never read. */
  Block read() {
    try {
      if (reader == null) {
        reader = open();
        // The reader skips the rows of the batches before this one when it reads (no decoding
        // of values; whole pages before them are only decompressed to be skipped).
        if (skipped > 0) {
          reader.prepareNextRead(Math.toIntExact(skipped));
        }
        reader.prepareNextRead(batch);
      }
      return reader.readPrimitive().getBlock();
    } catch (RuntimeException e) {
      throw corrupt(e);
    }
  }

  // The chunk passed its checksum, so a chunk that does not decode was written wrong (or by a
  // writer this reader does not understand): the error names the file, as every CORRUPT does.
  private CorruptTableException corrupt(RuntimeException e) {
    return new CorruptTableException(
        chunk.source() + " does not decode as Parquet: " + e.getMessage(), e);
  }

  /** The prefetched chunk as trino-parquet's input: already in memory, nothing to free. */
  private record HeldChunk(long offset, byte[] bytes, int length) implements ChunkReader {
    @Override
    public long getDiskOffset() {
      return offset;
    }

    @Override
    public Slice read() {
      return Slices.wrappedBuffer(bytes, 0, length);
    }

    @Override
    public void free() {}
  }
}
