package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.BOOLEAN;
import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;

import io.mosaic.maintenance.Migrator;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code move} did (or, in a dry run, would do): one row per column that moves.
 *
 * @param plan core's segment moves, for a front end that prints them
 * @param version the table's version after the move (its base version in a dry run)
 */
public record MoveResult(String table, List<ColumnRow> columns, Migrator.Plan plan, long version) {

  /**
   * One moving column.
   *
   * @param fromDevices the devices its segments leave, comma-separated
   * @param bytesRead the bytes read from them
   * @param storedBytes its file bytes after the move (the estimate in a dry run)
   * @param traceEpoch the trace epoch the move started, null in a dry run
   */
  public record ColumnRow(
      String column,
      String fromDevices,
      String toDevice,
      int segments,
      long bytesRead,
      long storedBytes,
      boolean applied,
      Integer traceEpoch) {}

  public static final List<ResultColumn> COLUMNS =
      List.of(
          ResultColumn.of("table_name", STRING),
          ResultColumn.of("column_name", STRING),
          ResultColumn.of("from_device", STRING),
          ResultColumn.of("to_device", STRING),
          ResultColumn.of("segments", INT),
          ResultColumn.of("bytes_read", LONG),
          ResultColumn.of("stored_bytes", LONG),
          ResultColumn.of("applied", BOOLEAN),
          ResultColumn.nullable("trace_epoch", INT));

  public MoveResult {
    columns = List.copyOf(columns);
  }

  public boolean applied() {
    return columns.stream().anyMatch(ColumnRow::applied);
  }

  public List<List<Object>> rows() {
    return columns.stream()
        .map(
            c ->
                Arrays.<Object>asList(
                    table,
                    c.column(),
                    c.fromDevices(),
                    c.toDevice(),
                    c.segments(),
                    c.bytesRead(),
                    c.storedBytes(),
                    c.applied(),
                    c.traceEpoch()))
        .toList();
  }
}
