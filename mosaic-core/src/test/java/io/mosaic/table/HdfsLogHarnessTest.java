package io.mosaic.table;

import io.mosaic.storage.MiniHdfs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LogHarness} on HDFS ({@link MiniHdfs}) at a size that fits CI: the child JVMs are HDFS
 * clients of this JVM's cluster. {@code -Dmosaic.logharness.commits=N} runs longer.
 */
class HdfsLogHarnessTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();
  @TempDir Path dir;

  @Test
  void contestedCommitsGcAndReadersKilledAtRandomKeepEveryPromise() throws Exception {
    long commits = Long.getLong("mosaic.logharness.commits", 60);
    long seed = Long.getLong("mosaic.logharness.seed", System.nanoTime());
    String conf = ChildJvm.hadoopConfOption(HDFS.conf(), dir);
    String folder = "harness-" + seed;
    // The short run of CI: at least 15 s, for kills of both kinds, then until its goal is reached.
    LogHarness.Goal goal =
        LogHarness.Goal.of(
            commits,
            1,
            15_000,
            commits > 1000 ? Long.getLong("mosaic.logharness.maxMillis", 7_200_000) : 120_000);
    LogHarness.Totals totals =
        LogHarness.run(
            HDFS.storage(folder),
            HDFS.uri().resolve(folder).toString(),
            List.of(conf),
            3,
            dir.resolve("work"),
            goal,
            seed);
    System.out.println("lock-free commit harness, hdfs, seed " + seed + ": " + totals);
    LogHarness.assertPromisesKept(totals, goal, seed);
  }
}
