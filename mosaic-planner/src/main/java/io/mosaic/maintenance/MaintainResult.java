package io.mosaic.maintenance;

import static io.mosaic.maintenance.ResultColumn.Type.DOUBLE;
import static io.mosaic.maintenance.ResultColumn.Type.INT;
import static io.mosaic.maintenance.ResultColumn.Type.LONG;
import static io.mosaic.maintenance.ResultColumn.Type.STRING;

import java.util.Arrays;
import java.util.List;

/**
 * What {@code maintain} shows: one row per step of the transformation (proposed, or in the table's
 * queue), with the transformation's state and the identification's reason on every row.
 *
 * @param state {@code proposed} (a dry run or one that does not pay off), or the queue's state:
 *     running, paused, cancelled, done, failed
 */
public record MaintainResult(String table, String state, String reason, List<StepRow> steps) {

  /**
   * One step.
   *
   * @param savesSeconds what one run of the workload saves by it (given the steps before)
   * @param stepState pending or done
   */
  public record StepRow(
      int step,
      String column,
      String fromDevice,
      String toDevice,
      long bytes,
      double savesSeconds,
      String stepState) {}

  public static final List<ResultColumn> COLUMNS =
      List.of(
          ResultColumn.of("table_name", STRING),
          ResultColumn.of("step", INT),
          ResultColumn.of("column_name", STRING),
          ResultColumn.of("from_device", STRING),
          ResultColumn.of("to_device", STRING),
          ResultColumn.of("bytes", LONG),
          ResultColumn.of("saves_seconds", DOUBLE),
          ResultColumn.of("step_state", STRING),
          ResultColumn.of("state", STRING),
          ResultColumn.of("reason", STRING));

  public MaintainResult {
    steps = List.copyOf(steps);
  }

  public List<List<Object>> rows() {
    return steps.stream()
        .map(
            s ->
                Arrays.<Object>asList(
                    table,
                    s.step(),
                    s.column(),
                    s.fromDevice(),
                    s.toDevice(),
                    s.bytes(),
                    s.savesSeconds(),
                    s.stepState(),
                    state,
                    reason))
        .toList();
  }
}
