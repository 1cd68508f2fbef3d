package io.mosaic.spark;

import io.mosaic.format.ValueCodec;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A {@code uuid} column as Spark reads it: a string, the UUID's canonical lowercase text, as
 * Iceberg's Spark reader gives UUIDs (Spark has no UUID type). Canonical text sorts as the stored
 * bytes do (unsigned), so string comparisons agree with the statistics' order.
 */
final class UuidColumnVector extends ScanColumnVector {
  private final FixedSizeBinaryVector vector;

  UuidColumnVector(FixedSizeBinaryVector vector) {
    super(DataTypes.StringType, vector);
    this.vector = vector;
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return isNullAt(rowId)
        ? null
        : UTF8String.fromString(ValueCodec.uuid(vector.get(rowId)).toString());
  }

  @Override
  public byte[] getBinary(int rowId) {
    UTF8String s = getUTF8String(rowId);
    return s == null ? null : s.getBytes();
  }

  @Override
  String description() {
    return "uuid";
  }
}
