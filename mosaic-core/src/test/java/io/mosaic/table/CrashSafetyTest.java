package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.maintenance.GarbageCollector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety, shown (DESIGN section 6): a writer/migration JVM ({@link CrashWorkload}) is killed
 * with SIGKILL at every crash point it passes ({@link CrashKills}). After each kill the table
 * reopens, holds exactly the batches committed so far with every segment's checksum intact, gc
 * leaves no file that the table does not reference, and the table takes a further commit.
 */
public class CrashSafetyTest {
  @TempDir Path dir;

  @Test
  void killedAtEveryCrashPointTheTableStaysWhole() throws Exception {
    List<List<List<Object>>> batches = CrashKills.batches();
    CrashKills.Target target =
        new CrashKills.LocalTarget(dir) {
          @Override
          String createTable(Path root, DevicePool pool) {
            MosaicTable.create(
                root.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
            return root.resolve("t").toString();
          }

          @Override
          void check(Path root, String what) throws IOException {
            int committed = CrashSafetyTest.check(root, batches, what);
            MosaicTable table =
                MosaicTable.open(root.resolve("t"), DevicePool.load(root.resolve("devices.toml")));
            CrashKills.commitsAgain(table, committed, what);
          }
        };
    CrashKills.Sweep sweep = CrashKills.everyPoint(target);
    System.out.println("crash kills on a table with POSIX locks: " + sweep);
    assertThat(sweep.named()).isGreaterThanOrEqualTo(50);
    assertThat(sweep.names())
        .contains(
            "segment-created",
            "row-group-written",
            "segment-finished",
            "manifest-written",
            "manifest-published",
            "segment-moved",
            "column-committed");
  }

  /**
   * Checks a table at {@code root/t} (pool {@code root/devices.toml}) after a kill: it holds a
   * prefix of {@code batches}, every row equal and every segment's checksum intact, and gc leaves
   * no file, manifest or writer lock it does not reference. The planner's crash tests use it too.
   */
  public static void check(Path root, List<List<List<Object>>> batches, int at) throws IOException {
    check(root, batches, "kill " + at);
  }

  private static int check(Path root, List<List<List<Object>>> batches, String what)
      throws IOException {
    DevicePool pool = DevicePool.load(root.resolve("devices.toml"));
    MosaicTable table = MosaicTable.open(root.resolve("t"), pool);
    int committed = CrashKills.checkRows(table, batches, what);
    // Leftovers (partial segments, temporary manifests, dead writers' locks) are cleaned by gc.
    new GarbageCollector(table).collect(Duration.ZERO);
    Manifest m = table.latest();
    CrashKills.checkOnlyReferenced(pool, m, what);
    try (Stream<Path> files = Files.list(table.root().resolve(MosaicTable.MANIFESTS))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("%s: manifests after gc", what)
          .containsExactly(String.format(Locale.ROOT, "v%020d.json", m.version()));
    }
    Path writers = table.root().resolve(MosaicTable.WRITERS);
    if (Files.isDirectory(writers)) {
      try (Stream<Path> files = Files.list(writers)) {
        assertThat(files).as("%s: writer locks after gc", what).isEmpty();
      }
    }
    return committed;
  }
}
