package io.mosaic.spark;

import org.apache.arrow.vector.DecimalVector;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ArrowColumnVector;

/**
 * An Arrow decimal column as Spark reads it. Spark's own {@link ArrowColumnVector} builds a {@code
 * BigDecimal} per value, and the {@link Decimal} it wraps then takes the slow arithmetic path in
 * every aggregate; Spark's Parquet reader instead hands out long-backed decimals for precision up
 * to 18. This does the same from the Arrow buffer: the low 8 bytes of the 16-byte little-endian
 * two's complement value are the unscaled value whenever it has at most 18 digits.
 */
final class DecimalColumnVector extends ArrowColumnVector {
  private final DecimalVector vector;

  DecimalColumnVector(DecimalVector vector) {
    super(vector);
    this.vector = vector;
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (precision > Decimal.MAX_LONG_DIGITS()) {
      return super.getDecimal(rowId, precision, scale);
    }
    if (vector.isNull(rowId)) {
      return null;
    }
    long unscaled = vector.getDataBuffer().getLong((long) rowId * DecimalVector.TYPE_WIDTH);
    return Decimal.createUnsafe(unscaled, precision, scale);
  }
}
