package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.ChunkForm;
import io.mosaic.segment.DecodedChunk;
import io.mosaic.segment.SegmentReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;

/**
 * The two steps of one column chunk in a {@link Scan}: its bytes read from the device (on the
 * device's reader pool) and checked, then decoded (on the decoding pool).
 */
final class ChunkReads {
  private ChunkReads() {}

  /** The chunk's raw bytes, checked against the checksum the manifest records for them. */
  static byte[] read(
      Device device,
      String file,
      SegmentEntry segment,
      ColumnChunkMetaData chunk,
      int group,
      String table,
      long version)
      throws IOException {
    byte[] bytes = new byte[Math.toIntExact(chunk.getTotalSize())];
    try (DeviceReadChannel ch = device.openForRead(segment.path(), segment.fileBytes())) {
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
   * Page pruning: the chunk's dictionary page (if any) and the data pages of {@code pages} (from
   * its offset index), adjacent pages read as one piece, each page checked against the CRC-32 its
   * header carries (the chunk checksum covers only the whole chunk). Null when a page has no CRC:
   * the caller then reads the chunk whole, as without pruning.
   *
   * @param all the chunk's whole offset index (where its first data page starts)
   * @throws CorruptTableException naming the file when a page fails its CRC or does not parse
   */
  static List<ChunkPiece> readPages(
      Device device,
      String file,
      SegmentEntry segment,
      ColumnChunkMetaData chunk,
      OffsetIndex all,
      OffsetIndex pages,
      int group,
      String table)
      throws IOException {
    List<long[]> spans = spans(chunk, all, pages);
    List<ChunkPiece> pieces = new ArrayList<>(spans.size());
    try (DeviceReadChannel ch = device.openForRead(segment.path(), segment.fileBytes())) {
      for (long[] span : spans) {
        byte[] bytes = new byte[Math.toIntExact(span[1])];
        if (ch.readFully(ByteBuffer.wrap(bytes), span[0]) != bytes.length) {
          throw new IOException("segment file is shorter than its footer says");
        }
        if (!pagesPassCrc(bytes, span[0], segment, file, group, table)) {
          return null;
        }
        pieces.add(new ChunkPiece(span[0], bytes));
      }
    }
    return pieces;
  }

  /**
   * Where the dictionary page and the pages of {@code pages} lie in the file, adjacent pages as one
   * span: {offset, length} each, in file order.
   */
  static List<long[]> spans(ColumnChunkMetaData chunk, OffsetIndex all, OffsetIndex pages) {
    List<long[]> spans = new ArrayList<>();
    long firstData = all.getOffset(0);
    if (chunk.getStartingPos() < firstData) {
      spans.add(new long[] {chunk.getStartingPos(), firstData - chunk.getStartingPos()});
    }
    for (int p = 0; p < pages.getPageCount(); p++) {
      long[] last = spans.isEmpty() ? null : spans.get(spans.size() - 1);
      if (last != null && last[0] + last[1] == pages.getOffset(p)) {
        last[1] += pages.getCompressedPageSize(p);
      } else {
        spans.add(new long[] {pages.getOffset(p), pages.getCompressedPageSize(p)});
      }
    }
    return spans;
  }

  /** The spans of a chunk read whole (and checked by its checksum), as pieces. */
  static List<ChunkPiece> cut(byte[] chunk, long start, List<long[]> spans) {
    List<ChunkPiece> pieces = new ArrayList<>(spans.size());
    for (long[] span : spans) {
      int from = Math.toIntExact(span[0] - start);
      pieces.add(
          new ChunkPiece(span[0], java.util.Arrays.copyOfRange(chunk, from, from + (int) span[1])));
    }
    return pieces;
  }

  /** Whether every page in {@code bytes} carries a CRC; throws if one does not match its page. */
  private static boolean pagesPassCrc(
      byte[] bytes, long offset, SegmentEntry segment, String file, int group, String table)
      throws IOException {
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    CRC32 crc = new CRC32();
    while (in.available() > 0) {
      int headerAt = bytes.length - in.available();
      PageHeader header;
      try {
        header = Util.readPageHeader(in);
      } catch (IOException e) {
        throw pageCorrupt(segment, file, table, group, offset + headerAt, "has no page header");
      }
      int at = bytes.length - in.available();
      int size = header.getCompressed_page_size();
      if (size < 0 || size > bytes.length - at) {
        throw pageCorrupt(
            segment, file, table, group, offset + headerAt, "has a page size past its page index");
      }
      if (!header.isSetCrc()) {
        return false;
      }
      crc.reset();
      crc.update(bytes, at, size);
      if ((int) crc.getValue() != header.getCrc()) {
        throw pageCorrupt(segment, file, table, group, offset + headerAt, "fails its page CRC");
      }
      in.skipNBytes(size);
    }
    return true;
  }

  private static CorruptTableException pageCorrupt(
      SegmentEntry segment, String file, String table, int group, long at, String what) {
    return new CorruptTableException(
        segment.describe(file, table)
            + ": the page at byte "
            + at
            + " of row group "
            + group
            + " "
            + what
            + "; the file is damaged or is not the one the manifest lists");
  }

  /**
   * Decodes row group {@code group}'s chunk of {@code segment}, held whole in {@code bytes}, in
   * {@code form}; {@code spare} is asked for a vector to decode into only once the pages are open.
   * Pages are checked against their CRCs only where no chunk checksum was ({@link #read}).
   */
  static DecodedChunk decode(
      SegmentEntry segment,
      ParquetMetadata footer,
      byte[] bytes,
      int group,
      ColumnSpec column,
      BufferAllocator allocator,
      Supplier<FieldVector> spare,
      ChunkForm form)
      throws IOException {
    return SegmentReader.decodeChunk(
        bytes,
        footer,
        group - segment.firstRowGroup(),
        segment.fileBytes(),
        column,
        allocator,
        spare,
        form,
        segment.chunkChecksum(group) == null,
        "segment "
            + segment.path()
            + " of column '"
            + segment.column()
            + "' on device '"
            + segment.device()
            + "', row group "
            + group);
  }
}
