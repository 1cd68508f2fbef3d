package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import java.math.BigDecimal;
import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Fills the table's Arrow batch with a Trino page, the form core's table writer takes. */
final class PageToArrow {
  private static final long PICOS_PER_MICRO = 1_000_000;

  private PageToArrow() {}

  /** A timestamp(6) with time zone as microseconds since the epoch, UTC (its zone is dropped). */
  static long micros(LongTimestampWithTimeZone t) {
    return Math.multiplyExact(t.getEpochMillis(), 1000) + t.getPicosOfMilli() / PICOS_PER_MICRO;
  }

  static void fill(VectorSchemaRoot root, Page page, List<MosaicColumnHandle> columns) {
    int n = page.getPositionCount();
    root.clear();
    for (int c = 0; c < columns.size(); c++) {
      FieldVector vector = root.getVector(c);
      if (vector instanceof BaseFixedWidthVector fixed) {
        fixed.allocateNew(n);
      } else if (vector instanceof BaseVariableWidthVector variable) {
        variable.allocateNew(n);
      }
      fill(vector, page.getBlock(c), columns.get(c).type(), n);
      vector.setValueCount(n);
    }
    root.setRowCount(n);
  }

  private static void fill(FieldVector vector, Block block, Type type, int n) {
    for (int i = 0; i < n; i++) {
      if (block.isNull(i)) {
        vector.setNull(i);
        continue;
      }
      switch (vector) {
        case BigIntVector v -> v.set(i, BigintType.BIGINT.getLong(block, i));
        case TimeStampVector v ->
            v.set(
                i,
                type instanceof TimestampWithTimeZoneType
                    ? micros((LongTimestampWithTimeZone) type.getObject(block, i))
                    : type.getLong(block, i));
        // Trino's times are picoseconds of the day; time(6)'s are whole microseconds.
        case TimeMicroVector v -> v.set(i, type.getLong(block, i) / PICOS_PER_MICRO);
        // Trino's uuid slice holds the 16 bytes in RFC 4122 order, as Parquet stores them.
        case FixedSizeBinaryVector v -> v.set(i, type.getSlice(block, i).getBytes());
        case IntVector v -> v.set(i, (int) type.getLong(block, i));
        case DateDayVector v -> v.set(i, (int) type.getLong(block, i));
        case SmallIntVector v -> v.set(i, (short) type.getLong(block, i));
        case TinyIntVector v -> v.set(i, (byte) type.getLong(block, i));
        case Float8Vector v -> v.set(i, DoubleType.DOUBLE.getDouble(block, i));
        case Float4Vector v -> v.set(i, RealType.REAL.getFloat(block, i));
        case BitVector v -> v.set(i, BooleanType.BOOLEAN.getBoolean(block, i) ? 1 : 0);
        case DecimalVector v -> {
          DecimalType d = (DecimalType) type;
          BigDecimal value =
              d.isShort()
                  ? BigDecimal.valueOf(d.getLong(block, i), d.getScale())
                  : new BigDecimal(((Int128) d.getObject(block, i)).toBigInteger(), d.getScale());
          v.set(i, value);
        }
        case BaseVariableWidthVector v -> {
          Slice slice = type.getSlice(block, i);
          v.setSafe(i, slice.byteArray(), slice.byteArrayOffset(), slice.length());
        }
        default ->
            throw new IllegalStateException(
                "no Arrow writer for " + vector.getClass().getSimpleName());
      }
    }
  }
}
