package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.storage.MiniHdfs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    // A fresh JVM's first commit or read on HDFS can take longer than the kill window: rounds go
    // on (up to five more) until some acknowledged an append and some checked a read.
    List<ConcurrencyHarness.Totals> runs = new ArrayList<>();
    for (int r = 0; r < rounds + 5; r++) {
      if (r >= rounds
          && runs.stream().anyMatch(t -> t.acknowledged > 0)
          && runs.stream().anyMatch(t -> t.reads > 0)) {
        break;
      }
      String table = nn + "/harness/" + r + "/t";
      runs.add(
          ConcurrencyHarness.run(1, seed + r, dir.resolve("run-" + r), d -> table, (i, t) -> {}));
    }
    for (ConcurrencyHarness.Totals totals : runs) {
      System.out.println("HDFS concurrency harness, seed " + seed + ": " + totals);
      assertThat(totals.failures).as("seed %d: %s", seed, totals).isEmpty();
    }
    assertThat(runs.stream().mapToLong(t -> t.reads).sum()).as("reads checked").isPositive();
    assertThat(runs.stream().mapToLong(t -> t.acknowledged).sum())
        .as("appends acknowledged")
        .isPositive();
  }
}
