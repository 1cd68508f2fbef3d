package io.mosaic.spark;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/** The row ids of a batch ({@link MosaicRowLevelOperation#ROW_ID}), made by the reader. */
final class RowIdColumnVector extends ColumnVector {
  private final long[] ids;

  RowIdColumnVector(long[] ids) {
    super(DataTypes.LongType);
    this.ids = ids;
  }

  @Override
  public long getLong(int rowId) {
    return ids[rowId];
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return false;
  }

  @Override
  public int numNulls() {
    return 0;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return false;
  }

  private static UnsupportedOperationException notALong() {
    return new UnsupportedOperationException("a row id is a bigint");
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw notALong();
  }

  @Override
  public byte getByte(int rowId) {
    throw notALong();
  }

  @Override
  public short getShort(int rowId) {
    throw notALong();
  }

  @Override
  public int getInt(int rowId) {
    throw notALong();
  }

  @Override
  public float getFloat(int rowId) {
    throw notALong();
  }

  @Override
  public double getDouble(int rowId) {
    throw notALong();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw notALong();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw notALong();
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw notALong();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw notALong();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw notALong();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw notALong();
  }
}
