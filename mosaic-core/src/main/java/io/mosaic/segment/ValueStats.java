package io.mosaic.segment;

import io.mosaic.format.CharValues;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.DistinctSketch;
import io.mosaic.format.RowGroupStats;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The statistics of one row group of one column that Parquet's footer does not give: a distinct-
 * value sketch and the total size of variable-width values. Fed the same Arrow vectors the segment
 * writer encodes (and ANALYZE decodes), hashing each value as its Parquet PLAIN encoding, so a row
 * group gets the same sketch whichever path saw it.
 */
public final class ValueStats {
  private final ColumnType type;
  private final DistinctSketch.Hasher hasher = new DistinctSketch.Hasher();
  private DistinctSketch sketch = new DistinctSketch();
  private long dataBytes;

  public ValueStats(ColumnSpec column) {
    this.type = column.type();
  }

  /** Adds the non-null values of rows {@code [from, from + count)}. */
  public void add(FieldVector vector, int from, int count) {
    for (int i = from; i < from + count; i++) {
      if (!vector.isNull(i)) {
        sketch.update(hash(vector, i));
      }
    }
  }

  private long hash(FieldVector vector, int i) {
    return switch (type.kind()) {
      case BOOLEAN -> hasher.bool(((BitVector) vector).get(i) != 0);
      case INT8 -> hasher.int32(((TinyIntVector) vector).get(i));
      case INT16 -> hasher.int32(((SmallIntVector) vector).get(i));
      case INT32 -> hasher.int32(((IntVector) vector).get(i));
      case DATE -> hasher.int32(((DateDayVector) vector).get(i));
      case INT64 -> hasher.int64(((BigIntVector) vector).get(i));
      case TIMESTAMP, TIMESTAMP_TZ -> hasher.int64(((TimeStampMicroTZVector) vector).get(i));
      case TIME -> hasher.int64(((TimeMicroVector) vector).get(i));
      case UUID -> hasher.bytes(((FixedSizeBinaryVector) vector).get(i));
      case FLOAT -> hasher.float32(((Float4Vector) vector).get(i));
      case DOUBLE -> hasher.float64(((Float8Vector) vector).get(i));
      case DECIMAL -> decimal((DecimalVector) vector, i);
      case STRING -> bytes(((VarCharVector) vector).get(i));
      // As the segment stores them: the sketch and data size count 'ab' and 'ab  ' once.
      case CHAR -> bytes(CharValues.trim(((VarCharVector) vector).get(i)));
      case BINARY -> bytes(((VarBinaryVector) vector).get(i));
    };
  }

  private long decimal(DecimalVector vector, int i) {
    int precision = type.precision();
    if (precision <= 18) {
      // The low 64 bits of Arrow's 128-bit little-endian value, as the segment writer stores it.
      long unscaled = vector.getDataBuffer().getLong((long) i * DecimalVector.TYPE_WIDTH);
      return precision <= 9 ? hasher.int32((int) unscaled) : hasher.int64(unscaled);
    }
    return hasher.bytes(vector.getObject(i).unscaledValue().toByteArray());
  }

  private long bytes(byte[] value) {
    dataBytes += value.length;
    return hasher.bytes(value);
  }

  /** Ends the row group: its sketch and data size; the next values start a new row group. */
  public Done endRowGroup() {
    Done done = new Done(sketch.toBase64(), type.isVariableWidth() ? dataBytes : -1);
    sketch = new DistinctSketch();
    dataBytes = 0;
    return done;
  }

  /** One row group's sketch (manifest form) and data size (-1 for fixed-width types). */
  public record Done(String distinct, long dataBytes) {
    /** The footer's statistics of the row group with these added. */
    public RowGroupStats addTo(RowGroupStats footer) {
      return footer.withValues(distinct, dataBytes);
    }
  }
}
