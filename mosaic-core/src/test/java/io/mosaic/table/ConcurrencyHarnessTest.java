package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConcurrencyHarness} at a size that fits CI; {@code -Dmosaic.harness.rounds=N} runs more
 * (docs/benchmarks.md records a 200-round run and its command).
 */
class ConcurrencyHarnessTest {
  @TempDir Path dir;

  @Test
  void writersMigrationsGcAndReadersKilledAtRandomKeepEveryPromise() throws Exception {
    int rounds = Integer.getInteger("mosaic.harness.rounds", 4);
    long seed = Long.getLong("mosaic.harness.seed", System.nanoTime());
    ConcurrencyHarness.Totals totals = ConcurrencyHarness.run(rounds, seed, dir, (r, t) -> {});
    System.out.println("concurrency harness, seed " + seed + ": " + totals);
    assertThat(totals.failures).as("seed %d: %s", seed, totals).isEmpty();
    assertThat(totals.rounds).isEqualTo(rounds);
    assertThat(totals.reads).as("reads checked").isPositive();
    assertThat(totals.latestReads).as("latest versions read").isPositive();
    assertThat(totals.acknowledged).as("appends acknowledged").isPositive();
  }

  /**
   * The same roles on a table kept with the lock-free protocol on local files (docs/format.md,
   * "Commits without POSIX locks"), with short retention times so gc retires and deletes.
   */
  @Test
  void theSameRolesOnALockFreeTableKeepEveryPromise() throws Exception {
    int rounds = Integer.getInteger("mosaic.harness.rounds", 3);
    long seed = Long.getLong("mosaic.harness.seed", System.nanoTime());
    ConcurrencyHarness.Totals totals =
        ConcurrencyHarness.run(
            rounds, seed, dir, round -> TableProcess.LOCK_FREE + round.resolve("t"), (r, t) -> {});
    System.out.println("lock-free concurrency harness, seed " + seed + ": " + totals);
    assertThat(totals.failures).as("seed %d: %s", seed, totals).isEmpty();
    assertThat(totals.reads).as("reads checked").isPositive();
    assertThat(totals.acknowledged).as("appends acknowledged").isPositive();
  }
}
