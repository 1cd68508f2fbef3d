package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compactions while appends keep coming (docs/operations.md, "Compaction"): a compaction whose
 * commit loses a race to an append rewrites the appended rows and commits again, with the same
 * segments; a segment it restamped in the lost try must carry its restamped checksum then
 * (TableCommitter's restamped checksums). Every version holds every appended batch, and every
 * segment of the latest matches its checksum.
 */
class CompactionRaceTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "lock-free {0}")
  @ValueSource(booleans = {false, true})
  void compactionsBesideAppendsKeepEveryRowAndChecksum(boolean lockFree) throws Exception {
    Files.createDirectories(dir);
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        lockFree
            ? MosaicTable.create(
                CrashWorkload.lockFreeLog(dir.resolve("t"), Clock.systemUTC()),
                pool,
                CrashWorkload.SCHEMA,
                CrashWorkload.properties())
            : MosaicTable.create(
                dir.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    for (int b = 0; b < 3; b++) {
      CrashWorkload.append(table, b);
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger appended = new AtomicInteger(3);
    List<Throwable> failures = new ArrayList<>();
    Thread appender =
        new Thread(
            () -> {
              try {
                while (!stop.get()) {
                  CrashWorkload.append(table, appended.get());
                  appended.incrementAndGet();
                }
              } catch (Throwable t) {
                failures.add(t);
              }
            });
    appender.start();
    int compacted = 0;
    int refused = 0;
    try {
      for (int i = 0; i < 12; i++) {
        try {
          if (new TableCompactor(table).optimize(new TableCompactor.Listener() {}).compacted()) {
            compacted++;
          }
        } catch (TableConflictException e) {
          refused++; // appends during each of its tries: a clear refusal
        }
      }
    } finally {
      stop.set(true);
      appender.join();
    }
    assertThat(failures).isEmpty();
    assertThat(compacted).as("compactions committed (%d refused)", refused).isPositive();
    Manifest latest = table.latest();
    for (SegmentEntry s : latest.segments()) {
      assertThat(Checksums.ofFile(pool.device(s.device()), s.path()))
          .as("checksum of %s", s.path())
          .isEqualTo(s.checksum());
    }
    try (Retriever retriever = new Retriever(pool, 1, 0);
        Scan scan =
            retriever.scan(
                table,
                ScanRequest.of(
                        CrashWorkload.SCHEMA.columns().stream().map(ColumnSpec::name).toList())
                    .recorded(false))) {
      assertThat(TableProcess.check(scan, latest.liveRowCount())).isNull();
    }
    Set<Integer> all = new TreeSet<>();
    for (int b = 0; b < appended.get(); b++) {
      all.add(b);
    }
    assertThat(TableProcess.lastBatches()).isEqualTo(all);
  }
}
