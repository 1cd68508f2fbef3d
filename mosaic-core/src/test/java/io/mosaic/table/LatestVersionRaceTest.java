package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.maintenance.GarbageCollector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MosaicTable#latest} lists the versions and reads the newest; gc or a migration may retire
 * that one in between (a newer version then exists, docs/format.md "Pins, writer locks and gc"),
 * and latest() must then list again, not report a version the caller never asked for as missing.
 */
class LatestVersionRaceTest {
  @TempDir Path dir;

  @AfterEach
  void noHook() {
    TableVersions.afterListing = null;
  }

  @Test
  void aNewestVersionRetiredBetweenListingAndReadingIsListedAgain() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1); // v2
    AtomicInteger listings = new AtomicInteger();
    TableVersions.afterListing =
        () -> {
          if (listings.incrementAndGet() == 1) {
            TableVersions.afterListing = null;
            bump(table); // v3
            new GarbageCollector(table).collect(Duration.ZERO); // retires v2, listed as newest
            assertThat(Files.exists(table.manifestFile(2))).isFalse();
          }
        };
    Manifest latest = table.latest();
    assertThat(latest.version()).isEqualTo(3);
    assertThat(listings.get()).isEqualTo(1);
  }

  @Test
  void aNewestVersionRemovedWithNothingNewerIsStillReportedMissing() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1); // v2
    TableVersions.afterListing =
        () -> {
          try {
            Files.delete(table.manifestFile(2)); // not gc: a person removed the newest manifest
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
    assertThatThrownBy(table::latest)
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("has no version 2");
  }

  @Test
  void aTableDroppedBetweenListingAndReadingIsReportedMissing() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    TableVersions.afterListing = () -> MosaicTable.deleteTree(table.root());
    assertThatThrownBy(table::latest).isInstanceOf(TableNotFoundException.class);
  }

  /** The race as an importer meets it: latest() in a loop beside commits and gc, in one JVM. */
  @Test
  void latestNeverFailsBesideCommitsAndGc() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    AtomicBoolean stop = new AtomicBoolean();
    List<Throwable> background = new ArrayList<>();
    AtomicInteger commits = new AtomicInteger();
    Thread committer =
        loop(
            stop,
            background,
            () -> {
              bump(table);
              commits.incrementAndGet();
            });
    Thread gc = loop(stop, background, () -> new GarbageCollector(table).collect(Duration.ZERO));
    List<String> failures = new ArrayList<>();
    long reads = 0;
    // Enough commits for gc to retire many newest-listed versions (before the fix, 50 commits
    // gave about five failures), however busy the machine; at most 15 s.
    long start = System.nanoTime();
    try {
      while (commits.get() < 50 && System.nanoTime() - start < Duration.ofSeconds(15).toNanos()) {
        try {
          table.latest();
          reads++;
        } catch (RuntimeException e) {
          failures.add(e.getMessage());
        }
      }
    } finally {
      stop.set(true);
      committer.join();
      gc.join();
    }
    assertThat(background).isEmpty();
    assertThat(reads).isGreaterThan(100);
    assertThat(failures).as("latest() failures in %d reads", reads).isEmpty();
  }

  private static Thread loop(AtomicBoolean stop, List<Throwable> errors, Runnable action) {
    Thread t =
        new Thread(
            () -> {
              try {
                while (!stop.get()) {
                  action.run();
                }
              } catch (Throwable e) {
                synchronized (errors) {
                  errors.add(e);
                }
              }
            });
    t.start();
    return t;
  }

  /** A commit that writes no segment: the table property {@code bump} changes. */
  private static void bump(MosaicTable table) {
    table.commit(
        "set properties",
        base -> {
          Map<String, String> p = new HashMap<>(base.properties());
          p.put("bump", Long.toString(base.version()));
          return base.withProperties(p);
        });
  }
}
