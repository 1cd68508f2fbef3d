package io.mosaic.spark;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A dictionary-encoded column as Spark reads it: int32 ids into the chunk's dictionary, resolved
 * only for the rows Spark asks for, as Spark's Parquet reader does with dictionary pages. Decoding
 * every value of TPC-H's {@code l_shipmode} and {@code l_shipinstruct} into a string vector was the
 * largest cost of a Spark scan of them (q19), and q6 read four numeric columns in full for the 2 %
 * of rows its filter keeps. Values are read straight from Arrow memory, which the scan keeps until
 * the next batch; decimals come from a dictionary of unscaled longs (the scan's {@code
 * unscaledDecimals} form) or, stored as int32, of Arrow's 16-byte decimals (low 8 bytes).
 */
final class DictionaryColumnVector extends ScanColumnVector {
  private final long idAddress;
  private final long offsets;
  private final long data;
  private final long decimalWidth;

  DictionaryColumnVector(DataType type, IntVector ids, FieldVector dictionary) {
    super(type, ids);
    this.idAddress = ids.getDataBufferAddress();
    this.offsets = dictionary instanceof BaseVariableWidthVector v ? v.getOffsetBufferAddress() : 0;
    this.data = dictionary.getDataBufferAddress();
    this.decimalWidth = dictionary instanceof DecimalVector ? DecimalVector.TYPE_WIDTH : 8;
  }

  /** The dictionary index of row {@code rowId}. */
  private long id(int rowId) {
    return Platform.getInt(null, idAddress + 4L * rowId);
  }

  @Override
  String description() {
    return "dictionary-encoded " + super.description();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return isNullAt(rowId) ? null : utf8(offsets, data, id(rowId));
  }

  @Override
  public byte[] getBinary(int rowId) {
    return isNullAt(rowId) ? null : bytes(offsets, data, id(rowId));
  }

  @Override
  public int getInt(int rowId) {
    return Platform.getInt(null, data + 4L * id(rowId));
  }

  @Override
  public long getLong(int rowId) {
    return Platform.getLong(null, data + 8L * id(rowId));
  }

  @Override
  public float getFloat(int rowId) {
    return Platform.getFloat(null, data + 4L * id(rowId));
  }

  @Override
  public double getDouble(int rowId) {
    return Platform.getDouble(null, data + 8L * id(rowId));
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (precision > Decimal.MAX_LONG_DIGITS()) {
      throw notThisType(); // stored as fixed-length bytes, which are never dictionary ids
    }
    if (isNullAt(rowId)) {
      return null;
    }
    long unscaled = Platform.getLong(null, data + decimalWidth * id(rowId));
    return Decimal.createUnsafe(unscaled, precision, scale);
  }
}
