package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.mosaic.scan.RawChunk;
import io.mosaic.table.CorruptTableException;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.ChunkReader;
import io.trino.parquet.ParquetDataSourceId;
import io.trino.parquet.PrimitiveField;
import io.trino.parquet.metadata.ColumnChunkMetadata;
import io.trino.parquet.reader.ChunkedInputStream;
import io.trino.parquet.reader.ColumnReader;
import io.trino.parquet.reader.ColumnReaderFactory;
import io.trino.parquet.reader.PageReader;
import io.trino.spi.block.Block;
import io.trino.spi.type.Type;
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
      Type type,
      int id,
      ColumnReaderFactory factory,
      AggregatedMemoryContext memory) {
    this.chunk = chunk;
    this.type = type;
    this.id = id;
    this.factory = factory;
    this.memory = memory;
  }

  private ColumnReader open() {
    ColumnChunkMetaData m = chunk.metadata();
    byte[] bytes = chunk.bytes();
    int length = bytes.length;
    CompressionCodecName codec = m.getCodec();
    long first = m.getFirstDataPageOffset();
    long dictionary = m.getDictionaryPageOffset();
    if (codec == CompressionCodecName.LZ4_RAW) {
      // trino-parquet 476 reads no LZ4_RAW (Mosaic's codec for fast devices): the pages are
      // decompressed here, each once, into a chunk of uncompressed pages it reads as it is.
      Lz4RawPages.Uncompressed u =
          Lz4RawPages.uncompress(bytes, m.getStartingPos(), m.getTotalUncompressedSize());
      bytes = u.bytes();
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
    ChunkedInputStream in =
        new ChunkedInputStream(List.of(new HeldChunk(m.getStartingPos(), bytes, length)));
    PageReader pages =
        PageReader.createPageReader(
            new ParquetDataSourceId(chunk.source()),
            in,
            metadata,
            chunk.descriptor(),
            null,
            Optional.empty());
    ColumnReader r =
        factory.create(
            new PrimitiveField(
                type, chunk.descriptor().getMaxDefinitionLevel() == 0, chunk.descriptor(), id),
            memory);
    r.setPageReader(pages, Optional.empty());
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
