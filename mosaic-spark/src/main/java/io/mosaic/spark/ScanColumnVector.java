package io.mosaic.spark;

import org.apache.arrow.vector.FieldVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A Spark view of Arrow vectors the scan owns, read straight from Arrow memory, for the forms
 * Spark's {@code ArrowColumnVector} does not know (dictionary ids, unscaled decimals). Nulls come
 * from the Arrow vector of the rows; a subclass answers the getters of its type, and the others
 * fail naming the column. Closing leaves the vectors to the scan, which reuses them for a later row
 * group or frees them. The static readers serve the {@code ArrowColumnVector} views too.
 */
abstract class ScanColumnVector extends ColumnVector {
  private final FieldVector rows;
  private final long validity;
  private final boolean noNulls;

  ScanColumnVector(DataType type, FieldVector rows) {
    super(type);
    this.rows = rows;
    this.validity = rows.getValidityBufferAddress();
    this.noNulls = rows.getNullCount() == 0;
  }

  /** Whether row {@code rowId}'s bit is clear in the Arrow validity buffer at {@code validity}. */
  static boolean isNull(long validity, int rowId) {
    return ((Platform.getByte(null, validity + (rowId >>> 3)) >>> (rowId & 7)) & 1) == 0;
  }

  /** Entry {@code index} of Arrow variable-width data (int32 offsets), as a string. */
  static UTF8String utf8(long offsets, long data, long index) {
    long entry = offsets + 4L * index;
    int start = Platform.getInt(null, entry);
    return UTF8String.fromAddress(null, data + start, Platform.getInt(null, entry + 4) - start);
  }

  /** Entry {@code index} of Arrow variable-width data (int32 offsets), copied out. */
  static byte[] bytes(long offsets, long data, long index) {
    long entry = offsets + 4L * index;
    int start = Platform.getInt(null, entry);
    byte[] out = new byte[Platform.getInt(null, entry + 4) - start];
    Platform.copyMemory(null, data + start, out, Platform.BYTE_ARRAY_OFFSET, out.length);
    return out;
  }

  /** The column as error messages name it. */
  String description() {
    return dataType().simpleString();
  }

  UnsupportedOperationException notThisType() {
    return new UnsupportedOperationException("a " + description() + " column has no such values");
  }

  @Override
  public void close() {
    // The scan owns the vectors.
  }

  @Override
  public boolean hasNull() {
    return !noNulls;
  }

  @Override
  public int numNulls() {
    return rows.getNullCount();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return !noNulls && isNull(validity, rowId);
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
  public long getLong(int rowId) {
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
  public Decimal getDecimal(int rowId, int precision, int scale) {
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
