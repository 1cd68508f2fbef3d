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
 * random; {@code -Dmosaic.harness.rounds=N} runs more.
 */
class HdfsConcurrencyHarnessTest {
  @RegisterExtension static final MiniHdfs HDFS = new MiniHdfs();

  @TempDir Path dir;

  @Test
  void writersMigrationsGcAndReadersOnAnHdfsTableKeepEveryPromise() throws Exception {
    int rounds = Integer.getInteger("mosaic.harness.rounds", 2);
    long seed = Long.getLong("mosaic.harness.seed", System.nanoTime());
    String nn = HDFS.uri().toString().replaceAll("/$", "");
    ConcurrencyHarness.Totals totals =
        ConcurrencyHarness.run(
            rounds,
            seed,
            dir,
            round -> nn + "/harness/" + round.getFileName() + "/t",
            (r, t) -> {});
    System.out.println("HDFS concurrency harness, seed " + seed + ": " + totals);
    assertThat(totals.failures).as("seed %d: %s", seed, totals).isEmpty();
    assertThat(totals.reads).as("reads checked").isPositive();
    assertThat(totals.acknowledged).as("appends acknowledged").isPositive();
  }
}
