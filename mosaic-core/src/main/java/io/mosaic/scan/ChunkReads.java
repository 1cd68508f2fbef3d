package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.ChunkForm;
import io.mosaic.segment.DecodedChunk;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.CorruptTableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * The two steps of one column chunk in a {@link Scan}: its bytes read from the device (on the
 * device's reader pool) and checked, then decoded (on the decoding pool).
 */
final class ChunkReads {
  private ChunkReads() {}

  /** The chunk's raw bytes, checked against the checksum the manifest records for them. */
  static byte[] read(
      Device device,
      Path file,
      SegmentEntry segment,
      ColumnChunkMetaData chunk,
      int group,
      String table,
      long version)
      throws IOException {
    byte[] bytes = new byte[Math.toIntExact(chunk.getTotalSize())];
    try (DeviceReadChannel ch = device.openForRead(file)) {
      int n = ch.readFully(ByteBuffer.wrap(bytes), chunk.getStartingPos());
      if (n != bytes.length) {
        throw new IOException("segment file is shorter than its footer says");
      }
    }
    // The chunk's recorded checksum covers its page headers too, which Parquet's page checksums
    // leave out; it costs one CRC-32C pass over bytes already in memory.
    String expected = segment.chunkChecksum(group);
    if (expected != null) {
      String actual = Checksums.of(bytes, 0, bytes.length);
      if (!actual.equals(expected)) {
        throw new CorruptTableException(
            segment.describe(file, table)
                + ": the chunk of row group "
                + group
                + " fails its checksum ("
                + actual
                + ", manifest v"
                + version
                + " records "
                + expected
                + "); the file is damaged or is not the one the manifest lists");
      }
    }
    return bytes;
  }

  /**
   * Decodes the chunk's pages (their checksums verified) in {@code form}; {@code spare} is asked
   * for a vector to decode into only once the pages are open.
   */
  static DecodedChunk decode(
      SegmentEntry segment,
      ParquetMetadata footer,
      ColumnChunkMetaData chunk,
      byte[] bytes,
      int group,
      ColumnSpec column,
      BufferAllocator allocator,
      Supplier<FieldVector> spare,
      ChunkForm form)
      throws IOException {
    ChunkInputFile in = new ChunkInputFile(segment.fileBytes(), chunk.getStartingPos(), bytes);
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            in,
            footer,
            SegmentReader.readOptions().usePageChecksumVerification(true).build(),
            in.newStream())) {
      PageReadStore pages = reader.readRowGroup(group - segment.firstRowGroup());
      return SegmentReader.decode(
          pages,
          footer.getFileMetaData().getSchema().getColumns().get(0),
          column,
          allocator,
          spare.get(),
          form);
    }
  }
}
