package io.mosaic.spark;

import org.apache.arrow.vector.BigIntVector;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A decimal column of precision up to 18 as the unscaled longs it is stored as (the scan's {@code
 * unscaledDecimals} form), read the way Spark's own vectors hold such decimals: 8 bytes per value
 * where Arrow's decimals take 16, so the scan writes and Spark reads half the memory (TPC-H's
 * prices, quantities, discounts and taxes are all such decimals). Values are read straight from
 * Arrow memory, which the scan keeps until the next batch; the scan owns the vector.
 */
final class UnscaledDecimalColumnVector extends ColumnVector {
  private final BigIntVector unscaled;
  private final long data;
  private final long validity;
  private final boolean noNulls;

  UnscaledDecimalColumnVector(DecimalType type, BigIntVector unscaled) {
    super(type);
    this.unscaled = unscaled;
    this.data = unscaled.getDataBufferAddress();
    this.validity = unscaled.getValidityBufferAddress();
    this.noNulls = unscaled.getNullCount() == 0;
  }

  @Override
  public void close() {
    // The scan owns the vector.
  }

  @Override
  public boolean hasNull() {
    return !noNulls;
  }

  @Override
  public int numNulls() {
    return unscaled.getNullCount();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return !noNulls
        && ((Platform.getByte(null, validity + (rowId >>> 3)) >>> (rowId & 7)) & 1) == 0;
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (isNullAt(rowId)) {
      return null;
    }
    return Decimal.createUnsafe(Platform.getLong(null, data + 8L * rowId), precision, scale);
  }

  /** The unscaled value, as Spark's own vectors answer for 64-bit decimals. */
  @Override
  public long getLong(int rowId) {
    return Platform.getLong(null, data + 8L * rowId);
  }

  private UnsupportedOperationException notThisType() {
    return new UnsupportedOperationException(
        "a " + dataType().simpleString() + " column has no such values");
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw notThisType();
  }

  @Override
  public byte getByte(int rowId) {
    throw notThisType();
  }

  @Override
  public short getShort(int rowId) {
    throw notThisType();
  }

  @Override
  public int getInt(int rowId) {
    throw notThisType();
  }

  @Override
  public float getFloat(int rowId) {
    throw notThisType();
  }

  @Override
  public double getDouble(int rowId) {
    throw notThisType();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw notThisType();
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw notThisType();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw notThisType();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw notThisType();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw notThisType();
  }
}
