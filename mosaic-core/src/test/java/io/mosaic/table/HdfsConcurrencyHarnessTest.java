package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.storage.MiniHdfs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConcurrencyHarness} on tables whose metadata is on HDFS (the lock-free protocol): writer,
 * migrator, gc and reader JVMs reach the table by its {@code hdfs://} URI, and are killed at
 * random, never before their first event (an HDFS client's first commit can take seconds). {@code
 * -Dmosaic.harness.rounds=N} runs more rounds, {@code -Dmosaic.harness.commits=N} a long run of
 * contested commits.
 */
class HdfsConcurrencyHarnessTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  @TempDir Path dir;

  private String table(Path round) {
    return HDFS.uri().resolve("harness/" + round.getParent().getFileName() + "/")
        + round.getFileName().toString()
        + "/t";
  }

  @Test
  void writersMigrationsGcAndReadersOnAnHdfsTableKeepEveryPromise() throws Exception {
    long seed = Long.getLong("mosaic.harness.seed", System.nanoTime());
    if (Long.getLong("mosaic.harness.commits", 0) > 0) {
      ConcurrencyHarness.Totals totals =
          ConcurrencyHarness.contested(
              0,
              seed,
              dir.resolve("contested"),
              this::table,
              (r, t) -> System.out.println("HDFS round " + r + ", seed " + seed + ": " + t));
      System.out.println("HDFS contested harness, seed " + seed + ": " + totals);
      ConcurrencyHarness.assertContestedPromisesKept(totals, seed);
      return;
    }
    // Two rounds: the second with the reader as a server, collecting garbage between queries.
    int rounds = Integer.getInteger("mosaic.harness.rounds", 2);
    ConcurrencyHarness.Totals totals =
        ConcurrencyHarness.run(
            ConcurrencyHarness.Shape.ROLES,
            rounds,
            0,
            Long.MAX_VALUE,
            seed,
            dir.resolve("roles"),
            this::table,
            (r, t) -> {});
    System.out.println("HDFS concurrency harness, seed " + seed + ": " + totals);
    assertThat(totals.failures).as("seed %d: %s", seed, totals).isEmpty();
    assertThat(totals.serverRounds).as("rounds with a server reader").isPositive();
    // Kills fall after each role's first event, so each round checks an append and a read.
    assertThat(totals.acknowledged).as("appends acknowledged").isGreaterThanOrEqualTo(rounds);
    assertThat(totals.reads).as("reads checked").isGreaterThanOrEqualTo(rounds);
  }
}
