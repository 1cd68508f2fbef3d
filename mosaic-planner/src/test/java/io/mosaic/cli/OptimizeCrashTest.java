package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.table.CrashSafetyTest;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of {@code mosaic optimize} (docs/operations.md, "Compaction"): the CLI in a child
 * JVM killed with SIGKILL at the compaction's named points and at random moments, then run again to
 * its end. After every kill the table holds every row in its order, and gc leaves no file the
 * latest version does not reference; the compaction commits exactly one version.
 */
class OptimizeCrashTest {
  private static final int BATCHES = 3;

  @TempDir Path dir;

  /** Three appends of 3,000 rows in row groups of 2,000: 6 row groups where 5 hold the rows. */
  private static long setUp(Path root) throws IOException {
    Files.createDirectories(root);
    DevicePool pool = TestPool.fourDevices(root);
    Manifest m = CrashWorkload.table(root.resolve("t"), pool, BATCHES).latest();
    assertThat(m.rowGroups()).hasSize(6);
    return m.version();
  }

  @Test
  void killedAtNamedPointsTheTableKeepsItsRowsAndOneVersionIsCommitted() throws Exception {
    Path root = dir.resolve("named");
    long base = setUp(root);
    // Before the commit each kill leaves the old version (and partial files for gc); the kill
    // right after the publish leaves the compacted one, which the next run finds compact.
    record Kill(String point, int nth, long versionsAfter) {}
    for (Kill k :
        List.of(
            new Kill("row-group-written", 2, 0),
            new Kill("segment-finished", 3, 0),
            new Kill("optimize-written", 1, 0),
            new Kill("manifest-published", 1, 1))) {
      KilledCli.Run run =
          optimize(
              root,
              List.of("-Dmosaic.crash.at=" + k.nth(), "-Dmosaic.crash.name=" + k.point()),
              -1);
      assertThat(run.crashPoint()).as("%s reached: %s", k, run.output()).isEqualTo(k.point());
      assertThat(latest(root).version()).as("%s: versions", k).isEqualTo(base + k.versionsAfter());
      CrashSafetyTest.check(root, batches(), 0);
    }
    KilledCli.Run again = optimize(root, List.of(), -1);
    assertThat(String.join("\n", again.output())).contains("optimize t: nothing to do");
    assertThat(latest(root).rowGroups()).containsExactly(2000L, 2000L, 2000L, 2000L, 1000L);

    // Killed after the commit, before the old segments are retired: gc takes them.
    Path after = dir.resolve("after-commit");
    long afterBase = setUp(after);
    KilledCli.Run killed =
        optimize(
            after, List.of("-Dmosaic.crash.at=1", "-Dmosaic.crash.name=optimize-committed"), -1);
    assertThat(killed.crashPoint()).isEqualTo("optimize-committed");
    assertThat(latest(after).version()).isEqualTo(afterBase + 1);
    CrashSafetyTest.check(after, batches(), 0);
  }

  @Test
  void killedAtRandomPointsTheNextRunFinishesTheCompaction() throws Exception {
    Random random = new Random(7);
    int killedBeforeCommit = 0;
    for (int round = 0; round < 3; round++) {
      Path root = dir.resolve("random-" + round);
      long base = setUp(root);
      // The n-th crash point of any name: a compaction of this table passes about 17 (segments
      // created, row groups written, segments finished, the commit's); past the last it ends.
      KilledCli.Run run =
          optimize(root, List.of("-Dmosaic.crash.at=" + (1 + random.nextInt(17))), -1);
      long versions = latest(root).version() - base;
      assertThat(versions).as("round %d: versions committed", round).isBetween(0L, 1L);
      if (run.killed() && versions == 0) {
        killedBeforeCommit++;
      }
      CrashSafetyTest.check(root, batches(), round);
      KilledCli.Run finish = optimize(root, List.of(), -1);
      assertThat(finish.killed()).isFalse();
      Manifest m = latest(root);
      assertThat(m.version()).as("round %d: one compaction", round).isEqualTo(base + 1);
      assertThat(m.operation()).isEqualTo("optimize");
      assertThat(m.rowGroups()).hasSize(5);
      CrashSafetyTest.check(root, batches(), round);
    }
    assertThat(killedBeforeCommit).as("kills before the commit").isPositive();
  }

  @Test
  void killedAtATimedMomentTheTableKeepsItsRows() throws Exception {
    Path root = dir.resolve("timed");
    long base = setUp(root);
    optimize(root, List.of(), new Random(11).nextInt(300));
    assertThat(latest(root).version() - base).isBetween(0L, 1L);
    CrashSafetyTest.check(root, batches(), 0);
  }

  private static List<List<List<Object>>> batches() {
    List<List<List<Object>>> batches = new ArrayList<>();
    for (int b = 0; b < BATCHES; b++) {
      batches.add(CrashWorkload.rows(b));
    }
    return batches;
  }

  private static Manifest latest(Path root) {
    return MosaicTable.open(root.resolve("t"), DevicePool.load(root.resolve("devices.toml")))
        .latest();
  }

  /** {@code mosaic optimize} on {@code root/t} in a new JVM ({@link KilledCli#run}). */
  private static KilledCli.Run optimize(Path root, List<String> jvmOptions, int killAfterMillis)
      throws Exception {
    return KilledCli.run(
        jvmOptions,
        List.of(
            "optimize",
            "--devices",
            root.resolve("devices.toml").toString(),
            "--table",
            root.resolve("t").toString()),
        "optimize: ",
        killAfterMillis);
  }
}
