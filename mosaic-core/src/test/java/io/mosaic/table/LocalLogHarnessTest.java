package io.mosaic.table;

import io.mosaic.storage.LocalStorage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LogHarness} on local files at a size that fits CI; {@code -Dmosaic.logharness.commits=N}
 * runs longer (docs/format.md, "Commits without POSIX locks", records a 10,000-commit run).
 */
class LocalLogHarnessTest {
  @TempDir Path dir;

  @Test
  void contestedCommitsGcAndReadersKilledAtRandomKeepEveryPromise() throws Exception {
    long commits = Long.getLong("mosaic.logharness.commits", 300);
    long seed = Long.getLong("mosaic.logharness.seed", System.nanoTime());
    Path root = dir.resolve("storage");
    // CI's short run stops as soon as its goal is reached, after 25 s at least.
    LogHarness.Goal goal =
        LogHarness.Goal.of(commits, 3, 25_000, commits > 1000 ? 3_600_000 : 120_000);
    LogHarness.Totals totals =
        LogHarness.run(
            new LocalStorage(root),
            root.toUri().toString(),
            List.of(),
            1,
            dir.resolve("work"),
            goal,
            seed);
    System.out.println("lock-free commit harness, local, seed " + seed + ": " + totals);
    LogHarness.assertPromisesKept(totals, goal, seed);
  }
}
