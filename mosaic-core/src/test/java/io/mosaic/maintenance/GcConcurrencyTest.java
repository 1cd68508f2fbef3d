package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.ChildJvm;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableProcess;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What gc, commits and readers promise each other (docs/format.md, "Pins, writer locks and gc"): an
 * acknowledged commit is never lost, a file a reader could still open is never deleted, and a
 * reader gets its rows or a clear error, never a hang. Each test is one of the reported defects.
 */
class GcConcurrencyTest {
  @TempDir Path dir;

  private static final List<String> COLUMNS =
      CrashWorkload.SCHEMA.columns().stream().map(ColumnSpec::name).toList();

  private MosaicTable table(DevicePool pool, int batches) throws IOException {
    return CrashWorkload.table(dir.resolve("t"), pool, batches);
  }

  private static Manifest append(MosaicTable table, int b) throws IOException {
    return CrashWorkload.append(table, b);
  }

  /** Fails unless a full scan of the latest version returns exactly its committed rows. */
  private static void assertReadable(MosaicTable table, Retriever retriever) {
    try (Scan scan = retriever.scan(table, ScanRequest.of(COLUMNS).recorded(false))) {
      assertThat(TableProcess.check(scan, scan.manifest().rowCount()))
          .as("rows of v%d", scan.manifest().version())
          .isNull();
    }
  }

  /** A gc loop in another thread while {@code work} commits; returns gc's failures, if any. */
  private static List<Throwable> besideGcLoop(MosaicTable table, Duration grace, Work work)
      throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    List<Throwable> gcFailures = new ArrayList<>();
    ExecutorService gcThread = Executors.newSingleThreadExecutor();
    Future<?> loop =
        gcThread.submit(
            () -> {
              while (!stop.get()) {
                try {
                  new GarbageCollector(table).collect(grace);
                } catch (RuntimeException e) {
                  gcFailures.add(e);
                }
              }
            });
    try {
      work.run();
    } finally {
      stop.set(true);
      loop.get(60, TimeUnit.SECONDS);
      gcThread.shutdown();
    }
    return gcFailures;
  }

  interface Work {
    void run() throws Exception;
  }

  @Test
  void gcBesideMigrationsNeverHidesOrBreaksTheirCommits() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool, 2);
    Random random = new Random(27);
    try (Retriever retriever = new Retriever(pool, 1, 0)) {
      List<Throwable> gcFailures =
          besideGcLoop(
              table,
              Duration.ofHours(1),
              () -> {
                for (int i = 0; i < 25; i++) {
                  Map<String, String> placement = new LinkedHashMap<>();
                  for (String c : COLUMNS) {
                    placement.put(c, TestPool.IDS[random.nextInt(TestPool.IDS.length)]);
                  }
                  Migrator migrator = new Migrator(table);
                  Manifest done =
                      migrator.apply(migrator.plan(placement), new Migrator.Listener() {});
                  assertThat(table.latest().version())
                      .as("migration %d said it is at v%d", i, done.version())
                      .isGreaterThanOrEqualTo(done.version());
                  assertThat(table.versions()).contains(table.latest().version());
                  assertReadable(table, retriever);
                }
              });
      assertThat(gcFailures).isEmpty();
      assertReadable(table, retriever);
    }
  }

  @Test
  void gcBesideAppendsNeverLosesAnAcknowledgedAppend() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool, 1);
    List<Long> acknowledged = new ArrayList<>();
    List<Throwable> gcFailures =
        besideGcLoop(
            table,
            Duration.ZERO,
            () -> {
              for (int b = 1; b <= 25; b++) {
                Manifest m = append(table, b);
                acknowledged.add(m.version());
                assertThat(table.latest().rowCount())
                    .as("rows after the append acknowledged as v%d", m.version())
                    .isEqualTo((b + 1L) * CrashWorkload.ROWS);
              }
            });
    assertThat(gcFailures).isEmpty();
    assertThat(acknowledged).hasSize(25);
    try (Retriever retriever = new Retriever(pool, 1, 0)) {
      assertReadable(table, retriever);
    }
  }

  /**
   * A server pins a version for a query, and lists the pins in the same JVM (as gc and migrations
   * running inside it do); another process then moves a column and collects with no grace. The
   * query must still read its pinned version.
   */
  @Test
  void aPinSurvivesItsOwnJvmListingThePins() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool, 2);
    try (Retriever retriever = new Retriever(pool, 1, 0);
        TablePin pin = table.pin()) {
      table.pinnedVersions();
      new GarbageCollector(table).collect(Duration.ZERO);
      String column = COLUMNS.get(2);
      String elsewhere =
          pin.manifest().segmentsOf(column).get(0).device().equals("hdd") ? "ssd" : "hdd";
      runToEnd("migrate", column + "=" + elsewhere);
      runToEnd("gc-once");
      assertThat(table.latest().segmentsOf(column).get(0).device()).isEqualTo(elsewhere);
      try (Scan scan = retriever.scan(table, pin, ScanRequest.of(COLUMNS).recorded(false))) {
        assertThat(TableProcess.check(scan, pin.manifest().rowCount())).isNull();
      }
    }
  }

  /** The same through a symlink: a JVM holding a pin knows it however the root is spelled. */
  @Test
  void aPinSurvivesItsJvmListingThePinsThroughAnotherPathToTheTable() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool, 2);
    Path link = Files.createSymbolicLink(dir.resolve("t-link"), dir.resolve("t"));
    MosaicTable viaLink = MosaicTable.open(link, pool);
    try (Retriever retriever = new Retriever(pool, 1, 0);
        TablePin pin = viaLink.pin()) {
      table.pinnedVersions();
      String column = COLUMNS.get(2);
      String elsewhere =
          pin.manifest().segmentsOf(column).get(0).device().equals("hdd") ? "ssd" : "hdd";
      runToEnd("migrate", column + "=" + elsewhere);
      runToEnd("gc-once");
      try (Scan scan = retriever.scan(viaLink, pin, ScanRequest.of(COLUMNS).recorded(false))) {
        assertThat(TableProcess.check(scan, pin.manifest().rowCount())).isNull();
      }
    }
  }

  private void runToEnd(String role, String... args) throws Exception {
    List<String> all = new ArrayList<>();
    all.add(dir.resolve("devices.toml").toString());
    all.add(dir.resolve("t").toString());
    all.add(role);
    all.add("1");
    all.add("1");
    all.addAll(List.of(args));
    Process p = ChildJvm.start(TableProcess.class, all);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("DONE");
  }

  @Test
  void aMissingSecondSegmentFailsTheScanClearly() throws Exception {
    assertDamagedSecondSegmentFailsClearly(Files::delete, "is missing");
  }

  @Test
  void anEmptiedSecondSegmentFailsTheScanClearly() throws Exception {
    assertDamagedSecondSegmentFailsClearly(
        f -> {
          try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(0);
          }
        },
        "unreadable");
  }

  interface Damage {
    void apply(Path file) throws IOException;
  }

  private void assertDamagedSecondSegmentFailsClearly(Damage damage, String says) throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool, 3); // three appends: three segments per column
    // On the one-thread hdd, whose queue of two reads is full after the first segment's two row
    // groups: a reader thread, not the consumer, then reaches the second segment.
    String column = COLUMNS.get(3);
    assertThat(table.latest().segmentsOf(column).get(1).device()).isEqualTo("hdd");
    SegmentEntry second = table.latest().segmentsOf(column).get(1);
    Path file = pool.device(second.device()).resolve(second.path());
    damage.apply(file);
    try (Retriever retriever = new Retriever(pool, 1, 0)) {
      for (List<String> columns : List.of(List.of(column), COLUMNS)) {
        assertTimeoutPreemptively(
            Duration.ofSeconds(60),
            () ->
                assertThatThrownBy(
                        () -> {
                          try (Scan scan =
                              retriever.scan(table, ScanRequest.of(columns).recorded(false))) {
                            while (scan.hasNext()) {
                              scan.next();
                            }
                          }
                        })
                    .isInstanceOf(CorruptTableException.class)
                    .hasMessageContaining(file.getFileName().toString())
                    .hasMessageContaining("'" + column + "'")
                    .hasMessageContaining("device '" + second.device() + "'")
                    .hasMessageContaining(says));
      }
    }
  }
}
