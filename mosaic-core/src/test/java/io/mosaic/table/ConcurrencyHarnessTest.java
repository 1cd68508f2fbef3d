package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConcurrencyHarness} at a size that fits CI; {@code -Dmosaic.harness.rounds=N} runs more
 * rounds of the roles (docs/benchmarks.md records a 200-round run and its command), {@code
 * -Dmosaic.harness.commits=N} a long run of contested commits (docs/format.md records one).
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
   * Contested commits on a table kept with the lock-free protocol on local files (docs/format.md,
   * "Commits without POSIX locks"): four writers race for each next version beside a migrator, gc
   * and readers, all killed at random and started again, with short retention times so gc retires
   * and deletes.
   */
  @Test
  void contestedCommitsOnALockFreeTableKeepEveryPromise() throws Exception {
    long seed = Long.getLong("mosaic.harness.seed", System.nanoTime());
    ConcurrencyHarness.Totals totals =
        ConcurrencyHarness.contested(
            10_000,
            seed,
            dir,
            round -> TableProcess.LOCK_FREE + round.resolve("t"),
            (r, t) -> System.out.println("lock-free round " + r + ", seed " + seed + ": " + t));
    System.out.println("lock-free concurrency harness, seed " + seed + ": " + totals);
    ConcurrencyHarness.assertContestedPromisesKept(totals, seed);
  }
}
