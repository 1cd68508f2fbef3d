package io.mosaic.spark;

import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.Platform;

/**
 * A {@code time} column as Spark reads it: Spark's {@code TimeType} holds nanoseconds of the day,
 * the segments hold microseconds (Parquet TIME(MICROS), docs/format.md), so each value is scaled.
 */
final class TimeColumnVector extends ScanColumnVector {
  static final TimeType TYPE = TimeType.apply(6);
  private static final long NANOS_PER_MICRO = 1000;
  private final ColumnVector stored;

  private final long data;

  /**
   * The microseconds of {@code rows}: through {@code ids} when dictionary encoded, else straight
   * from the vector's memory (Spark's Arrow view knows no microsecond times).
   */
  TimeColumnVector(ColumnVector ids, FieldVector rows) {
    super(TYPE, rows);
    this.stored = ids;
    this.data = ids == null ? rows.getDataBufferAddress() : 0;
  }

  @Override
  public long getLong(int rowId) {
    long micros =
        stored != null ? stored.getLong(rowId) : Platform.getLong(null, data + 8L * rowId);
    return micros * NANOS_PER_MICRO;
  }

  @Override
  String description() {
    return "time(6)";
  }
}
