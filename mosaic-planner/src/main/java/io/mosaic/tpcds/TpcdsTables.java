package io.mosaic.tpcds;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.GeneratedTableLoader;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The TPC-DS tables of the {@code io.trino.tpcds} generator as Mosaic tables, typed as Trino's
 * tpcds connector types them: identifiers int64, integers int32, decimal(p,s), dates, and char,
 * varchar and time as strings. The generator yields rows of strings, {@code null} for SQL NULL.
 */
public final class TpcdsTables {
  private TpcdsTables() {}

  /** The 24 tables of the TPC-DS schema (the generator's {@code dbgen_version} is not one). */
  public static List<Table> tables() {
    return Table.getBaseTables().stream().filter(t -> t != Table.DBGEN_VERSION).toList();
  }

  public static TableSchema schema(Table table) {
    return new TableSchema(
        Arrays.stream(table.getColumns())
            .map(c -> new ColumnSpec(c.getName(), type(c), true))
            .toList());
  }

  static ColumnType type(Column column) {
    io.trino.tpcds.column.ColumnType type = column.getType();
    return switch (type.getBase()) {
      case IDENTIFIER -> ColumnType.of(ColumnType.Kind.INT64);
      case INTEGER -> ColumnType.of(ColumnType.Kind.INT32);
      case DATE -> ColumnType.of(ColumnType.Kind.DATE);
      case DECIMAL -> ColumnType.decimal(type.getPrecision().get(), type.getScale().get());
      case VARCHAR, CHAR, TIME -> ColumnType.of(ColumnType.Kind.STRING);
    };
  }

  /**
   * Generates {@code table} at scale {@code sf} into a new Mosaic table at {@code root}, in one
   * writer and one commit; {@code progress} gets the rows written so far.
   */
  public static MosaicTable load(
      Table table,
      double sf,
      Path root,
      DevicePool pool,
      Map<String, String> properties,
      LongConsumer progress)
      throws IOException {
    Column[] columns = table.getColumns();
    Session session = Session.getDefaultSession().withScale(sf).withTable(table);
    Iterator<List<List<String>>> rows = Results.constructResults(table, session).iterator();
    return GeneratedTableLoader.load(
        schema(table),
        rows,
        (batch, n, generated) -> {
          // Each generated row comes as a list: a parent's row with its children's (sales ->
          // returns) when a session generates every table; a one-table session yields just it.
          List<String> row = generated.get(0);
          for (int c = 0; c < columns.length; c++) {
            set(batch.getVector(c), n, columns[c], row.get(c));
          }
        },
        root,
        pool,
        properties,
        progress);
  }

  private static void set(FieldVector vector, int n, Column column, String value) {
    if (value == null) {
      vector.setNull(n);
      return;
    }
    switch (column.getType().getBase()) {
      case IDENTIFIER -> ((BigIntVector) vector).setSafe(n, Long.parseLong(value));
      case INTEGER -> ((IntVector) vector).setSafe(n, Integer.parseInt(value));
      case DATE -> ((DateDayVector) vector).setSafe(n, (int) LocalDate.parse(value).toEpochDay());
      case DECIMAL ->
          ((DecimalVector) vector)
              .setSafe(
                  n,
                  new BigDecimal(value)
                      .setScale(
                          column.getType().getScale().get(), java.math.RoundingMode.UNNECESSARY));
      case VARCHAR, CHAR, TIME ->
          ((VarCharVector) vector).setSafe(n, value.getBytes(StandardCharsets.UTF_8));
    }
  }
}
