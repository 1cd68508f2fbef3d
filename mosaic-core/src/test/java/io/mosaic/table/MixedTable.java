package io.mosaic.table;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A small table of every column type for corrupt-manifest tests: 17 columns (three of type int64,
 * one of them not nullable, and two strings) spread over the four test devices (all three codecs),
 * 3 appends of 2,500 rows in row groups of 1,000 rows, so each column has 3 segments and the table
 * 9 row groups of 1,000, 1,000 and 500 rows. Double values include both infinities, so statistics
 * hold them.
 */
public final class MixedTable {
  static final int APPENDS = 3;
  static final int ROWS_PER_APPEND = 2_500;
  static final int ROW_GROUP_ROWS = 1_000;

  /** A not-null key, {@link CommitTest#ALL_TYPES}, and a second int64 and string column. */
  public static final TableSchema SCHEMA =
      new TableSchema(
          Stream.of(
                  List.of(new ColumnSpec("id", ColumnType.parse("int64"), false)),
                  CommitTest.ALL_TYPES.columns(),
                  List.of(
                      new ColumnSpec("i64b", ColumnType.parse("int64"), true),
                      new ColumnSpec("s2", ColumnType.parse("string"), true)))
              .flatMap(List::stream)
              .toList());

  public final MosaicTable table;
  public final DevicePool pool;

  /** Every row, as {@link TableRoundTripTest#values} gives them. */
  public final List<List<Object>> rows;

  private MixedTable(MosaicTable table, DevicePool pool, List<List<Object>> rows) {
    this.table = table;
    this.pool = pool;
    this.rows = rows;
  }

  /** Creates the table {@code name} under {@code dir} on the four-device test pool there. */
  public static MixedTable create(Path dir, String name) throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, Integer.toString(ROW_GROUP_ROWS));
    for (int i = 0; i < SCHEMA.columns().size(); i++) {
      props.put("column." + SCHEMA.columns().get(i).name() + ".device", TestPool.IDS[i % 4]);
    }
    MosaicTable table = MosaicTable.create(dir.resolve(name), pool, SCHEMA, props);
    List<List<Object>> rows = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      for (int a = 0; a < APPENDS; a++) {
        try (TableWriter writer = table.newWriter();
            VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
          fill(batch, a * ROWS_PER_APPEND, ROWS_PER_APPEND);
          rows.addAll(TableRoundTripTest.values(batch));
          writer.write(batch);
          table.append(List.of(writer.finish()));
        }
      }
    }
    return new MixedTable(table, pool, rows);
  }

  private static void fill(VectorSchemaRoot root, int first, int count) {
    root.allocateNew();
    List<FieldVector> vectors = root.getFieldVectors();
    for (int i = 0; i < count; i++) {
      int k = first + i;
      for (int c = 0; c < vectors.size(); c++) {
        ColumnSpec column = SCHEMA.columns().get(c);
        if (column.nullable() && (k + c) % 7 == 0) {
          vectors.get(c).setNull(i);
        } else {
          set(vectors.get(c), column, i, k + 1000 * c, k);
        }
      }
    }
    root.setRowCount(count);
  }

  /** Sets value {@code i} of {@code v} from {@code k}, a number distinct per column and row. */
  private static void set(FieldVector v, ColumnSpec column, int i, int k, int row) {
    switch (column.type().kind()) {
      case BOOLEAN -> ((BitVector) v).setSafe(i, k % 3 == 0 ? 1 : 0);
      case INT8 -> ((TinyIntVector) v).setSafe(i, (byte) (k % 256 - 128));
      case INT16 -> ((SmallIntVector) v).setSafe(i, (short) (k * 7 % 60_000 - 30_000));
      case INT32 -> ((IntVector) v).setSafe(i, k * 31 - 1_000_000);
      case INT64 -> ((BigIntVector) v).setSafe(i, (long) k * 1_000_000_007L - (1L << 40));
      case FLOAT -> ((Float4Vector) v).setSafe(i, k / 7f);
      case DOUBLE ->
          ((Float8Vector) v)
              .setSafe(
                  i,
                  row == 5
                      ? Double.POSITIVE_INFINITY
                      : row == 6 ? Double.NEGATIVE_INFINITY : -k / 3.0);
      case DECIMAL ->
          ((DecimalVector) v)
              .setSafe(
                  i,
                  BigDecimal.valueOf((long) k * 1001L - 50_000, column.type().scale())
                      .add(
                          column.type().precision() > 30
                              ? new BigDecimal("-12345678901234567890")
                              : BigDecimal.ZERO));
      case DATE -> ((DateDayVector) v).setSafe(i, 19_000 + k % 3000);
      case TIMESTAMP ->
          ((TimeStampMicroTZVector) v).setSafe(i, 1_700_000_000_000_000L + k * 1_000_003L);
      case STRING ->
          ((VarCharVector) v).setSafe(i, ("ünï " + k % 1000).getBytes(StandardCharsets.UTF_8));
      case BINARY -> ((VarBinaryVector) v).setSafe(i, new byte[] {(byte) k, 0, (byte) (k >> 8)});
    }
  }
}
