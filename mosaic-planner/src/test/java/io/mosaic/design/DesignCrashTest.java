package io.mosaic.design;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.cli.KilledCli;
import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.table.CrashSafetyTest;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of a transformation (docs/physical-design.md, "Crashes and restarts"): {@code mosaic
 * maintain --resume} runs a table's move queue in a child JVM that is killed with SIGKILL, at the
 * executor's and the migrator's named points and at random moments, then resumed in fresh JVMs
 * until it is done. Every row of every column must equal what was written, every column must end on
 * its step's target, every step must have committed exactly one version (none copied twice after
 * its commit, even when the kill fell between the commit and the queue's write), and gc must leave
 * no file the table does not reference on any device. Uses core's crash helpers (its test-jar).
 */
class DesignCrashTest {
  private static final int BATCHES = 3;

  // CrashWorkload places k, v, s, d on nvme, ssd, raid, hdd; every step changes device and codec.
  private static final Map<String, String> TARGET = new LinkedHashMap<>();

  static {
    TARGET.put("k", "hdd");
    TARGET.put("v", "nvme");
    TARGET.put("s", "ssd");
    TARGET.put("d", "raid");
  }

  @TempDir Path dir;

  @Test
  void killedAtNamedPointsTheResumeDoesEveryStepOnce() throws Exception {
    Path root = dir.resolve("named");
    long base = setUp(root, 0); // unpaced: the named points decide where each process stops
    // One transformation, resumed by a new JVM after each kill, each killed at its own point. The
    // n-th point counts in that JVM only; a step found committed on resume passes its points again.
    record Kill(String point, int nth, int versionsAfter, int stepsDone) {}
    List<Kill> kills =
        List.of(
            // Step 1 committed, the queue still says pending: the resume must not copy it again.
            new Kill("design-step-committed", 1, 1, 0),
            // Step 1 recorded again, step 2 committed and recorded.
            new Kill("design-queue-written", 2, 2, 2),
            // Step 3 halfway through its segments: partial files, nothing committed.
            new Kill("segment-moved", 2, 2, 2),
            // Step 3 committed by the migrator, before the executor sees it.
            new Kill("column-committed", 1, 3, 2),
            // Step 3 recorded, the last step committed and not recorded.
            new Kill("design-step-committed", 2, 4, 3));
    for (Kill k : kills) {
      KilledCli.Run run =
          maintain(
              root,
              List.of("-Dmosaic.crash.at=" + k.nth(), "-Dmosaic.crash.name=" + k.point()),
              -1);
      assertThat(run.crashPoint()).as("%s reached: %s", k, run.output()).isEqualTo(k.point());
      MoveQueue q = queue(root);
      assertThat(MosaicTable.open(root.resolve("t"), pool(root)).latest().version())
          .as("%s: versions committed", k)
          .isEqualTo(base + k.versionsAfter());
      assertThat(q.steps().stream().filter(s -> s.state() == MoveQueue.StepState.DONE).count())
          .as("%s: steps the queue says are done", k)
          .isEqualTo(k.stepsDone());
      assertThat(q.state()).as("%s: the queue", k).isEqualTo(MoveQueue.State.RUNNING);
    }
    resumeUntilDone(root, "after the named kills");
    check(root, base, "after the named kills");
  }

  @Test
  void killedAtRandomMomentsTheResumeDoesEveryStepOnce() throws Exception {
    int kills = 0;
    int killedMidway = 0;
    for (long seed = 2; seed <= 3; seed++) {
      Random random = new Random(seed);
      Path root = dir.resolve("seed-" + seed);
      // Paced so that the whole transformation takes about 1.5 s: a kill lands inside it.
      long base = setUp(root, 1.5);
      for (int k = 0; k < 2; k++) {
        // The first kill counts from step 2's start, within the paced time left, so that step 1 is
        // done and some step is not, however slowly a loaded machine runs step 1; the second from
        // the resumed run's first step, anywhere.
        KilledCli.Run run =
            k == 0
                ? maintain(root, List.of(), "step 2:", random.nextInt(800))
                : maintain(root, List.of(), "step ", random.nextInt(1_500));
        if (run.killed()) {
          kills++;
          MoveQueue q = queue(root);
          long stepsDone =
              q.steps().stream().filter(s -> s.state() == MoveQueue.StepState.DONE).count();
          if (stepsDone > 0 && stepsDone < q.steps().size()) {
            killedMidway++;
          }
        }
      }
      resumeUntilDone(root, "seed " + seed);
      check(root, base, "seed " + seed);
    }
    // Most kills must fall inside the transformations for the test to show anything.
    assertThat(kills).as("processes killed").isGreaterThanOrEqualTo(2);
    assertThat(killedMidway).as("kills leaving some steps done and some pending").isPositive();
  }

  /**
   * Transformations other than moves (docs/physical-design.md) killed at their points: a codec
   * change of v (lz4 on ssd to zstd there), a re-sort by d (the rows' order already, so every row
   * must come back in the same order), and a move of k to hdd. Each step commits one version and
   * none is done twice.
   */
  @Test
  void aCodecChangeAndAReSortKilledAtTheirPointsAreDoneOnce() throws Exception {
    Path root = dir.resolve("transforms");
    Files.createDirectories(root);
    DevicePool pool = TestPool.fourDevices(root);
    MosaicTable table = CrashWorkload.table(root.resolve("t"), pool, BATCHES);
    Manifest m = table.latest();
    long base = m.version();
    long bytes = m.segments().stream().mapToLong(SegmentEntry::fileBytes).sum();
    List<MoveQueue.Step> steps =
        List.of(
            new MoveQueue.Step(
                "v",
                "ssd",
                "ssd",
                bytes / 4,
                1.0,
                MoveQueue.StepState.PENDING,
                0,
                StepKind.CODEC,
                Codec.ZSTD),
            new MoveQueue.Step(
                "d",
                MoveStep.ALL_DEVICES,
                MoveStep.ALL_DEVICES,
                bytes,
                1.0,
                MoveQueue.StepState.PENDING,
                0,
                StepKind.SORT,
                null),
            new MoveQueue.Step("k", "nvme", "hdd", bytes / 4, 1.0, MoveQueue.StepState.PENDING, 0));
    new MoveQueue(
            table.name(),
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            1e15,
            1e15,
            0,
            Map.of(),
            steps,
            "a test transformation",
            null)
        .write(table);
    record Kill(String point, int versionsAfter, int stepsDone) {}
    List<Kill> kills =
        List.of(
            // The codec change halfway through v's segments: nothing committed.
            new Kill("segment-moved", 0, 0),
            // The codec change committed, not recorded.
            new Kill("column-committed", 1, 0),
            // Recorded on resume without a rewrite; the re-sort's files written, not committed.
            new Kill("sort-written", 1, 1),
            // The re-sort committed, its old segments not yet retired.
            new Kill("sort-committed", 2, 1),
            // Found committed on resume (clustering recorded, rows in order), not yet recorded.
            new Kill("design-step-committed", 2, 1));
    for (Kill k : kills) {
      KilledCli.Run run =
          maintain(root, List.of("-Dmosaic.crash.at=1", "-Dmosaic.crash.name=" + k.point()), -1);
      assertThat(run.crashPoint()).as("%s reached: %s", k, run.output()).isEqualTo(k.point());
      assertThat(MosaicTable.open(root.resolve("t"), pool(root)).latest().version())
          .as("%s: versions committed", k)
          .isEqualTo(base + k.versionsAfter());
      assertThat(
              queue(root).steps().stream()
                  .filter(s -> s.state() == MoveQueue.StepState.DONE)
                  .count())
          .as("%s: steps the queue says are done", k)
          .isEqualTo(k.stepsDone());
    }
    KilledCli.Run done = maintain(root, List.of(), -1);
    assertThat(String.join("\n", done.output()))
        .containsPattern("transformation of t: done, 3 of 3 steps done");
    Manifest after = MosaicTable.open(root.resolve("t"), pool(root)).latest();
    assertThat(after.version()).isEqualTo(base + 3);
    MoveQueue q = queue(root);
    for (int i = 0; i < 3; i++) {
      assertThat(q.steps().get(i).committedVersion()).as("step %d", i + 1).isEqualTo(base + i + 1);
      assertThat(q.steps().get(i).kind()).isEqualTo(steps.get(i).kind());
    }
    assertThat(after.segmentsOf("v"))
        .allMatch(s -> s.codec() == Codec.ZSTD && s.device().equals("ssd"));
    assertThat(after.properties())
        .containsEntry(TableProperties.CLUSTERING, "d")
        .containsEntry(MosaicTable.codecProperty("v"), "zstd");
    assertThat(after.segmentsOf("k")).allMatch(s -> s.device().equals("hdd"));
    List<List<List<Object>>> batches = new ArrayList<>();
    for (int b = 0; b < BATCHES; b++) {
      batches.add(CrashWorkload.rows(b));
    }
    CrashSafetyTest.check(root, batches, 0);
  }

  /**
   * A table of {@value #BATCHES} batches at {@code root/t} with a running queue moving each column
   * to {@link #TARGET}, paced to take about {@code seconds} (0: unpaced); returns the table's
   * version before the transformation.
   */
  private static long setUp(Path root, double seconds) throws IOException {
    Files.createDirectories(root);
    DevicePool pool = TestPool.fourDevices(root);
    MosaicTable table = CrashWorkload.table(root.resolve("t"), pool, BATCHES);
    Manifest m = table.latest();
    List<MoveQueue.Step> steps = new ArrayList<>();
    TARGET.forEach(
        (column, to) ->
            steps.add(
                new MoveQueue.Step(
                    column,
                    m.segmentsOf(column).get(0).device(),
                    to,
                    m.segmentsOf(column).stream().mapToLong(SegmentEntry::fileBytes).sum(),
                    1.0,
                    MoveQueue.StepState.PENDING,
                    0)));
    long bytes = steps.stream().mapToLong(MoveQueue.Step::writeBytes).sum();
    double rate = seconds > 0 ? bytes / seconds : 1e15;
    new MoveQueue(
            table.name(),
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            rate,
            rate,
            0,
            Map.of(),
            steps,
            "a test transformation",
            null)
        .write(table);
    return m.version();
  }

  private static DevicePool pool(Path root) {
    return DevicePool.load(root.resolve("devices.toml"));
  }

  private static MoveQueue queue(Path root) {
    return MoveQueue.read(MosaicTable.open(root.resolve("t"), pool(root))).orElseThrow();
  }

  /**
   * {@code mosaic maintain --resume} in a new JVM ({@link KilledCli#run}), killed at the crash
   * point its options name, or {@code killAfterMillis} after its first step started; {@code -1}
   * lets it run to its end or its crash point.
   */
  private static KilledCli.Run maintain(Path root, List<String> jvmOptions, int killAfterMillis)
      throws Exception {
    return maintain(root, jvmOptions, "step ", killAfterMillis);
  }

  /** As above, killed {@code killAfterMillis} after a line starting with {@code started}. */
  private static KilledCli.Run maintain(
      Path root, List<String> jvmOptions, String started, int killAfterMillis) throws Exception {
    return KilledCli.run(
        jvmOptions,
        List.of(
            "maintain",
            "--devices",
            root.resolve("devices.toml").toString(),
            "--table",
            root.resolve("t").toString(),
            "--resume"),
        started,
        killAfterMillis);
  }

  /** Resumes in fresh JVMs until the queue is done (one run should do). */
  private static void resumeUntilDone(Path root, String what) throws Exception {
    KilledCli.Run run = maintain(root, List.of(), -1);
    assertThat(String.join("\n", run.output()))
        .as("%s: the resume", what)
        .containsPattern("transformation of t: done, 4 of 4 steps done");
    assertThat(queue(root).state()).as(what).isEqualTo(MoveQueue.State.DONE);
  }

  private static void check(Path root, long base, String what) throws IOException {
    MosaicTable table = MosaicTable.open(root.resolve("t"), pool(root));
    Manifest m = table.latest();
    MoveQueue q = queue(root);
    // Each step committed exactly one version, in order: a step copied again after its commit
    // would have committed another.
    assertThat(m.version())
        .as("%s: versions after v%d", what, base)
        .isEqualTo(base + TARGET.size());
    for (int i = 0; i < q.steps().size(); i++) {
      MoveQueue.Step s = q.steps().get(i);
      assertThat(s.state()).as("%s: step %d", what, i + 1).isEqualTo(MoveQueue.StepState.DONE);
      assertThat(s.committedVersion())
          .as("%s: step %d's version", what, i + 1)
          .isEqualTo(base + i + 1);
      assertThat(m.segmentsOf(s.column()))
          .as("%s: %s's segments", what, s.column())
          .isNotEmpty()
          .allSatisfy(seg -> assertThat(seg.device()).isEqualTo(s.to()));
    }
    // Every row equal, every checksum intact, and nothing gc does not reference left on a device.
    List<List<List<Object>>> batches = new ArrayList<>();
    for (int b = 0; b < BATCHES; b++) {
      batches.add(CrashWorkload.rows(b));
    }
    CrashSafetyTest.check(root, batches, 0);
  }
}
