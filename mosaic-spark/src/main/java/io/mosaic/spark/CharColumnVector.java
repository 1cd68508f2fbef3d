package io.mosaic.spark;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A {@code char(n)} column as Spark reads it: the stored values (without trailing spaces) padded to
 * n, as Spark writes them into Parquet. So a scan answers the same whether Spark pads on read
 * ({@code spark.sql.readSideCharPadding}, the default, where padding again changes nothing) or
 * relies on the padding written (the setting off, where comparisons pad the other side).
 */
final class CharColumnVector extends ColumnVector {
  private static final UTF8String SPACE = UTF8String.fromString(" ");
  private final ColumnVector stored;
  private final int length;

  CharColumnVector(ColumnVector stored, int length) {
    super(DataTypes.StringType);
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
  public void close() {
    stored.close();
  }

  @Override
  public boolean hasNull() {
    return stored.hasNull();
  }

  @Override
  public int numNulls() {
    return stored.numNulls();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return stored.isNullAt(rowId);
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw notAString();
  }

  @Override
  public byte getByte(int rowId) {
    throw notAString();
  }

  @Override
  public short getShort(int rowId) {
    throw notAString();
  }

  @Override
  public int getInt(int rowId) {
    throw notAString();
  }

  @Override
  public long getLong(int rowId) {
    throw notAString();
  }

  @Override
  public float getFloat(int rowId) {
    throw notAString();
  }

  @Override
  public double getDouble(int rowId) {
    throw notAString();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw notAString();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw notAString();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw notAString();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw notAString();
  }

  private UnsupportedOperationException notAString() {
    return new UnsupportedOperationException("a char(" + length + ") column has only strings");
  }
}
