package io.mosaic.trino;

import io.airlift.compress.v3.lz4.Lz4Decompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/**
 * An LZ4_RAW column chunk rewritten as the same pages uncompressed, for trino-parquet 476, which
 * has no LZ4_RAW decompressor. Each page is decompressed once, straight into the new chunk, by
 * aircompressor (the library trino-parquet decompresses its other codecs with); page headers are
 * rewritten with their new sizes and without their CRC (the chunk's checksum was checked when it
 * was read).
 */
final class Lz4RawPages {
  private Lz4RawPages() {}

  /** The new chunk and where its pages start (offsets in the segment file, as in the footer). */
  record Uncompressed(
      byte[] bytes, int length, long dictionaryPageOffset, long firstDataPageOffset) {}

  /** Its array is the result: no copy of the uncompressed chunk at the end. */
  private static final class Buffer extends ByteArrayOutputStream {
    Buffer(int size) {
      super(size);
    }

    byte[] array() {
      return buf;
    }
  }

  /**
   * @param start the chunk's offset in its segment file
   * @param uncompressedSize the footer's uncompressed size of the chunk, headers included
   */
  static Uncompressed uncompress(byte[] chunk, long start, long uncompressedSize) {
    Lz4Decompressor lz4 = Lz4Decompressor.create();
    ByteArrayInputStream in = new ByteArrayInputStream(chunk);
    // Rewritten headers drop their CRC and may grow a byte or two per size field.
    Buffer out =
        new Buffer(Math.toIntExact(Math.min(Integer.MAX_VALUE - 16, uncompressedSize + 64)));
    long dictionary = -1;
    long firstData = -1;
    try {
      while (in.available() > 0) {
        int headerStart = out.size();
        PageHeader header = Util.readPageHeader(in);
        int at = chunk.length - in.available();
        int compressed = header.getCompressed_page_size();
        int size = header.getUncompressed_page_size();
        byte[] page = new byte[size];
        int plain = 0; // leading bytes stored uncompressed (a v2 page's levels)
        DataPageHeaderV2 v2 = header.getData_page_header_v2();
        if (v2 != null) {
          plain = v2.getRepetition_levels_byte_length() + v2.getDefinition_levels_byte_length();
          System.arraycopy(chunk, at, page, 0, plain);
        }
        if (v2 != null && !v2.isIs_compressed()) {
          System.arraycopy(chunk, at + plain, page, plain, compressed - plain);
        } else if (size > plain) {
          int n = lz4.decompress(chunk, at + plain, compressed - plain, page, plain, size - plain);
          if (n != size - plain) {
            throw new IOException(
                "LZ4_RAW page decompressed to " + (n + plain) + " bytes, its header says " + size);
          }
        }
        in.skipNBytes(compressed);
        header.setCompressed_page_size(size);
        header.unsetCrc();
        if (v2 != null) {
          v2.setIs_compressed(false);
        }
        if (header.isSetDictionary_page_header()) {
          dictionary = start + headerStart;
        } else if (firstData < 0) {
          firstData = start + headerStart;
        }
        Util.writePageHeader(header, out);
        out.write(page);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("its LZ4_RAW pages do not decompress: " + e.getMessage(), e);
    }
    return new Uncompressed(out.array(), out.size(), dictionary, firstData < 0 ? start : firstData);
  }
}
