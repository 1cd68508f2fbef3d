package io.mosaic.segment;

import io.mosaic.format.ColumnSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/** A dictionary page decoded once into primitive arrays (or offsets into its bytes). */
final class PageDictionary {
  /**
   * Maps each id to itself: ids decode as an int32 column's values, copied straight from the
   * unpacked ids.
   */
  static final PageDictionary IDS = new PageDictionary();

  final long[] longs;
  final double[] doubles;
  final byte[] bytes;
  final int[] offsets;
  final int[] lengths;

  private PageDictionary() {
    this.longs = null;
    this.doubles = null;
    this.bytes = null;
    this.offsets = null;
    this.lengths = null;
  }

  int size() {
    return lengths != null ? lengths.length : longs != null ? longs.length : doubles.length;
  }

  /** The dictionary's entries as a vector of {@code column}'s type. */
  FieldVector values(ColumnSpec column, BufferAllocator allocator) {
    if (lengths != null) {
      BaseVariableWidthVector v =
          (BaseVariableWidthVector) ArrowBuffers.newVector(column, lengths.length, allocator);
      for (int i = 0; i < lengths.length; i++) {
        v.setSafe(i, bytes, offsets[i], lengths[i]);
      }
      v.setValueCount(lengths.length);
      return v;
    }
    int size = size();
    FieldVector v = ArrowBuffers.newVector(column, size, allocator);
    ArrowBuf data = v.getDataBuffer();
    switch (column.type().kind()) {
      case INT32, DATE -> {
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
          out[i] = (int) longs[i];
        }
        ArrowBuffers.littleEndian(data, 0, 4 * size).asIntBuffer().put(out);
      }
      case INT64, TIMESTAMP, TIMESTAMP_TZ, TIME ->
          ArrowBuffers.littleEndian(data, 0, 8 * size).asLongBuffer().put(longs);
      case FLOAT -> {
        float[] out = new float[size];
        for (int i = 0; i < size; i++) {
          out[i] = (float) doubles[i];
        }
        ArrowBuffers.littleEndian(data, 0, 4 * size).asFloatBuffer().put(out);
      }
      case DOUBLE -> ArrowBuffers.littleEndian(data, 0, 8 * size).asDoubleBuffer().put(doubles);
      case DECIMAL -> {
        long[] out = new long[2 * size];
        for (int i = 0; i < size; i++) {
          out[2 * i] = longs[i];
          out[2 * i + 1] = longs[i] >> 63;
        }
        ArrowBuffers.littleEndian(data, 0, 16 * size).asLongBuffer().put(out);
      }
      default -> throw new IllegalStateException("no dictionary ids for " + column);
    }
    ArrowBuffers.setValid(v.getValidityBuffer(), 0, size);
    v.setValueCount(size);
    return v;
  }

  /**
   * Reads the page's PLAIN-encoded entries ({@link ChunkDecoder#supports} checked the encoding) in
   * bulk: parquet-java's own dictionaries read them one stream call at a time and were then copied
   * again, which cost a scan of key columns (200 K distinct part keys per row group at SF 1) more
   * than decoding their ids.
   */
  PageDictionary(ColumnDescriptor d, DictionaryPage page) throws IOException {
    int size = page.getDictionarySize();
    ByteBuffer in = page.getBytes().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
    PrimitiveTypeName physical = d.getPrimitiveType().getPrimitiveTypeName();
    int width =
        switch (physical) {
          case INT32, FLOAT -> 4;
          case INT64, DOUBLE -> 8;
          default -> 0;
        };
    if (width > 0 && in.remaining() < (long) width * size) {
      throw new IOException(
          "dictionary page of "
              + size
              + " "
              + physical
              + " entries has only "
              + in.remaining()
              + " bytes");
    }
    long[] l = null;
    double[] f = null;
    byte[] b = null;
    int[] off = null;
    int[] len = null;
    switch (physical) {
      case INT32 -> {
        l = new long[size];
        for (int i = 0; i < size; i++) {
          l[i] = in.getInt(4 * i);
        }
      }
      case INT64 -> {
        l = new long[size];
        in.asLongBuffer().get(l);
      }
      case FLOAT -> {
        f = new double[size];
        for (int i = 0; i < size; i++) {
          f[i] = in.getFloat(4 * i);
        }
      }
      case DOUBLE -> {
        f = new double[size];
        in.asDoubleBuffer().get(f);
      }
      case BINARY -> {
        // PLAIN: a 4-byte little-endian length before each entry; entries point into the bytes.
        b = new byte[in.remaining()];
        in.get(0, b);
        off = new int[size];
        len = new int[size];
        int at = 0;
        for (int i = 0; i < size; i++) {
          int length = at <= b.length - 4 ? in.getInt(at) : -1;
          if (length < 0 || length > b.length - at - 4) {
            throw new IOException(
                "dictionary page ends inside entry " + i + " of " + size + " at byte " + at);
          }
          len[i] = length;
          off[i] = at + 4;
          at += 4 + length;
        }
      }
      default -> throw new IllegalStateException("no dictionary for " + physical);
    }
    this.longs = l;
    this.doubles = f;
    this.bytes = b;
    this.offsets = off;
    this.lengths = len;
  }
}
