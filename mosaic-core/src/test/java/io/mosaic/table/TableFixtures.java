package io.mosaic.table;

import io.mosaic.device.DevicePool;
import io.mosaic.format.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** TPC-H tables on the four-device test pool, for tests outside this package. */
public final class TableFixtures {
  private TableFixtures() {}

  public static DevicePool fourDevices(Path dir) {
    return TestPool.fourDevices(dir);
  }

  /** A vector value in the form {@link #values} uses (String for text, ByteBuffer for bytes). */
  public static Object plain(Object o) {
    return o instanceof org.apache.arrow.vector.util.Text t
        ? t.toString()
        : o instanceof byte[] b ? java.nio.ByteBuffer.wrap(b) : o;
  }

  public static List<List<Object>> values(VectorSchemaRoot root) {
    return TableRoundTripTest.values(root);
  }

  /** Lineitem at {@code sf}, optionally sorted by a column (-1: generator order). */
  public static MosaicTable lineitem(
      Path root, DevicePool pool, double sf, List<List<Object>> rows, int sortBy)
      throws IOException {
    try (BufferAllocator alloc = new RootAllocator()) {
      TpchBatches.lineitem(sf, 0, Long.MAX_VALUE, 8192, alloc, b -> rows.addAll(values(b)));
    }
    if (sortBy >= 0) {
      rows.sort(Comparator.comparing(r -> (Integer) r.get(sortBy)));
    }
    return write(root, pool, TpchBatches.LINEITEM, rows);
  }

  public static MosaicTable orders(Path root, DevicePool pool, double sf, List<List<Object>> rows)
      throws IOException {
    try (BufferAllocator alloc = new RootAllocator()) {
      TpchBatches.orders(sf, 8192, alloc, b -> rows.addAll(values(b)));
    }
    return write(root, pool, TpchBatches.ORDERS, rows);
  }

  /** Writes rows (Long, Integer, BigDecimal, String values) with one writer and one commit. */
  static MosaicTable write(Path root, DevicePool pool, TableSchema schema, List<List<Object>> rows)
      throws IOException {
    return write(root, pool, schema, rows, TableRoundTripTest.spread(schema));
  }

  /** The spread placement of {@link #write} ({@code TableRoundTripTest#spread}), for changes. */
  public static java.util.Map<String, String> spread(TableSchema schema) {
    return TableRoundTripTest.spread(schema);
  }

  /** As {@link #write}, with the table's properties given (row group size, placement). */
  public static MosaicTable write(
      Path root,
      DevicePool pool,
      TableSchema schema,
      List<List<Object>> rows,
      java.util.Map<String, String> properties)
      throws IOException {
    MosaicTable table = MosaicTable.create(root, pool, schema, properties);
    appendRows(table, schema, rows);
    return table;
  }

  /** Appends rows (as {@link #write} takes them) to {@code table} in one commit. */
  public static io.mosaic.format.Manifest appendRows(
      MosaicTable table, TableSchema schema, List<List<Object>> rows) throws IOException {
    return table.append(List.of(written(table, schema, rows)));
  }

  /** Writes rows (as {@link #write} takes them) as segments of {@code table}, uncommitted. */
  public static WriteResult written(MosaicTable table, TableSchema schema, List<List<Object>> rows)
      throws IOException {
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter()) {
      for (int from = 0; from < rows.size(); from += 8192) {
        try (VectorSchemaRoot batch =
            batch(schema, rows.subList(from, Math.min(rows.size(), from + 8192)), alloc)) {
          writer.write(batch);
        }
      }
      return writer.finish();
    }
  }

  /** One Arrow batch of {@code rows} (as {@link #write} takes them); the caller closes it. */
  public static VectorSchemaRoot batch(
      TableSchema schema, List<List<Object>> rows, BufferAllocator alloc) {
    int n = rows.size();
    VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc);
    batch.allocateNew();
    for (int c = 0; c < schema.columns().size(); c++) {
      FieldVector v = batch.getVector(c);
      for (int i = 0; i < n; i++) {
        Object value = rows.get(i).get(c);
        switch (schema.columns().get(c).type().kind()) {
          case INT64 -> ((BigIntVector) v).setSafe(i, (Long) value);
          case INT32 -> ((IntVector) v).setSafe(i, (Integer) value);
          case DATE -> ((DateDayVector) v).setSafe(i, (Integer) value);
          case DECIMAL -> ((DecimalVector) v).setSafe(i, (BigDecimal) value);
          default ->
              ((VarCharVector) v).setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    batch.setRowCount(n);
    return batch;
  }
}
