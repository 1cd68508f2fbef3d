package io.mosaic.spark;

import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A {@code char(n)} column as Spark reads it: the stored values (without trailing spaces) padded to
 * n, as Spark writes them into Parquet. So a scan answers the same whether Spark pads on read
 * ({@code spark.sql.readSideCharPadding}, the default, where padding again changes nothing) or
 * relies on the padding written (the setting off, where comparisons pad the other side).
 */
final class CharColumnVector extends ScanColumnVector {
  private static final UTF8String SPACE = UTF8String.fromString(" ");
  private final ColumnVector stored;
  private final int length;

  /** {@code stored} reads the strings of {@code rows} (their Arrow vector, or dictionary ids). */
  CharColumnVector(ColumnVector stored, FieldVector rows, int length) {
    super(DataTypes.StringType, rows);
    this.stored = stored;
    this.length = length;
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    UTF8String s = stored.getUTF8String(rowId);
    return s == null || s.numChars() >= length ? s : s.rpad(length, SPACE);
  }

  @Override
  public byte[] getBinary(int rowId) {
    UTF8String s = getUTF8String(rowId);
    return s == null ? null : s.getBytes();
  }

  @Override
  String description() {
    return "char(" + length + ")";
  }
}
