package io.mosaic.design;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.Codec;
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

/** The persisted queue keeps step kinds and reads the queues written before them (issue 25). */
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
}
