package io.mosaic.spark;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A row group's column without its deleted rows (docs/format.md, "Deletion vectors"): row {@code i}
 * of the view is row {@code live[i]} of the stored column, so nothing is copied. Spark's columnar
 * batches have no selection vector; this view is one.
 */
final class LiveRowsColumnVector extends ColumnVector {
  private final ColumnVector stored;
  private final int[] live;

  LiveRowsColumnVector(ColumnVector stored, int[] live) {
    super(stored.dataType());
    this.stored = stored;
    this.live = live;
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
    int n = 0;
    for (int row : live) {
      if (stored.isNullAt(row)) {
        n++;
      }
    }
    return n;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return stored.isNullAt(live[rowId]);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return stored.getBoolean(live[rowId]);
  }

  @Override
  public byte getByte(int rowId) {
    return stored.getByte(live[rowId]);
  }

  @Override
  public short getShort(int rowId) {
    return stored.getShort(live[rowId]);
  }

  @Override
  public int getInt(int rowId) {
    return stored.getInt(live[rowId]);
  }

  @Override
  public long getLong(int rowId) {
    return stored.getLong(live[rowId]);
  }

  @Override
  public float getFloat(int rowId) {
    return stored.getFloat(live[rowId]);
  }

  @Override
  public double getDouble(int rowId) {
    return stored.getDouble(live[rowId]);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return stored.getDecimal(live[rowId], precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return stored.getUTF8String(live[rowId]);
  }

  @Override
  public byte[] getBinary(int rowId) {
    return stored.getBinary(live[rowId]);
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return stored.getArray(live[rowId]);
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    return stored.getMap(live[ordinal]);
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    // Struct children are indexed by row too; no nested type is stored yet (docs/format.md).
    throw new UnsupportedOperationException("a column without deleted rows has no children");
  }
}
