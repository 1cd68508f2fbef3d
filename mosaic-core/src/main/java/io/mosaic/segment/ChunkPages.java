package io.mosaic.segment;

import com.github.luben.zstd.Zstd;
import io.mosaic.format.CorruptTableException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The pages of a column chunk held whole in memory (a scan read it and checked its checksum), cut
 * out of its bytes where they are: parquet-java's file reader would copy the chunk once more into
 * buffers of its own and decompress each page into a new array (docs/benchmarks.md, "Decoding
 * scratch"). Uncompressed pages are views of the chunk; compressed ones are decompressed by
 * zstd-jni or lz4-java, one after another, into one array of the thread's {@link Scratch} sized by
 * the chunk's uncompressed size, which the pages are decoded from before the thread decodes another
 * chunk. Codecs other than those Mosaic writes (none, zstd, lz4) are left to parquet-java: {@link
 * #of} returns null.
 */
final class ChunkPages {
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  final DictionaryPage dictionary;
  final List<DataPage> data;

  private ChunkPages(DictionaryPage dictionary, List<DataPage> data) {
    this.dictionary = dictionary;
    this.data = data;
  }

  /**
   * The pages of the chunk {@code meta} describes, whose bytes are {@code chunk} (from the chunk's
   * start), or null for a codec this class does not decompress. With {@code checkCrcs} each page
   * that carries a CRC-32 is checked against it (a chunk without a recorded checksum).
   *
   * @param source how errors name the chunk
   * @throws CorruptTableException if the bytes do not parse as the footer says, or a CRC fails
   */
  static ChunkPages of(byte[] chunk, ColumnChunkMetaData meta, boolean checkCrcs, String source)
      throws IOException {
    CompressionCodecName codec = meta.getCodec();
    if (codec != CompressionCodecName.UNCOMPRESSED
        && codec != CompressionCodecName.ZSTD
        && codec != CompressionCodecName.LZ4_RAW) {
      return null;
    }
    // Every page's uncompressed bytes fit in the chunk's uncompressed size (headers included).
    byte[] out =
        codec == CompressionCodecName.UNCOMPRESSED
            ? null
            : Scratch.ofThread().bytes(Math.toIntExact(meta.getTotalUncompressedSize()));
    int outAt = 0;
    DictionaryPage dictionary = null;
    List<DataPage> data = new ArrayList<>();
    long values = 0;
    int at = 0;
    CRC32 crc = checkCrcs ? new CRC32() : null;
    while (values < meta.getValueCount()) {
      ByteArrayInputStream in = new ByteArrayInputStream(chunk, at, chunk.length - at);
      PageHeader header;
      try {
        header = Util.readPageHeader(in);
      } catch (IOException e) {
        throw corrupt(source, at, "has no readable page header (" + e.getMessage() + ")");
      }
      int body = chunk.length - in.available();
      int size = header.getCompressed_page_size();
      int rawSize = header.getUncompressed_page_size();
      if (size < 0 || size > chunk.length - body || rawSize < 0) {
        throw corrupt(source, at, "has a page of " + size + " bytes past the chunk's end");
      }
      if (crc != null && header.isSetCrc()) {
        crc.reset();
        crc.update(chunk, body, size);
        if ((int) crc.getValue() != header.getCrc()) {
          throw corrupt(source, at, "fails its page CRC");
        }
      }
      switch (header.getType()) {
        case DICTIONARY_PAGE -> {
          BytesInput bytes = page(codec, chunk, body, size, out, outAt, rawSize, source, at);
          outAt += out == null ? 0 : rawSize;
          dictionary =
              new DictionaryPage(
                  bytes,
                  header.getDictionary_page_header().getNum_values(),
                  encoding(header.getDictionary_page_header().getEncoding()));
        }
        case DATA_PAGE -> {
          DataPageHeader h = header.getData_page_header();
          BytesInput bytes = page(codec, chunk, body, size, out, outAt, rawSize, source, at);
          outAt += out == null ? 0 : rawSize;
          data.add(
              new DataPageV1(
                  bytes,
                  h.getNum_values(),
                  rawSize,
                  null,
                  encoding(h.getRepetition_level_encoding()),
                  encoding(h.getDefinition_level_encoding()),
                  encoding(h.getEncoding())));
          values += h.getNum_values();
        }
        case DATA_PAGE_V2 -> {
          DataPageHeaderV2 h = header.getData_page_header_v2();
          int levels = h.getRepetition_levels_byte_length() + h.getDefinition_levels_byte_length();
          if (levels > size || levels > rawSize) {
            throw corrupt(source, at, "has levels longer than its page");
          }
          BytesInput repetition =
              BytesInput.from(chunk, body, h.getRepetition_levels_byte_length());
          BytesInput definition =
              BytesInput.from(
                  chunk,
                  body + h.getRepetition_levels_byte_length(),
                  h.getDefinition_levels_byte_length());
          boolean compressed = !h.isSetIs_compressed() || h.isIs_compressed();
          BytesInput bytes =
              page(
                  compressed ? codec : CompressionCodecName.UNCOMPRESSED,
                  chunk,
                  body + levels,
                  size - levels,
                  out,
                  outAt,
                  rawSize - levels,
                  source,
                  at);
          outAt += out == null || !compressed ? 0 : rawSize - levels;
          data.add(
              DataPageV2.uncompressed(
                  h.getNum_rows(),
                  h.getNum_nulls(),
                  h.getNum_values(),
                  repetition,
                  definition,
                  encoding(h.getEncoding()),
                  bytes,
                  null));
          values += h.getNum_values();
        }
        default -> {} // an index page: nothing to decode
      }
      at = body + size;
      if (at >= chunk.length && values < meta.getValueCount()) {
        throw corrupt(
            source, at, "ends after " + values + " of " + meta.getValueCount() + " values");
      }
    }
    return new ChunkPages(dictionary, data);
  }

  /** A page's uncompressed bytes: a view of the chunk, or decompressed into {@code out}. */
  private static BytesInput page(
      CompressionCodecName codec,
      byte[] chunk,
      int from,
      int size,
      byte[] out,
      int outAt,
      int rawSize,
      String source,
      int at)
      throws IOException {
    if (codec == CompressionCodecName.UNCOMPRESSED) {
      if (size != rawSize) {
        throw corrupt(
            source, at, "is stored uncompressed in " + size + " of " + rawSize + " bytes");
      }
      return BytesInput.from(chunk, from, size);
    }
    if (outAt + rawSize > out.length) {
      throw corrupt(source, at, "holds more bytes than the chunk's uncompressed size");
    }
    int n;
    if (codec == CompressionCodecName.ZSTD) {
      long r = Zstd.decompressByteArray(out, outAt, rawSize, chunk, from, size);
      if (Zstd.isError(r)) {
        throw corrupt(source, at, "does not decompress with zstd: " + Zstd.getErrorName(r));
      }
      n = (int) r;
    } else {
      try {
        n = LZ4.decompress(chunk, from, size, out, outAt, rawSize);
      } catch (LZ4Exception e) {
        throw corrupt(source, at, "does not decompress with lz4: " + e.getMessage());
      }
    }
    if (n != rawSize) {
      throw corrupt(source, at, "decompresses to " + n + " bytes, its header says " + rawSize);
    }
    return BytesInput.from(out, outAt, rawSize);
  }

  private static Encoding encoding(org.apache.parquet.format.Encoding e) {
    return Encoding.valueOf(e.name());
  }

  private static CorruptTableException corrupt(String source, int at, String what) {
    return new CorruptTableException(
        source
            + ": the page at byte "
            + at
            + " of the column chunk "
            + what
            + "; the file is damaged or is not the one the manifest lists");
  }
}
