package io.mosaic.spark;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.IntVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A dictionary-encoded string or binary column as Spark reads it: int32 ids into the chunk's
 * dictionary, resolved only for the rows Spark asks for, as Spark's Parquet reader does with
 * dictionary pages. Decoding every value of TPC-H's {@code l_shipmode} and {@code l_shipinstruct}
 * into a string vector was the largest cost of a Spark scan of them (q19), for rows the query's
 * filter then mostly dropped. Values are read straight from Arrow memory, which the scan keeps
 * until the next batch.
 */
final class DictionaryColumnVector extends ColumnVector {
  private final IntVector ids;
  private final long idAddress;
  private final long validity;
  private final boolean noNulls;
  private final long offsets;
  private final long data;

  DictionaryColumnVector(DataType type, IntVector ids, BaseVariableWidthVector dictionary) {
    super(type);
    this.ids = ids;
    this.idAddress = ids.getDataBufferAddress();
    this.validity = ids.getValidityBufferAddress();
    this.noNulls = ids.getNullCount() == 0;
    this.offsets = dictionary.getOffsetBufferAddress();
    this.data = dictionary.getDataBufferAddress();
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
    return ids.getNullCount();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return !noNulls
        && ((Platform.getByte(null, validity + (rowId >>> 3)) >>> (rowId & 7)) & 1) == 0;
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    if (isNullAt(rowId)) {
      return null;
    }
    long entry = offsets + 4L * Platform.getInt(null, idAddress + 4L * rowId);
    int start = Platform.getInt(null, entry);
    int end = Platform.getInt(null, entry + 4);
    return UTF8String.fromAddress(null, data + start, end - start);
  }

  @Override
  public byte[] getBinary(int rowId) {
    if (isNullAt(rowId)) {
      return null;
    }
    long entry = offsets + 4L * Platform.getInt(null, idAddress + 4L * rowId);
    int start = Platform.getInt(null, entry);
    byte[] out = new byte[Platform.getInt(null, entry + 4) - start];
    Platform.copyMemory(null, data + start, out, Platform.BYTE_ARRAY_OFFSET, out.length);
    return out;
  }

  private UnsupportedOperationException notThisType() {
    return new UnsupportedOperationException(
        "a dictionary-encoded " + dataType().simpleString() + " column has no such values");
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
  public ColumnarArray getArray(int rowId) {
    throw notThisType();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw notThisType();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw notThisType();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw notThisType();
  }
}
