package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.DOUBLE;
import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;

import java.util.Arrays;
import java.util.List;

/**
 * What {@code maintain} and {@code moves} show: one row per step of the transformation (proposed,
 * or in the table's queue), with the transformation's state, the identification's reason and its
 * progress on every row.
 *
 * @param state {@code proposed} (a dry run or one that does not pay off), or the queue's state:
 *     running, paused, cancelled, done, failed
 */
public record MaintainResult(
    String table, String state, String reason, List<StepRow> steps, Progress progress) {

  /**
   * One step.
   *
   * @param savesSeconds what one run of the workload saves by it (given the steps before)
   * @param stepState pending or done
   * @param bytesDone the bytes it copied so far (all once done)
   * @param bytesLeft the bytes it has left to copy
   */
  public record StepRow(
      int step,
      String column,
      String fromDevice,
      String toDevice,
      long bytes,
      double savesSeconds,
      String stepState,
      long bytesDone,
      long bytesLeft) {}

  /**
   * The transformation's progress (docs/physical-design.md, "The progress view").
   *
   * @param bytesDone the bytes copied by the done steps and the step in flight
   * @param bytesLeft the bytes the steps have left ({@code bytesDone + bytesLeft} is their total)
   * @param rate the bytes per second measured since it started or resumed, null before any copy
   * @param etaSeconds the bytes left at the measured rate (the configured one before any), 0 once
   *     done, null once cancelled
   * @param predictedSecondsNow the predicted time of one workload run with the design as it is now
   *     (the last done step's), null for a queue written before predictions were kept
   */
  public record Progress(
      long bytesDone, long bytesLeft, Double rate, Double etaSeconds, Double predictedSecondsNow) {}

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
          ResultColumn.of("reason", STRING),
          ResultColumn.of("step_bytes_done", LONG),
          ResultColumn.of("step_bytes_left", LONG),
          ResultColumn.of("bytes_done", LONG),
          ResultColumn.of("bytes_left", LONG),
          ResultColumn.nullable("rate_bytes_per_second", DOUBLE),
          ResultColumn.nullable("eta_seconds", DOUBLE),
          ResultColumn.nullable("predicted_seconds_now", DOUBLE));

  public MaintainResult {
    steps = List.copyOf(steps);
  }

  /** A number for a result column: null when unknown (NaN). */
  static Double known(double value) {
    return Double.isNaN(value) || Double.isInfinite(value) ? null : value;
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
                    reason,
                    s.bytesDone(),
                    s.bytesLeft(),
                    progress.bytesDone(),
                    progress.bytesLeft(),
                    progress.rate(),
                    progress.etaSeconds(),
                    progress.predictedSecondsNow()))
        .toList();
  }
}
