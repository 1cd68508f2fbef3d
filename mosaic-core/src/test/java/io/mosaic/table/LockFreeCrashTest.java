package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CrashWorkload} killed with SIGKILL on a lock-free table on local files (docs/format.md
 * "Commits without POSIX locks"), at the first of each named crash point it passes and at random
 * moments ({@link CrashKills}; {@code -Dmosaic.crash.points=all} kills at every point): after each
 * kill the table reopens with exactly the committed batches, gc past every retention leaves only
 * the latest version's segments, no other manifest and no lease, and the table takes a further
 * commit. {@link HdfsLockFreeCrashTest} does the same on HDFS.
 */
class LockFreeCrashTest {
  /** The named points the workload passes on a lock-free table, on either backend. */
  static final Set<String> POINTS =
      Set.of(
          "segment-created",
          "row-group-written",
          "segment-finished",
          "log-before-publish",
          "log-published",
          "segment-moved",
          "column-committed");

  @TempDir Path dir;

  @Test
  void killedAtNamedPointsAndAtRandomTheLockFreeTableRecovers() throws Exception {
    CrashKills.Target target =
        new CrashKills.LocalTarget(dir) {
          @Override
          String createTable(Path root, DevicePool pool) throws IOException {
            MosaicTable.create(
                CrashWorkload.lockFreeLog(root.resolve("t"), Clock.systemUTC()),
                pool,
                CrashWorkload.SCHEMA,
                CrashWorkload.properties());
            return CrashWorkload.LOCK_FREE + root.resolve("t");
          }

          @Override
          void check(Path root, String what) throws IOException {
            ShiftedClock clock = new ShiftedClock();
            checkRecovered(
                CrashWorkload.lockFreeLog(root.resolve("t"), clock),
                clock,
                DevicePool.load(root.resolve("devices.toml")),
                CrashKills.batches(),
                what);
          }
        };
    CrashKills.sweep(target, "local lock-free", POINTS, POINTS, 3);
  }

  /**
   * Checks the lock-free table of {@code log} (on {@code clock}, which this ages) after a kill: it
   * holds a prefix of {@code batches} with intact checksums; gc past every retention leaves only
   * the latest version's segments, its manifest, no writer lease and no claim; then the table takes
   * a further commit.
   */
  static void checkRecovered(
      VersionLog log,
      ShiftedClock clock,
      DevicePool pool,
      List<List<List<Object>>> batches,
      String what)
      throws IOException {
    MosaicTable table = MosaicTable.open(log, pool);
    int committed = CrashKills.checkRows(table, batches, what);
    // A day apart, past every retention: the first pass retires old versions, the second deletes
    // their tombstones and claims a dead writer's files before deleting them, the third that claim
    // (kept for the tombstone retention, docs/format.md "Commits without POSIX locks").
    for (int pass = 0; pass < 3; pass++) {
      clock.advance(Duration.ofDays(1).toMillis());
      new GarbageCollector(table).collect(Duration.ZERO);
    }
    Manifest m = table.latest();
    CrashKills.checkOnlyReferenced(pool, m, what);
    String manifest = log.key(m.version());
    Storage storage = log.storage();
    Set<String> manifests = new HashSet<>();
    storage
        .list(manifest.substring(0, manifest.lastIndexOf('/')))
        .forEach(f -> manifests.add(f.key()));
    assertThat(manifests)
        .as("%s: manifests after gc past every retention", what)
        .containsExactlyInAnyOrder(
            manifest, manifest.substring(0, manifest.lastIndexOf('/') + 1) + VersionLog.HINT);
    assertThat(storage.list(StorageKeys.join(log.prefix(), Lease.WRITERS)))
        .as("%s: writer leases after gc", what)
        .isEmpty();
    assertThat(storage.list(StorageKeys.join(log.prefix(), WriterClaims.CLAIMS)))
        .as("%s: claims after gc", what)
        .isEmpty();
    CrashKills.commitsAgain(table, committed, what);
  }
}
