package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CrashWorkload} killed at every table-level crash point it passes on a lock-free table on
 * local files (docs/format.md "Commits without POSIX locks"): after each kill the table reopens
 * with exactly the committed batches and takes a further commit.
 */
class LockFreeCrashTest {
  @TempDir Path dir;

  @Test
  void killedAtEveryCrashPointTheLockFreeTableStaysWhole() throws Exception {
    int points = run(dir.resolve("full"), 0).points;
    assertThat(points).as("crash points in the workload").isPositive();
    Set<String> names = new HashSet<>();
    for (int at = 1; at <= points; at++) {
      Path root = dir.resolve("kill-" + at);
      String point = run(root, at).point;
      assertThat(point).as("kill point %d was reached", at).isNotNull();
      names.add(point);
      DevicePool pool = DevicePool.load(root.resolve("devices.toml"));
      MosaicTable table = MosaicTable.open(CrashWorkload.lockFreeLog(root.resolve("t")), pool);
      Manifest m = table.latest();
      int committed = (int) (m.rowCount() / CrashWorkload.ROWS);
      assertThat(m.rowCount())
          .as("kill %d: whole batches", at)
          .isEqualTo(committed * (long) CrashWorkload.ROWS);
      int[] ids = new int[committed];
      for (int b = 0; b < committed; b++) {
        ids[b] = b;
      }
      try (BufferAllocator alloc = new RootAllocator()) {
        TableRoundTripTest.assertRowsEqual(table, m, CrashWorkload.rows(ids), alloc);
      }
      Manifest next = CrashWorkload.append(table, committed);
      assertThat(next.rowCount())
          .as("kill %d: a further commit", at)
          .isEqualTo(m.rowCount() + CrashWorkload.ROWS);
    }
    assertThat(names)
        .contains(
            "segment-created",
            "row-group-written",
            "segment-finished",
            "segment-moved",
            "column-committed");
  }

  private record Run(int points, String point) {}

  private static Run run(Path root, int at) throws Exception {
    Files.createDirectories(root);
    DevicePool pool = TestPool.fourDevices(root);
    MosaicTable.create(
        CrashWorkload.lockFreeLog(root.resolve("t")),
        pool,
        CrashWorkload.SCHEMA,
        CrashWorkload.properties());
    Process process =
        new ProcessBuilder(
                ChildJvm.command(
                    List.of("-Dmosaic.crash.at=" + at),
                    CrashWorkload.class,
                    List.of(
                        root.resolve("devices.toml").toString(),
                        CrashWorkload.LOCK_FREE + root.resolve("t"))))
            .redirectErrorStream(true)
            .start();
    String point = null;
    int points = 0;
    List<String> output = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        output.add(line);
        if (line.startsWith("CRASHPOINT ")) {
          point = line.split(" ")[2];
          process.destroyForcibly(); // SIGKILL
          break;
        }
        if (line.startsWith("DONE ")) {
          points = Integer.parseInt(line.substring(5).trim());
        }
      }
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("workload ended: %s", output).isTrue();
    if (at == 0) {
      assertThat(process.exitValue()).as("workload: %s", output).isZero();
    }
    return new Run(points, point);
  }
}
