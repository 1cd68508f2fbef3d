package io.mosaic.spark;

import java.nio.ByteOrder;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ArrowColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.Platform;

/**
 * A fixed-width Arrow column as Spark reads it: straight from memory, as Spark's own {@code
 * OffHeapColumnVector} does. Spark's {@link ArrowColumnVector} reads every value through Arrow's
 * checked accessors (a validity lookup and a bounds check per value) and builds a {@code
 * BigDecimal} per decimal, whose {@link Decimal} then takes the slow arithmetic path in every
 * aggregate. Here decimals of precision up to 18 come out long-backed, as from Spark's Parquet
 * reader: the low 8 bytes of Arrow's 16-byte little-endian two's complement value are the unscaled
 * value whenever it has at most 18 digits.
 *
 * <p>Safe because a batch is complete before Spark reads it, Spark reads only rows below the
 * batch's row count, and the reader keeps the vectors open until the next batch.
 *
 * <p>The scan owns the vectors, so closing this view leaves them open. Spark's columnar-to-row code
 * closes every batch it has read ({@code closeIfFreeable}); Arrow's vectors then freed their
 * memory, and the scan decoded every row group into fresh, zeroed megabytes instead of reusing the
 * last ones.
 */
final class FixedWidthColumnVector extends ArrowColumnVector {
  private final BaseFixedWidthVector vector;
  private final long data;
  private final long validity;
  private final boolean noNulls;

  private FixedWidthColumnVector(BaseFixedWidthVector vector) {
    super(vector);
    this.vector = vector;
    this.data = vector.getDataBufferAddress();
    this.validity = vector.getValidityBufferAddress();
    this.noNulls = vector.getNullCount() == 0;
  }

  /**
   * This view of {@code vector} where it applies (fixed width, not bits), {@link
   * VariableWidthColumnVector} for strings and binary, else Spark's own.
   */
  static ColumnVector of(ValueVector vector) {
    // Arrow's buffers are little-endian; Platform reads native order.
    boolean littleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    if (littleEndian
        && vector instanceof BaseFixedWidthVector fixed
        && !(vector instanceof BitVector)) {
      return new FixedWidthColumnVector(fixed);
    }
    if (littleEndian && vector instanceof BaseVariableWidthVector variable) {
      return new VariableWidthColumnVector(variable);
    }
    return new ScanOwned(vector);
  }

  @Override
  public void close() {
    // The scan owns the vector: it reuses it for a later row group or frees it.
  }

  /** Spark's own view of the other Arrow vectors, equally leaving them to the scan. */
  private static final class ScanOwned extends ArrowColumnVector {
    ScanOwned(ValueVector vector) {
      super(vector);
    }

    @Override
    public void close() {
      // As above.
    }
  }

  @Override
  public boolean hasNull() {
    return !noNulls;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return !noNulls && ScanColumnVector.isNull(validity, rowId);
  }

  @Override
  public byte getByte(int rowId) {
    return Platform.getByte(null, data + rowId);
  }

  @Override
  public short getShort(int rowId) {
    return Platform.getShort(null, data + 2L * rowId);
  }

  @Override
  public int getInt(int rowId) {
    return Platform.getInt(null, data + 4L * rowId);
  }

  @Override
  public long getLong(int rowId) {
    return Platform.getLong(null, data + 8L * rowId);
  }

  @Override
  public float getFloat(int rowId) {
    return Platform.getFloat(null, data + 4L * rowId);
  }

  @Override
  public double getDouble(int rowId) {
    return Platform.getDouble(null, data + 8L * rowId);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (precision > Decimal.MAX_LONG_DIGITS() || !(vector instanceof DecimalVector)) {
      return super.getDecimal(rowId, precision, scale);
    }
    if (isNullAt(rowId)) {
      return null;
    }
    long unscaled = Platform.getLong(null, data + (long) DecimalVector.TYPE_WIDTH * rowId);
    return Decimal.createUnsafe(unscaled, precision, scale);
  }
}
