package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crash safety of a row change (docs/format.md, "Deletion vectors"): an UPDATE that deletes batch 1
 * of a table of batches 0-2 and inserts batch 3, in a child JVM killed with SIGKILL at each named
 * point it passes and at random moments, on a table with POSIX locks and on a lock-free one. After
 * every kill the table holds batches 0-2 or 0, 2 and 3, nothing between (no deleted row shows
 * again, no inserted row without its deletion); every segment is intact; gc leaves only the latest
 * version's files; and the change, run again, commits.
 */
class RowChangeCrashTest {
  private static final int RANDOM_KILLS = Integer.getInteger("mosaic.crash.random", 4);
  private static final Set<Integer> BEFORE = Set.of(0, 1, 2);
  private static final Set<Integer> AFTER = Set.of(0, 2, 3);

  @org.junit.jupiter.api.io.TempDir Path dir;

  /** The named points the change passes, and whether a kill there leaves it committed. */
  private record Point(String name, boolean committed) {}

  @ParameterizedTest(name = "lock-free {0}")
  @ValueSource(booleans = {false, true})
  void killedAtNamedPointsAndAtRandomAChangeIsAllOrNothing(boolean lockFree) throws Exception {
    List<Point> points =
        List.of(
            new Point("segment-created", false),
            new Point("row-group-written", false),
            new Point("segment-finished", false),
            lockFree
                ? new Point("log-before-publish", false)
                : new Point("manifest-written", false),
            lockFree ? new Point("log-published", true) : new Point("manifest-published", true));
    int run = 0;
    for (Point p : points) {
      Path root = dir.resolve("run-" + run++);
      String location = setUp(root, lockFree);
      Result r =
          change(
              root,
              location,
              List.of("-Dmosaic.crash.at=1", "-Dmosaic.crash.name=" + p.name()),
              -1);
      assertThat(r.crashPoint()).as("%s reached: %s", p, r.output()).isEqualTo(p.name());
      Set<Integer> batches = checkAndRecover(root, location, lockFree, p.name());
      assertThat(batches)
          .as("%s: batches after the kill", p)
          .isEqualTo(p.committed() ? AFTER : BEFORE);
    }
    // A whole run, to know how long a change takes; then kills at uniform moments within it.
    Path whole = dir.resolve("run-whole");
    String wholeLocation = setUp(whole, lockFree);
    Result full = change(whole, wholeLocation, List.of(), -1);
    assertThat(full.output()).as("a change run to its end").contains("DONE");
    assertThat(checkAndRecover(whole, wholeLocation, lockFree, "no kill")).isEqualTo(AFTER);
    long seed = Long.getLong("mosaic.crash.seed", System.nanoTime());
    Random random = new Random(seed);
    for (int k = 0; k < RANDOM_KILLS; k++) {
      Path root = dir.resolve("run-" + run++);
      String location = setUp(root, lockFree);
      long after = random.nextLong(Math.max(1, full.millis()));
      Result r = change(root, location, List.of(), after);
      checkAndRecover(root, location, lockFree, "seed " + seed + ", killed " + after + " ms in");
    }
  }

  /** A table of batches 0-2 in {@code root}; its location as {@link TableProcess#open} takes it. */
  private static String setUp(Path root, boolean lockFree) throws IOException {
    Files.createDirectories(root);
    DevicePool pool = TestPool.fourDevices(root);
    String location =
        lockFree ? TableProcess.LOCK_FREE + root.resolve("t") : root.resolve("t").toString();
    VersionLog log = TableProcess.log(location, java.time.Clock.systemUTC());
    MosaicTable table =
        log == null
            ? MosaicTable.create(
                root.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties())
            : MosaicTable.create(log, pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    for (int b = 0; b < 3; b++) {
      CrashWorkload.append(table, b);
    }
    return location;
  }

  /** What a child run printed, the point it stopped at (or null), and its time from its start. */
  private record Result(List<String> output, String crashPoint, long millis) {}

  /**
   * Runs the change in a child JVM; with {@code killAfterMillis >= 0} SIGKILLs it that long after
   * it reported its start, and at a crash point when it announces one.
   */
  private static Result change(
      Path root, String location, List<String> options, long killAfterMillis) throws Exception {
    List<String> args =
        List.of(root.resolve("devices.toml").toString(), location, "change", "1", "0", "1", "3");
    Process process =
        new ProcessBuilder(ChildJvm.command(options, TableProcess.class, args))
            .redirectErrorStream(true)
            .start();
    List<String> output = new ArrayList<>();
    String crashPoint = null;
    long started = 0;
    Thread killer = null;
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        output.add(line);
        if (line.equals(CrashWorkload.STARTED)) {
          started = System.currentTimeMillis();
          if (killAfterMillis >= 0) {
            killer =
                new Thread(
                    () -> {
                      try {
                        Thread.sleep(killAfterMillis);
                      } catch (InterruptedException e) {
                        return;
                      }
                      process.destroyForcibly();
                    });
            killer.start();
          }
        } else if (line.startsWith("CRASHPOINT ")) {
          crashPoint = line.substring(line.lastIndexOf(' ') + 1);
          process.destroyForcibly();
        }
      }
    } catch (IOException e) {
      // Killing the process closes its output under the reader.
      if (crashPoint == null && killAfterMillis < 0) {
        throw e;
      }
    }
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("child ended: %s", output).isTrue();
    if (killer != null) {
      killer.interrupt();
    }
    if (crashPoint == null && killAfterMillis < 0) {
      assertThat(process.exitValue()).as("child exit: %s", output).isZero();
    }
    return new Result(output, crashPoint, System.currentTimeMillis() - started);
  }

  /**
   * Checks the table after a kill and recovers it: its batches are all-before or all-after, its
   * segments intact, gc leaves only the latest version's files, and a change run again commits.
   * Returns the batches found after the kill.
   */
  private static Set<Integer> checkAndRecover(
      Path root, String location, boolean lockFree, String what) throws IOException {
    DevicePool pool = DevicePool.load(root.resolve("devices.toml"));
    ShiftedClock clock = new ShiftedClock();
    MosaicTable table = TableProcess.open(location, pool, clock);
    Set<Integer> batches = batches(table, pool, what);
    assertThat(batches).as("%s: batches", what).isIn(BEFORE, AFTER);
    for (int pass = 0; pass < (lockFree ? 3 : 1); pass++) {
      // Past every retention and lease of a lock-free table (TableProcess.RETENTION).
      clock.advance(Duration.ofDays(1).toMillis());
      new GarbageCollector(table).collect(Duration.ZERO);
    }
    CrashKills.checkOnlyReferenced(pool, table.latest(), what);
    if (batches.equals(BEFORE)) {
      try (Retriever retriever = new Retriever(pool, 1, 0);
          TablePin pin = table.pin()) {
        TableProcess.change(
            table, pin, TableProcess.liveRowsByBatch(table, pin, retriever).get(1), 3);
      }
      assertThat(batches(table, pool, what + ", run again")).isEqualTo(AFTER);
    }
    return batches;
  }

  /** The batches of the latest version, checked row by row with every segment's checksum. */
  private static Set<Integer> batches(MosaicTable table, DevicePool pool, String what)
      throws IOException {
    Manifest m = table.latest();
    for (SegmentEntry s : m.segments()) {
      assertThat(Checksums.ofFile(pool.device(s.device()), s.path()))
          .as("%s: checksum of %s", what, s.path())
          .isEqualTo(s.checksum());
    }
    try (Retriever retriever = new Retriever(pool, 1, 0);
        Scan scan =
            retriever.scan(
                table,
                ScanRequest.of(
                        CrashWorkload.SCHEMA.columns().stream().map(ColumnSpec::name).toList())
                    .recorded(false))) {
      assertThat(TableProcess.check(scan, m.liveRowCount()))
          .as("%s: rows of v%d", what, m.version())
          .isNull();
    }
    return Set.copyOf(TableProcess.lastBatches());
  }
}
