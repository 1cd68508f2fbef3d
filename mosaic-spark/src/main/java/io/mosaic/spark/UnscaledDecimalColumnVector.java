package io.mosaic.spark;

import org.apache.arrow.vector.BigIntVector;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.unsafe.Platform;

/**
 * A decimal column of precision up to 18 as the unscaled longs it is stored as (the scan's {@code
 * unscaledDecimals} form), read the way Spark's own vectors hold such decimals: 8 bytes per value
 * where Arrow's decimals take 16, so the scan writes and Spark reads half the memory (TPC-H's
 * prices, quantities, discounts and taxes are all such decimals). Values are read straight from
 * Arrow memory, which the scan keeps until the next batch; the scan owns the vector.
 */
final class UnscaledDecimalColumnVector extends ScanColumnVector {
  private final long data;

  UnscaledDecimalColumnVector(DecimalType type, BigIntVector unscaled) {
    super(type, unscaled);
    this.data = unscaled.getDataBufferAddress();
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
}
