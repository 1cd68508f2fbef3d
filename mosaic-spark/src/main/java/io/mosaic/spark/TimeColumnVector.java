package io.mosaic.spark;

import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * A {@code time} column as Spark reads it: Spark's {@code TimeType} holds nanoseconds of the day,
 * the segments hold microseconds (Parquet TIME(MICROS), docs/format.md), so each value is scaled.
 */
final class TimeColumnVector extends ScanColumnVector {
  static final TimeType TYPE = TimeType.apply(6);
  private static final long NANOS_PER_MICRO = 1000;
  private final ColumnVector stored;

  /** {@code stored} reads the microseconds of {@code rows} (their Arrow vector, or ids). */
  TimeColumnVector(ColumnVector stored, FieldVector rows) {
    super(TYPE, rows);
    this.stored = stored;
  }

  @Override
  public long getLong(int rowId) {
    return stored.getLong(rowId) * NANOS_PER_MICRO;
  }

  @Override
  String description() {
    return "time(6)";
  }
}
