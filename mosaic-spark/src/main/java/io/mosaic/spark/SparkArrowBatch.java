package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.TableSchema;
import io.mosaic.format.ValueCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow batch Spark's {@code ArrowWriter} fills for a table, and the table's own batch made of
 * it. Spark's writer knows no fixed-size binary and writes {@code TimeType} as nanoseconds: a
 * {@code uuid} column arrives as Spark strings, which must be UUIDs, and a {@code time} column as
 * nanoseconds of the day; {@link #table} converts them to the table's vectors (16 bytes,
 * microseconds). The other columns are the same vectors in both batches.
 */
final class SparkArrowBatch implements AutoCloseable {
  private static final Pattern UUID_TEXT =
      Pattern.compile(
          "\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}");
  private static final long NANOS_PER_MICRO = 1000;

  private final TableSchema schema;
  private final VectorSchemaRoot spark;
  private final VectorSchemaRoot table;

  SparkArrowBatch(TableSchema schema, BufferAllocator allocator) {
    this.schema = schema;
    List<Field> fields = new ArrayList<>();
    for (ColumnSpec c : schema.columns()) {
      ArrowType sparkType =
          switch (c.type().kind()) {
            case TIME -> new ArrowType.Time(TimeUnit.NANOSECOND, 64);
            case UUID -> ArrowType.Utf8.INSTANCE;
            default -> null;
          };
      fields.add(
          sparkType == null
              ? c.arrowField()
              : new Field(c.name(), new FieldType(c.nullable(), sparkType, null), null));
    }
    this.spark = VectorSchemaRoot.create(new Schema(fields), allocator);
    List<FieldVector> vectors = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      ColumnSpec c = schema.columns().get(i);
      boolean converted = !fields.get(i).equals(c.arrowField());
      vectors.add(converted ? c.arrowField().createVector(allocator) : spark.getVector(i));
    }
    this.table = new VectorSchemaRoot(vectors);
  }

  /** The batch Spark's writer fills. */
  VectorSchemaRoot spark() {
    return spark;
  }

  /** The filled batch as the table's vectors, its converted columns refilled. */
  VectorSchemaRoot table() {
    int rows = spark.getRowCount();
    for (int i = 0; i < schema.columns().size(); i++) {
      ColumnSpec c = schema.columns().get(i);
      FieldVector from = spark.getVector(i);
      FieldVector to = table.getVector(i);
      if (c.type().kind() == ColumnType.Kind.TIME) {
        times((TimeNanoVector) from, (TimeMicroVector) to, rows);
      } else if (c.type().kind() == ColumnType.Kind.UUID) {
        uuids(c, (VarCharVector) from, (FixedSizeBinaryVector) to, rows);
      }
    }
    table.setRowCount(rows);
    return table;
  }

  private static void times(TimeNanoVector from, TimeMicroVector to, int rows) {
    to.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (from.isNull(r)) {
        to.setNull(r);
      } else {
        // Spark's time(6) is whole microseconds, held as nanoseconds.
        to.set(r, Math.floorDiv(from.get(r), NANOS_PER_MICRO));
      }
    }
    to.setValueCount(rows);
  }

  private static void uuids(ColumnSpec c, VarCharVector from, FixedSizeBinaryVector to, int rows) {
    to.allocateNew(rows);
    for (int r = 0; r < rows; r++) {
      if (from.isNull(r)) {
        to.setNull(r);
        continue;
      }
      String text = new String(from.get(r), StandardCharsets.UTF_8);
      if (!UUID_TEXT.matcher(text).matches()) {
        throw MosaicException.invalid(
            "column '"
                + c.name()
                + "' is uuid, but a row has '"
                + (text.length() > 40 ? text.substring(0, 37) + "..." : text)
                + "', which is not a UUID: write its text as 8-4-4-4-12 hexadecimal digits"
                + " (e.g. 123e4567-e89b-12d3-a456-426614174000), or null");
      }
      to.set(r, ValueCodec.uuidBytes(java.util.UUID.fromString(text)));
    }
    to.setValueCount(rows);
  }

  @Override
  public void close() {
    // The shared vectors are closed twice: Arrow's close is idempotent.
    table.close();
    spark.close();
  }
}
