package io.mosaic.segment;

import io.mosaic.format.ColumnSpec;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;

/**
 * The values of a segment written before its column was widened ({@code ColumnType#widensFrom}), as
 * a vector of the column's type now. Each widening is exact, so this is a copy: old segments are
 * read without a rewrite, at the price of one pass over their values until compaction rewrites
 * them.
 */
final class Widening {
  private Widening() {}

  /**
   * A new vector of {@code to}'s type with {@code from}'s values; {@code from} stays the caller's.
   */
  static FieldVector widen(FieldVector from, ColumnSpec to, BufferAllocator allocator) {
    int n = from.getValueCount();
    FieldVector out = ArrowBuffers.newVector(to, n, allocator);
    try {
      switch (to.type().kind()) {
        case INT16, INT32, INT64 -> {
          BaseIntVector in = (BaseIntVector) from;
          BaseIntVector o = (BaseIntVector) out;
          for (int i = 0; i < n; i++) {
            if (from.isNull(i)) {
              out.setNull(i);
            } else {
              o.setWithPossibleTruncate(i, in.getValueAsLong(i)); // exact: the type is wider
            }
          }
        }
        case DOUBLE -> {
          Float4Vector in = (Float4Vector) from;
          Float8Vector o = (Float8Vector) out;
          for (int i = 0; i < n; i++) {
            if (from.isNull(i)) {
              o.setNull(i);
            } else {
              o.set(i, in.get(i));
            }
          }
        }
        case DECIMAL -> {
          // Same scale, more digits: the same 16-byte unscaled values and validity bits.
          DecimalVector in = (DecimalVector) from;
          DecimalVector o = (DecimalVector) out;
          o.getDataBuffer().setBytes(0, in.getDataBuffer(), 0, (long) n * DecimalVector.TYPE_WIDTH);
          o.getValidityBuffer().setBytes(0, in.getValidityBuffer(), 0, (n + 7) / 8);
        }
        default ->
            throw new IllegalStateException(
                "column '" + to.name() + "' of type " + to.type() + " is widened from no type");
      }
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }
}
