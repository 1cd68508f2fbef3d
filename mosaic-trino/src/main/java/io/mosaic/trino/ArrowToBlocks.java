package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;

/**
 * Core's Arrow vectors as Trino blocks. Arrow buffers live off-heap and are reused by the scan, so
 * values are copied once into the Java arrays Trino's blocks are made of.
 */
final class ArrowToBlocks {
  private ArrowToBlocks() {}

  static Block block(FieldVector vector, Type type) {
    int n = vector.getValueCount();
    Optional<boolean[]> nulls = nulls(vector, n);
    if (vector instanceof BigIntVector || vector instanceof TimeStampVector) {
      return new LongArrayBlock(n, nulls, longs(vector.getDataBuffer(), n));
    }
    if (vector instanceof Float8Vector) {
      // Trino keeps a double as its raw IEEE bits in a long, as Arrow does.
      return new LongArrayBlock(n, nulls, longs(vector.getDataBuffer(), n));
    }
    if (vector instanceof IntVector
        || vector instanceof DateDayVector
        || vector instanceof Float4Vector) {
      int[] values = new int[n];
      ArrowBuf data = vector.getDataBuffer();
      for (int i = 0; i < n; i++) {
        values[i] = data.getInt(4L * i);
      }
      return new IntArrayBlock(n, nulls, values);
    }
    if (vector instanceof SmallIntVector) {
      short[] values = new short[n];
      ArrowBuf data = vector.getDataBuffer();
      for (int i = 0; i < n; i++) {
        values[i] = data.getShort(2L * i);
      }
      return new ShortArrayBlock(n, nulls, values);
    }
    if (vector instanceof TinyIntVector) {
      byte[] values = new byte[n];
      vector.getDataBuffer().getBytes(0, values, 0, n);
      return new ByteArrayBlock(n, nulls, values);
    }
    if (vector instanceof BitVector bits) {
      byte[] values = new byte[n];
      for (int i = 0; i < n; i++) {
        values[i] = (byte) (bits.isNull(i) ? 0 : bits.get(i));
      }
      return new ByteArrayBlock(n, nulls, values);
    }
    if (vector instanceof DecimalVector) {
      // Arrow stores a decimal as 16 little-endian bytes: low word first.
      ArrowBuf data = vector.getDataBuffer();
      if (((DecimalType) type).isShort()) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
          values[i] = data.getLong(16L * i);
        }
        return new LongArrayBlock(n, nulls, values);
      }
      long[] values = new long[2 * n];
      for (int i = 0; i < n; i++) {
        values[2 * i] = data.getLong(16L * i + 8);
        values[2 * i + 1] = data.getLong(16L * i);
      }
      return new Int128ArrayBlock(n, nulls, values);
    }
    if (vector instanceof BaseVariableWidthVector v) {
      int[] offsets = new int[n + 1];
      ArrowBuf offsetBuffer = v.getOffsetBuffer();
      for (int i = 0; i <= n; i++) {
        offsets[i] = offsetBuffer.getInt(4L * i);
      }
      int start = offsets[0];
      if (start != 0) {
        for (int i = 0; i <= n; i++) {
          offsets[i] -= start;
        }
      }
      byte[] bytes = new byte[offsets[n]];
      v.getDataBuffer().getBytes(start, bytes, 0, bytes.length);
      Slice slice = Slices.wrappedBuffer(bytes);
      return new VariableWidthBlock(n, slice, offsets, nulls);
    }
    throw new IllegalStateException(
        "no Trino block for Arrow vector " + vector.getClass().getSimpleName());
  }

  private static long[] longs(ArrowBuf data, int n) {
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = data.getLong(8L * i);
    }
    return values;
  }

  private static Optional<boolean[]> nulls(FieldVector vector, int n) {
    if (vector.getNullCount() == 0) {
      return Optional.empty();
    }
    boolean[] nulls = new boolean[n];
    for (int i = 0; i < n; i++) {
      nulls[i] = vector.isNull(i);
    }
    return Optional.of(nulls);
  }
}
