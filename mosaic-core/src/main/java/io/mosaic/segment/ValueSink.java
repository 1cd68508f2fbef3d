package io.mosaic.segment;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/** Writes the k-th present value of a page to a vector index, by column kind. */
final class ValueSink {
  private final ColumnType.Kind kind;
  private final FieldVector vector;
  private final ArrowBuf data;
  private final ArrowBuf validity;
  private final ByteBuffer values;
  private final int[] ids;
  private final PageDictionary dict;
  private final int width;
  private final boolean int32;
  private final Scratch scratch;
  private int binaryPosition;

  ValueSink(
      ColumnSpec column,
      FieldVector vector,
      ByteBuffer values,
      int[] ids,
      PageDictionary dict,
      boolean int32,
      Scratch scratch) {
    this.kind = column.type().kind();
    this.vector = vector;
    this.values = values;
    this.ids = ids;
    this.dict = dict;
    this.int32 = int32;
    this.scratch = scratch;
    this.data = vector.getDataBuffer();
    this.validity = vector.getValidityBuffer();
    this.width =
        switch (kind) {
          case INT32, DATE, FLOAT -> 4;
          case INT64, TIMESTAMP, TIMESTAMP_TZ, TIME, DOUBLE -> 8;
          default -> 0;
        };
  }

  /** {@code n} present values into indexes {@code [row, row + n)}. */
  void bulk(int row, int n) {
    if (ids == null && width > 0) {
      // Plain fixed-width values are laid out as Arrow lays them out: one copy.
      data.setBytes(
          (long) row * width,
          values.array(),
          values.arrayOffset() + values.position(),
          (long) n * width);
    } else if (!gather(row, n)) {
      for (int k = 0; k < n; k++) {
        put(row + k, k);
      }
      return; // put() marked each value valid
    }
    ArrowBuffers.setValid(vector.getValidityBuffer(), row, n);
  }

  /**
   * Dictionary ids (and plain decimals) resolved in a tight loop per type into a heap array, then
   * copied into the Arrow buffer at once: the per-value path pays a type switch and a bounds check
   * per value, which made decoding the largest part of a Spark scan's cost.
   */
  private boolean gather(int row, int n) {
    int[] id = ids;
    switch (kind) {
      case INT32, DATE -> {
        if (id == null) {
          return false;
        }
        if (dict == PageDictionary.IDS) {
          target(row, 4, n).asIntBuffer().put(id, 0, n);
          return true;
        }
        int[] out = scratch.ints(n);
        long[] l = dict.longs;
        for (int k = 0; k < n; k++) {
          out[k] = (int) l[id[k]];
        }
        target(row, 4, n).asIntBuffer().put(out, 0, n);
      }
      case INT64, TIMESTAMP, TIMESTAMP_TZ, TIME -> {
        if (id == null) {
          return false;
        }
        long[] out = scratch.longs(n);
        long[] l = dict.longs;
        for (int k = 0; k < n; k++) {
          out[k] = l[id[k]];
        }
        target(row, 8, n).asLongBuffer().put(out, 0, n);
      }
      case DOUBLE -> {
        if (id == null) {
          return false;
        }
        double[] out = scratch.doubles(n);
        double[] f = dict.doubles;
        for (int k = 0; k < n; k++) {
          out[k] = f[id[k]];
        }
        target(row, 8, n).asDoubleBuffer().put(out, 0, n);
      }
      case FLOAT -> {
        if (id == null) {
          return false;
        }
        float[] out = scratch.floats(n);
        double[] f = dict.doubles;
        for (int k = 0; k < n; k++) {
          out[k] = (float) f[id[k]];
        }
        target(row, 4, n).asFloatBuffer().put(out, 0, n);
      }
      case DECIMAL -> {
        // 16-byte little-endian two's complement: the unscaled long, then its sign extension.
        long[] out = scratch.longs(2 * n);
        if (id != null) {
          long[] l = dict.longs;
          for (int k = 0; k < n; k++) {
            long v = l[id[k]];
            out[2 * k] = v;
            out[2 * k + 1] = v >> 63;
          }
        } else {
          for (int k = 0; k < n; k++) {
            long v = int32 ? intValue(k) : longValue(k);
            out[2 * k] = v;
            out[2 * k + 1] = v >> 63;
          }
        }
        target(row, 16, n).asLongBuffer().put(out, 0, 2 * n);
      }
      case STRING, CHAR, BINARY -> gatherBinary(row, n);
      default -> {
        return false;
      }
    }
    return true;
  }

  /**
   * Variable-width values: the page's offsets first (so the data buffer grows once), then each
   * value's bytes straight into it.
   */
  private void gatherBinary(int row, int n) {
    BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
    v.fillEmpties(row); // offsets of the nulls before this page
    int start = v.getStartOffset(row);
    int[] ends = scratch.ints(n);
    long end = start;
    if (ids != null) {
      int[] length = dict.lengths;
      for (int k = 0; k < n; k++) {
        end += length[ids[k]];
        ends[k] = Math.toIntExact(end);
      }
    } else {
      // PLAIN: a 4-byte little-endian length before each value.
      int at = values.position();
      for (int k = 0; k < n; k++) {
        int len = values.getInt(at);
        end += len;
        ends[k] = Math.toIntExact(end);
        at += 4 + len;
      }
    }
    while (v.getDataBuffer().capacity() < end) {
      v.reallocDataBuffer();
    }
    ArrowBuf out = v.getDataBuffer();
    int p = start;
    if (ids != null) {
      int[] offset = dict.offsets;
      byte[] bytes = dict.bytes;
      for (int k = 0; k < n; k++) {
        int id = ids[k];
        out.setBytes(p, bytes, offset[id], ends[k] - p);
        p = ends[k];
      }
    } else {
      byte[] src = values.array();
      int at = values.arrayOffset() + values.position();
      for (int k = 0; k < n; k++) {
        int len = ends[k] - p;
        out.setBytes(p, src, at + 4, len);
        at += 4 + len;
        p = ends[k];
      }
    }
    ArrowBuffers.littleEndian(v.getOffsetBuffer(), (long) (row + 1) * 4, n * 4)
        .asIntBuffer()
        .put(ends, 0, n);
    v.setLastSet(row + n - 1);
  }

  /** The data buffer's bytes for values {@code [row, row + n)}, little-endian as Arrow's. */
  private ByteBuffer target(int row, int width, int n) {
    return ArrowBuffers.littleEndian(data, (long) row * width, n * width);
  }

  void put(int index, int k) {
    switch (kind) {
      case BOOLEAN -> {
        int bit = (values.get(values.position() + (k >>> 3)) >>> (k & 7)) & 1;
        BitVectorHelper.setValidityBit(data, index, bit);
      }
      case INT8 -> data.setByte(index, (byte) intValue(k));
      case INT16 -> data.setShort((long) index * 2, (short) intValue(k));
      case INT32, DATE -> data.setInt((long) index * 4, intValue(k));
      case INT64, TIMESTAMP, TIMESTAMP_TZ, TIME -> data.setLong((long) index * 8, longValue(k));
      case FLOAT ->
          data.setFloat(
              (long) index * 4,
              ids == null
                  ? values.getFloat(values.position() + 4 * k)
                  : (float) dict.doubles[ids[k]]);
      case DOUBLE ->
          data.setDouble(
              (long) index * 8,
              ids == null ? values.getDouble(values.position() + 8 * k) : dict.doubles[ids[k]]);
      case DECIMAL -> {
        long unscaled = int32 ? intValue(k) : longValue(k);
        data.setLong((long) index * 16, unscaled);
        data.setLong((long) index * 16 + 8, unscaled < 0 ? -1L : 0L);
      }
      case STRING, CHAR, BINARY -> {
        BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
        if (ids == null) {
          int p = values.position() + binaryPosition;
          int len = values.getInt(p);
          v.setSafe(index, values.array(), values.arrayOffset() + p + 4, len);
          binaryPosition += 4 + len;
        } else {
          int id = ids[k];
          v.setSafe(index, dict.bytes, dict.offsets[id], dict.lengths[id]);
        }
        return;
      }
    }
    BitVectorHelper.setBit(validity, index);
  }

  private int intValue(int k) {
    if (ids == null) {
      return values.getInt(values.position() + 4 * k);
    }
    return dict == PageDictionary.IDS ? ids[k] : (int) dict.longs[ids[k]];
  }

  private long longValue(int k) {
    return ids == null ? values.getLong(values.position() + 8 * k) : dict.longs[ids[k]];
  }
}
