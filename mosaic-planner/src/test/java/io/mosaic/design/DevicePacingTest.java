package io.mosaic.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TestPool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rates per device (docs/physical-design.md, "Schedules"): a step takes its bytes from its source's
 * and its target's bucket, each at the device's own rate, and two transformations moving onto one
 * device share its rate. Only lower bounds on the elapsed time are asserted (the machine is
 * shared): a bucket must never let bytes through faster than its rate.
 */
class DevicePacingTest {
  @TempDir Path dir;

  private static final double UNPACED = 1e15;

  @Test
  void aStepRunsAtTheRateOfItsSlowerDevice() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 3);
    // k: nvme -> hdd, limited by hdd's rate; v: ssd -> nvme, neither limited.
    long kBytes = bytes(table, "k");
    double hddRate = kBytes / 1.0; // about a second for k
    queue(table, Map.of("k", "hdd", "v", "nvme"), Map.of("hdd", hddRate));
    Map<String, Double> rateOf = new ConcurrentHashMap<>();
    Map<String, Long> copied = new ConcurrentHashMap<>();
    Map<String, Long> nanos = new ConcurrentHashMap<>();
    MoveQueue after = new DesignExecutor(table).run(recorder(rateOf, copied, nanos));

    assertThat(after.state()).isEqualTo(MoveQueue.State.DONE);
    assertThat(rateOf).containsEntry("k", hddRate).containsEntry("v", UNPACED);
    double seconds = nanos.get("k") / 1e9;
    assertThat(seconds)
        .as("k's %d bytes at hdd's %.0f B/s", copied.get("k"), hddRate)
        .isGreaterThanOrEqualTo(0.95 * copied.get("k") / hddRate);
    assertThat(copied.get("k")).isGreaterThanOrEqualTo(kBytes / 2);
  }

  @Test
  void twoTablesMovingOntoOneDeviceShareItsRate() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable a = CrashWorkload.table(dir.resolve("a"), pool, 2);
    MosaicTable b = CrashWorkload.table(dir.resolve("b"), pool, 2);
    double hddRate = (bytes(a, "s") + bytes(b, "s")) / 1.5;
    queue(a, Map.of("s", "hdd"), Map.of("hdd", hddRate));
    queue(b, Map.of("s", "hdd"), Map.of("hdd", hddRate));
    Map<String, Long> copiedA = new ConcurrentHashMap<>();
    Map<String, Long> copiedB = new ConcurrentHashMap<>();
    List<Thread> threads = new ArrayList<>();
    long start = System.nanoTime();
    for (var run :
        List.of(
            (Runnable)
                () ->
                    new DesignExecutor(a)
                        .run(
                            recorder(
                                new ConcurrentHashMap<>(), copiedA, new ConcurrentHashMap<>())),
            () ->
                new DesignExecutor(b)
                    .run(
                        recorder(new ConcurrentHashMap<>(), copiedB, new ConcurrentHashMap<>())))) {
      Thread t = new Thread(run);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join(60_000);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(MoveQueue.read(a).orElseThrow().state()).isEqualTo(MoveQueue.State.DONE);
    assertThat(MoveQueue.read(b).orElseThrow().state()).isEqualTo(MoveQueue.State.DONE);
    long both = copiedA.get("s") + copiedB.get("s");
    assertThat(seconds)
        .as("%d bytes onto hdd at its %.0f B/s, from two tables", both, hddRate)
        .isGreaterThanOrEqualTo(0.95 * both / hddRate);
  }

  @Test
  void aSlowStartStepSpeedsUpWhenTheQueriesStopMidStep() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1); // k: one segment, one chunk
    long kBytes = bytes(table, "k");
    double gentle = kBytes / 6.0; // about 6 s for k while a query runs
    queue(table, Map.of("k", "hdd"), Map.of(), ScheduleShape.SLOW_START, gentle);
    Map<String, Long> nanos = new ConcurrentHashMap<>();
    Map<String, Long> copied = new ConcurrentHashMap<>();
    io.mosaic.table.TablePin pin = table.pin(); // a query reading the table
    Thread reader =
        new Thread(
            () -> {
              try {
                Thread.sleep(500);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              pin.close(); // the query ends half a second into the step
            });
    reader.start();
    MoveQueue after =
        new DesignExecutor(table).run(recorder(new ConcurrentHashMap<>(), copied, nanos));
    reader.join(10_000);
    assertThat(after.state()).isEqualTo(MoveQueue.State.DONE);
    double seconds = nanos.get("k") / 1e9;
    // Gentle while the pin is held (not done before it goes), at full rate within a slice of its
    // going: well under the 6 s that one decision per chunk, taken while the query ran, gave.
    assertThat(seconds).as("k's %d bytes", copied.get("k")).isGreaterThanOrEqualTo(0.4);
    assertThat(seconds).as("k's %d bytes", copied.get("k")).isLessThan(3.5);
  }

  @Test
  void aLowRateIsHonouredFromTheFirstByte() throws Exception {
    lowRate("hdd"); // a copy byte for byte (zstd on both)
  }

  @Test
  void aLowRateIsHonouredFromTheFirstRowGroupReencoded() throws Exception {
    lowRate("ssd"); // re-encoded from zstd to lz4, row group by row group
  }

  private void lowRate(String target) throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1); // k: nvme, one segment
    long kBytes = bytes(table, "k");
    Path hdd = pool.device(target).root();
    long before = deviceBytes(hdd);
    // 1 B/s: the copy must not write a chunk and then wait for the rate to catch up, or the
    // device sees the whole segment at once (a floor of a chunk per step).
    queue(table, Map.of("k", target), Map.of(), ScheduleShape.CONSTANT, 1.0);
    Thread runner =
        new Thread(() -> new DesignExecutor(table).run(new DesignExecutor.Listener() {}));
    long start = System.nanoTime();
    runner.start();
    Thread.sleep(2_000);
    long written = deviceBytes(hdd) - before;
    double seconds = (System.nanoTime() - start) / 1e9;
    MoveQueue.update(table, q -> q.withState(MoveQueue.State.PAUSED, null));
    runner.join(30_000);
    assertThat(runner.isAlive()).isFalse();
    assertThat(kBytes).isGreaterThan(100);
    // At most the rate over the window and a slice more; a whole segment before the fix.
    assertThat(written)
        .as("bytes on %s after %.1f s at 1 B/s (k has %d)", target, seconds, kBytes)
        .isLessThanOrEqualTo((long) Math.ceil(seconds) + 8);
    assertThat(MoveQueue.read(table).orElseThrow().state()).isEqualTo(MoveQueue.State.PAUSED);
    assertThat(table.latest().segmentsOf("k").get(0).device()).isEqualTo("nvme");
  }

  private static long deviceBytes(Path root) throws java.io.IOException {
    try (var files = java.nio.file.Files.walk(root)) {
      return files
          .filter(java.nio.file.Files::isRegularFile)
          .mapToLong(
              f -> {
                try {
                  return java.nio.file.Files.size(f);
                } catch (java.io.IOException e) {
                  return 0; // deleted meanwhile
                }
              })
          .sum();
    }
  }

  @Test
  void aRateForADeviceThePoolLacksIsRefused() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    CrashWorkload.table(dir.resolve("t"), pool, 1);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));
    assertThatThrownBy(
            () ->
                executor.maintain(
                    MaintainRequest.parse(
                        "t", "start", null, null, null, "tape=1MB/s", null, null, null, true),
                    new DesignExecutor.Listener() {},
                    false))
        .hasMessageContaining("device 'tape'")
        .hasMessageContaining("name one of nvme, ssd, raid, hdd");
    assertThatThrownBy(
            () ->
                MaintainRequest.parse(
                    "t", null, null, null, null, "hdd:1MB/s", null, null, null, null))
        .hasMessageContaining("must be DEVICE=RATE");
    assertThatThrownBy(
            () ->
                MaintainRequest.parse(
                    "t", null, null, null, null, "hdd=fast", null, null, null, null))
        .hasMessageContaining("has no usable rate");
    assertThatThrownBy(
            () ->
                MaintainRequest.parse(
                    "t", null, null, "1MB/s", "2MB/s", "hdd=5MB/s", null, null, null, null))
        .hasMessageContaining("below device hdd's rate");
    assertThat(
            MaintainRequest.parse(
                    "t",
                    null,
                    null,
                    null,
                    null,
                    "hdd=20MB/s, nvme = 1 GB/s",
                    null,
                    null,
                    null,
                    null)
                .deviceRates())
        .containsEntry("hdd", 2e7)
        .containsEntry("nvme", 1e9);
  }

  private static long bytes(MosaicTable table, String column) {
    return table.latest().segmentsOf(column).stream().mapToLong(SegmentEntry::fileBytes).sum();
  }

  /** A running queue moving each column to its device, unpaced but for {@code deviceRates}. */
  private static void queue(
      MosaicTable table, Map<String, String> target, Map<String, Double> deviceRates) {
    queue(table, target, deviceRates, ScheduleShape.CONSTANT, UNPACED);
  }

  private static void queue(
      MosaicTable table,
      Map<String, String> target,
      Map<String, Double> deviceRates,
      ScheduleShape shape,
      double rate) {
    Manifest m = table.latest();
    List<MoveQueue.Step> steps = new ArrayList<>();
    new java.util.TreeMap<>(target)
        .forEach(
            (column, to) ->
                steps.add(
                    new MoveQueue.Step(
                        column,
                        m.segmentsOf(column).get(0).device(),
                        to,
                        bytes(table, column),
                        1.0,
                        MoveQueue.StepState.PENDING,
                        0)));
    new MoveQueue(
            table.name(),
            MoveQueue.State.RUNNING,
            shape,
            rate,
            UNPACED,
            0,
            deviceRates,
            steps,
            "a test transformation",
            null)
        .write(table);
  }

  /** Records each step's last reported rate, its copied bytes and its elapsed time. */
  private static DesignExecutor.Listener recorder(
      Map<String, Double> rateOf, Map<String, Long> copied, Map<String, Long> nanos) {
    return new DesignExecutor.Listener() {
      String column;
      long startBytes;
      long lastBytes;
      long start;

      @Override
      public void stepStarted(int index, MoveQueue.Step step) {
        column = step.column();
        startBytes = lastBytes;
        start = System.nanoTime();
      }

      @Override
      public void copied(long bytesDone, long bytesTotal, double rate) {
        rateOf.put(column, rate);
        copied.put(column, bytesDone - startBytes);
      }

      @Override
      public void stepCommitted(int index, MoveQueue.Step step, long version) {
        nanos.put(column, System.nanoTime() - start);
        lastBytes = lastBytes + step.writeBytes();
      }
    };
  }
}
