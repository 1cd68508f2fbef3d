package io.mosaic.design;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TestPool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persisted queue keeps step kinds and reads the queues written before them
 * (docs/physical-design.md).
 */
class MoveQueueTest {
  @TempDir Path dir;

  @Test
  void aQueueWrittenBeforeStepKindsHoldsMovesAndKindsRoundTrip() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    // As the executor wrote it before codec changes and re-sorts.
    Files.writeString(
        MoveQueue.file(table),
        """
        {"table": "t", "state": "paused", "shape": "constant", "rate": 1000.0,
         "fullRate": 2000.0, "workingSetBytes": 0, "reason": "old",
         "steps": [{"column": "k", "from": "nvme", "to": "hdd", "writeBytes": 10,
                    "gainSeconds": 1.5, "state": "done", "committedVersion": 3}]}
        """,
        StandardCharsets.UTF_8);
    MoveQueue old = MoveQueue.read(table).orElseThrow();
    assertThat(old.steps()).hasSize(1);
    assertThat(old.steps().get(0).kind()).isEqualTo(StepKind.MOVE);
    assertThat(old.steps().get(0).codec()).isNull();
    assertThat(old.steps().get(0).target()).isEqualTo("hdd");

    List<MoveQueue.Step> steps =
        List.of(
            old.steps().get(0),
            new MoveQueue.Step(
                "v",
                "ssd",
                "ssd",
                20,
                2,
                MoveQueue.StepState.PENDING,
                0,
                StepKind.CODEC,
                Codec.ZSTD),
            new MoveQueue.Step(
                "d",
                MoveStep.ALL_DEVICES,
                MoveStep.ALL_DEVICES,
                30,
                3,
                MoveQueue.StepState.PENDING,
                0,
                StepKind.SORT,
                null));
    MoveQueue queue =
        new MoveQueue(
            "t",
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            1000,
            2000,
            0,
            Map.of(),
            steps,
            "new",
            null);
    queue.write(table);
    assertThat(Files.readString(MoveQueue.file(table))).contains("\"kind\" : \"codec\"");
    MoveQueue read = MoveQueue.read(table).orElseThrow();
    assertThat(read).isEqualTo(queue);
    assertThat(read.steps().get(1).target()).isEqualTo("ssd (zstd)");
    assertThat(read.steps().get(2).target()).isEqualTo("sorted by d");
  }

  @Test
  void progressRoundTripsAndTheViewCountsTheStepInFlightWhileItRuns() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    // A queue written before progress was kept: no predictions, nothing measured; the ETA is at
    // the configured rate.
    Files.writeString(
        MoveQueue.file(table),
        """
        {"table": "t", "state": "running", "shape": "constant", "rate": 1000.0,
         "fullRate": 2000.0, "workingSetBytes": 0, "reason": "old",
         "steps": [{"column": "k", "from": "nvme", "to": "hdd", "writeBytes": 1000,
                    "gainSeconds": 1.5, "state": "done", "committedVersion": 3},
                   {"column": "v", "from": "nvme", "to": "hdd", "writeBytes": 3000,
                    "gainSeconds": 0.5, "state": "pending", "committedVersion": 0}]}
        """,
        StandardCharsets.UTF_8);
    MoveQueue old = MoveQueue.read(table).orElseThrow();
    assertThat(old.progress()).isNull();
    assertThat(old.predictedSecondsNow()).isNaN();
    assertThat(old.measuredRate()).isNaN();
    assertThat(old.bytesCopied()).isEqualTo(1000);
    assertThat(old.etaSeconds()).isEqualTo(3.0);

    List<MoveQueue.Step> steps =
        List.of(
            new MoveQueue.Step(
                "k",
                "nvme",
                "hdd",
                1000,
                1.5,
                MoveQueue.StepState.DONE,
                3,
                StepKind.MOVE,
                null,
                8.5),
            new MoveQueue.Step(
                "v",
                "nvme",
                "hdd",
                3000,
                0.5,
                MoveQueue.StepState.PENDING,
                0,
                StepKind.MOVE,
                null,
                8.0));
    MoveQueue queue =
        new MoveQueue(
            "t",
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            1000,
            2000,
            0,
            Map.of(),
            steps,
            "new",
            null,
            10.0,
            new MoveQueue.Progress(1, 500, 1_700_000_000_000L, 250.0));
    queue.write(table);
    MoveQueue read = MoveQueue.read(table).orElseThrow();
    assertThat(read).isEqualTo(queue);
    assertThat(read.stepBytesDone(0)).isEqualTo(1000);
    assertThat(read.stepBytesDone(1)).isEqualTo(500);
    assertThat(read.bytesCopied()).isEqualTo(1500);
    assertThat(read.etaSeconds()).isEqualTo(2500 / 250.0);
    assertThat(read.predictedSecondsNow()).isEqualTo(8.5);
    // Paused, the step in flight's partial copy is gone: only the done steps count.
    MoveQueue paused = read.withState(MoveQueue.State.PAUSED, null);
    assertThat(paused.bytesCopied()).isEqualTo(1000);
    assertThat(paused.etaSeconds()).isEqualTo(3000 / 250.0);
    // Before any step, the workload's time is the proposal's starting one.
    MoveQueue.Step first = steps.get(0);
    MoveQueue fresh =
        new MoveQueue(
            "t",
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            1000,
            2000,
            0,
            Map.of(),
            List.of(
                new MoveQueue.Step(
                    first.column(),
                    first.from(),
                    first.to(),
                    1000,
                    1.5,
                    MoveQueue.StepState.PENDING,
                    0,
                    StepKind.MOVE,
                    null,
                    8.5)),
            "new",
            null,
            10.0,
            null);
    assertThat(fresh.predictedSecondsNow()).isEqualTo(10.0);
    // A change under the lock keeps what it does not touch.
    assertThat(MoveQueue.update(table, q -> q.withState(MoveQueue.State.PAUSED, null)))
        .hasValue(paused);
    assertThat(MoveQueue.read(table)).hasValue(paused);
  }
}
