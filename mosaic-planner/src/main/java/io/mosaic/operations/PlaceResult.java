package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.BOOLEAN;
import static io.mosaic.operations.ResultColumn.Type.DOUBLE;
import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;

import java.util.Arrays;
import java.util.List;

/**
 * What {@code place} planned and, when asked, applied: one row per column, plus the figures of the
 * whole plan (repeated on every row of a result set, see {@link #COLUMNS}).
 *
 * @param strategy the strategy's name as the user gives it ({@link
 *     io.mosaic.placement.StrategyName#spelling()})
 * @param solver the strategy's own name for printing ("LOPT", "HOT column")
 * @param columns one row per column, in the tables' schema order
 * @param predictedSecondsBefore the recorded workload's predicted scan time now (Eq. 4)
 * @param predictedSecondsAfter the same under the plan
 * @param scansRecorded distinct scans in the tables' current trace epochs
 * @param scansPlanned distinct scans the solver saw (fewer when sampled, Section 5.5)
 * @param devicesUsed devices that hold data under the plan
 * @param worstScanRatio the largest planned/current time of any recorded scan (at most 1 plus the
 *     no-regression bound when one was set, Section 5.4); NaN when no scan reads data now
 * @param bytesToMove stored bytes the plan writes to other devices
 * @param gap LOPT's optimality gap, NaN when the strategy has none
 * @param measuredQuerySeconds the engine queries' own times the trace recorded, in all; NaN when no
 *     query was timed (docs/cost-model.md, "Predicted query time")
 * @param predictedQuerySecondsAfter the recorded workload as whole queries under the plan: its
 *     predicted scans plus the timed queries' time outside their scans; NaN when none was timed
 */
public record PlaceResult(
    String strategy,
    String solver,
    List<ColumnRow> columns,
    double predictedSecondsBefore,
    double predictedSecondsAfter,
    int scansRecorded,
    int scansPlanned,
    int devicesUsed,
    double worstScanRatio,
    long bytesToMove,
    double gap,
    double measuredQuerySeconds,
    double predictedQuerySecondsAfter) {

  /**
   * One column of the plan.
   *
   * @param storedBytes the column's stored bytes on the planned device
   * @param applied whether this call moved it there
   * @param traceEpoch the trace epoch applying started for the column's table, null if none
   */
  public record ColumnRow(
      String table,
      String column,
      String currentDevice,
      String plannedDevice,
      boolean pinned,
      long storedBytes,
      boolean applied,
      Integer traceEpoch) {
    public boolean moves() {
      return !plannedDevice.equals(currentDevice);
    }
  }

  /** The result set's columns, the same in Spark's {@code CALL} and Trino's {@code $plan}. */
  public static final List<ResultColumn> COLUMNS =
      List.of(
          ResultColumn.of("table_name", STRING),
          ResultColumn.of("column_name", STRING),
          ResultColumn.of("strategy", STRING),
          ResultColumn.of("current_device", STRING),
          ResultColumn.of("planned_device", STRING),
          ResultColumn.of("pinned", BOOLEAN),
          ResultColumn.of("moves", BOOLEAN),
          ResultColumn.of("stored_bytes", LONG),
          ResultColumn.of("applied", BOOLEAN),
          ResultColumn.of("predicted_seconds_before", DOUBLE),
          ResultColumn.of("predicted_seconds_after", DOUBLE),
          ResultColumn.of("scans_recorded", INT),
          ResultColumn.of("scans_planned", INT),
          ResultColumn.of("devices_used", INT),
          ResultColumn.nullable("worst_scan_ratio", DOUBLE),
          ResultColumn.nullable("measured_query_seconds", DOUBLE),
          ResultColumn.nullable("predicted_query_seconds_after", DOUBLE),
          ResultColumn.nullable("trace_epoch", INT));

  public PlaceResult {
    columns = List.copyOf(columns);
  }

  /** Whether this call moved any column. */
  public boolean applied() {
    return columns.stream().anyMatch(ColumnRow::applied);
  }

  /** The rows of the result set, each in the order of {@link #COLUMNS}. */
  public List<List<Object>> rows() {
    return columns.stream()
        .map(
            c ->
                Arrays.<Object>asList(
                    c.table(),
                    c.column(),
                    strategy,
                    c.currentDevice(),
                    c.plannedDevice(),
                    c.pinned(),
                    c.moves(),
                    c.storedBytes(),
                    c.applied(),
                    predictedSecondsBefore,
                    predictedSecondsAfter,
                    scansRecorded,
                    scansPlanned,
                    devicesUsed,
                    Double.isNaN(worstScanRatio) ? null : worstScanRatio,
                    Double.isNaN(measuredQuerySeconds) ? null : measuredQuerySeconds,
                    Double.isNaN(predictedQuerySecondsAfter) ? null : predictedQuerySecondsAfter,
                    c.traceEpoch()))
        .toList();
  }
}
