package io.mosaic.tpch;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.GeneratedTableLoader;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The TPC-H tables of the {@code io.trino.tpch} generator as Mosaic tables: TPC-H's column names
 * and types (keys int64, integers int32, prices and quantities decimal(12,2), dates, strings).
 */
public final class TpchTables {
  private TpchTables() {}

  public static TableSchema schema(TpchTable<?> table) {
    return new TableSchema(
        table.getColumns().stream()
            .map(c -> new ColumnSpec(c.getColumnName(), type(c), false))
            .toList());
  }

  static ColumnType type(TpchColumn<?> column) {
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> ColumnType.of(ColumnType.Kind.INT64);
      case INTEGER -> ColumnType.of(ColumnType.Kind.INT32);
      case DATE -> ColumnType.of(ColumnType.Kind.DATE);
      case DOUBLE -> ColumnType.decimal(12, 2);
      case VARCHAR -> ColumnType.of(ColumnType.Kind.STRING);
    };
  }

  /** The value of one column of one row, as Arrow's {@code getObject} returns it. */
  public static <E extends TpchEntity> Object value(TpchColumn<E> column, E row) {
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> column.getIdentifier(row);
      case INTEGER -> column.getInteger(row);
      case DATE -> column.getDate(row);
      case DOUBLE -> BigDecimal.valueOf(Math.round(column.getDouble(row) * 100), 2);
      case VARCHAR -> column.getString(row);
    };
  }

  /**
   * Generates {@code table} at scale {@code sf} into a new Mosaic table at {@code root}, in one
   * writer and one commit; {@code progress} gets the rows written so far.
   */
  public static <E extends TpchEntity> MosaicTable load(
      TpchTable<E> table,
      double sf,
      Path root,
      DevicePool pool,
      Map<String, String> properties,
      LongConsumer progress)
      throws IOException {
    return load(
        table, table.createGenerator(sf, 1, 1).iterator(), root, pool, properties, progress);
  }

  /**
   * As {@link #load(TpchTable, double, Path, DevicePool, Map, LongConsumer)}, with the rows written
   * in {@code order} (e.g. by date, as a table that grows by appends over time is laid out); the
   * generated rows are held in memory to be sorted.
   */
  public static <E extends TpchEntity> MosaicTable load(
      TpchTable<E> table,
      double sf,
      Path root,
      DevicePool pool,
      Map<String, String> properties,
      LongConsumer progress,
      java.util.Comparator<? super E> order)
      throws IOException {
    List<E> rows = new java.util.ArrayList<>();
    table.createGenerator(sf, 1, 1).forEach(rows::add);
    rows.sort(order);
    return load(table, rows.iterator(), root, pool, properties, progress);
  }

  private static <E extends TpchEntity> MosaicTable load(
      TpchTable<E> table,
      java.util.Iterator<E> rows,
      Path root,
      DevicePool pool,
      Map<String, String> properties,
      LongConsumer progress)
      throws IOException {
    List<TpchColumn<E>> columns = table.getColumns();
    return GeneratedTableLoader.load(
        schema(table),
        rows,
        (batch, n, row) -> {
          for (int c = 0; c < columns.size(); c++) {
            set(batch, c, n, columns.get(c), row);
          }
        },
        root,
        pool,
        properties,
        progress);
  }

  private static <E extends TpchEntity> void set(
      VectorSchemaRoot batch, int c, int n, TpchColumn<E> column, E row) {
    switch (column.getType().getBase()) {
      case IDENTIFIER -> ((BigIntVector) batch.getVector(c)).setSafe(n, column.getIdentifier(row));
      case INTEGER -> ((IntVector) batch.getVector(c)).setSafe(n, column.getInteger(row));
      case DATE -> ((DateDayVector) batch.getVector(c)).setSafe(n, column.getDate(row));
      case DOUBLE ->
          ((DecimalVector) batch.getVector(c))
              .setSafe(n, BigDecimal.valueOf(Math.round(column.getDouble(row) * 100), 2));
      case VARCHAR ->
          ((VarCharVector) batch.getVector(c))
              .setSafe(n, column.getString(row).getBytes(StandardCharsets.UTF_8));
    }
  }
}
