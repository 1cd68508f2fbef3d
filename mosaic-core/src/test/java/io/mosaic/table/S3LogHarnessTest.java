package io.mosaic.table;

import io.mosaic.storage.SeaweedS3;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LogHarness} on S3 through S3A ({@link SeaweedS3}) at a size that fits CI: the child JVMs
 * are S3A clients of this JVM's SeaweedFS server, given its settings and credentials in a Hadoop
 * configuration file readable by the owner only (never on a command line or in the output). {@code
 * -Dmosaic.logharness.commits=N} runs longer.
 */
class S3LogHarnessTest {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();
  @TempDir Path dir;

  @Test
  void contestedCommitsGcAndReadersKilledAtRandomKeepEveryPromise() throws Exception {
    long commits = Long.getLong("mosaic.logharness.commits", 40);
    long seed = Long.getLong("mosaic.logharness.seed", System.nanoTime());
    String conf = ChildJvm.hadoopConfOption(S3.conf(), dir);
    String folder = "harness-" + seed;
    // The short run of CI: at least 15 s, for kills of both kinds, then until its goal is reached:
    // beside CI's other test JVMs the children's start took most of 30 s.
    LogHarness.Goal goal =
        LogHarness.Goal.of(
            commits,
            1,
            15_000,
            commits > 1000 ? Long.getLong("mosaic.logharness.maxMillis", 7_200_000) : 180_000);
    LogHarness.Totals totals =
        LogHarness.run(
            S3.storage(folder),
            S3.uri(folder).toString(),
            List.of(conf),
            // As on MiniDFS: nine JVMs loading S3A and the AWS SDK at once take ~14 s of 2 cores
            // before the first request, so kills come at a third of the local pace.
            3,
            dir.resolve("work"),
            goal,
            seed);
    System.out.println("lock-free commit harness, s3, seed " + seed + ": " + totals);
    LogHarness.assertPromisesKept(totals, goal, seed);
  }
}
