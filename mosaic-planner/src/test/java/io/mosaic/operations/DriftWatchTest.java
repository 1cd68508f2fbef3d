package io.mosaic.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.ScheduleShape;
import io.mosaic.device.DevicePool;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TestPool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift trigger and the service's restart (docs/physical-design.md, "Drift"): a {@link
 * DriftWatch} identifies again when the trace has new scans and starts a transformation only when
 * the workload drifted by more than its threshold, saying why in numbers either way; it resumes a
 * queue left running by a process that stopped and leaves one a live process runs alone.
 */
class DriftWatchTest {
  @TempDir Path dir;

  private static final DesignExecutor.Listener QUIET = new DesignExecutor.Listener() {};

  @Test
  void aDriftedWorkloadStartsATransformationAndAnUndriftedOneDoesNot() throws Exception {
    DevicePool pool = CalibratedModels.nvmeAndHddPool(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"),
            pool,
            CrashWorkload.SCHEMA,
            Map.of(TableProperties.DEFAULT_DEVICE, "hdd", TableProperties.ROW_GROUP_ROWS, "2000"));
    CrashWorkload.append(table, 0);
    CrashWorkload.append(table, 1);
    long version = table.latest().version();
    scan(pool, table, 3);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));
    // --force: the drift decides here, not the payoff of tiny columns.
    MaintainRequest request =
        MaintainRequest.parse("t", null, "constant", "1 GB/s", null, null, null, true, null);

    // A threshold above what the new design saves: identified, not started, the reason in numbers.
    DriftWatch strict = executor.watch(request.withDrift(0.999));
    MaintainResult r = strict.check(QUIET).orElseThrow();
    assertThat(r.state()).isEqualTo("proposed");
    assertThat(r.reason())
        .startsWith("no drift: the trace epoch's workload takes ")
        .contains("s per run on the current design and ", "not above the 99.9 % threshold");
    assertThat(r.steps()).isNotEmpty();
    assertThat(MoveQueue.read(table)).isEmpty();
    assertThat(table.latest().version()).isEqualTo(version);
    assertThat(strict.check(QUIET)).as("no new scans: nothing to check").isEmpty();

    // The default threshold (20 %): the columns read on hdd go to nvme, step by step.
    DriftWatch watch = executor.watch(request);
    r = watch.check(QUIET).orElseThrow();
    assertThat(r.state()).as(r.reason()).isEqualTo("done");
    assertThat(r.reason()).startsWith("drift: ").contains("above the 20.0 % threshold");
    MosaicTable after = MosaicTable.open(dir.resolve("t"), pool);
    for (String c : List.of("k", "v")) {
      assertThat(after.latest().segmentsOf(c))
          .as(c)
          .allSatisfy(s -> assertThat(s.device()).isEqualTo("nvme"));
    }
    assertThat(watch.check(QUIET)).as("a new epoch without scans yet").isEmpty();

    // The same workload in the new epoch: the design fits it, no drift, nothing starts.
    scan(pool, after, 3);
    r = watch.check(QUIET).orElseThrow();
    assertThat(r.state()).isEqualTo("proposed");
    assertThat(r.reason()).startsWith("no drift: ").contains(", 0.0 % less,");
    assertThat(MosaicTable.open(dir.resolve("t"), pool).latest().version())
        .isEqualTo(after.latest().version());
    try (BufferAllocator alloc = new RootAllocator()) {
      MosaicTable t = MosaicTable.open(dir.resolve("t"), pool);
      TableRoundTripTest.assertRowsEqual(t, t.latest(), CrashWorkload.rows(0, 1), alloc);
    }
  }

  @Test
  void aQueueLeftRunningIsResumedAndOneALiveProcessRunsIsLeftAlone() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));
    // k (nvme) and v (ssd) to hdd, about 2 s at the queue's rate.
    List<MoveQueue.Step> steps = new ArrayList<>();
    long bytes = 0;
    for (String c : List.of("k", "v")) {
      long b = table.latest().segmentsOf(c).stream().mapToLong(SegmentEntry::fileBytes).sum();
      bytes += b;
      steps.add(
          new MoveQueue.Step(
              c,
              table.latest().segmentsOf(c).get(0).device(),
              "hdd",
              b,
              1,
              MoveQueue.StepState.PENDING,
              0));
    }
    MoveQueue queue =
        new MoveQueue(
            "t",
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            bytes / 2.0,
            bytes / 2.0,
            0,
            Map.of(),
            steps,
            "a test transformation",
            null);
    queue.write(table);
    DriftWatch watch =
        executor.watch(MaintainRequest.parse("t", null, null, null, null, null, null, null, null));

    Thread runner = new Thread(() -> new DesignExecutor(table).run(QUIET));
    runner.start();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!DesignExecutor.isRunning(table) && runner.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(DesignExecutor.isRunning(table)).as("the runner holds the queue").isTrue();
    assertThat(watch.check(QUIET)).as("a queue a live runner runs").isEmpty();
    // A second runner for the same queue returns at once instead of copying the step again.
    assertThat(new DesignExecutor(table).run(QUIET).state()).isEqualTo(MoveQueue.State.RUNNING);
    executor.maintain(
        MaintainRequest.parse("t", "pause", null, null, null, null, null, null, null),
        QUIET,
        false);
    runner.join(30_000);
    assertThat(DesignExecutor.isRunning(table)).isFalse();
    assertThat(watch.check(QUIET)).as("a paused queue is the person's").isEmpty();

    // As a process that stopped leaves it: running, and no runner.
    MoveQueue.read(table).orElseThrow().withState(MoveQueue.State.RUNNING, null).write(table);
    MaintainResult r = watch.check(QUIET).orElseThrow();
    assertThat(r.state()).isEqualTo("done");
    MosaicTable after = MosaicTable.open(dir.resolve("t"), pool);
    for (String c : List.of("k", "v")) {
      assertThat(after.latest().segmentsOf(c))
          .as(c)
          .allSatisfy(s -> assertThat(s.device()).isEqualTo("hdd"));
    }
    try (BufferAllocator alloc = new RootAllocator()) {
      TableRoundTripTest.assertRowsEqual(after, after.latest(), CrashWorkload.rows(0, 1), alloc);
    }
  }

  @Test
  void aServiceStartingResumesTheQueuesLeftRunning() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable left = CrashWorkload.table(dir.resolve("left"), pool, 1);
    MosaicTable paused = CrashWorkload.table(dir.resolve("paused"), pool, 1);
    CrashWorkload.table(dir.resolve("plain"), pool, 1); // no transformation ever
    runningQueue(left, "k", "hdd").write(left);
    runningQueue(paused, "k", "hdd").withState(MoveQueue.State.PAUSED, null).write(paused);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));

    List<String> report =
        executor.resumeLeftRunning(List.of("left", "paused", "plain", "missing"), QUIET);
    assertThat(report).hasSize(2);
    assertThat(report.get(0)).startsWith("left: resumed the transformation left running");
    assertThat(report.get(1)).startsWith("missing: cannot look at its transformation: ");
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (MoveQueue.read(left).orElseThrow().state() == MoveQueue.State.RUNNING
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(MoveQueue.read(left).orElseThrow().state()).isEqualTo(MoveQueue.State.DONE);
    assertThat(MosaicTable.open(dir.resolve("left"), pool).latest().segmentsOf("k"))
        .allSatisfy(s -> assertThat(s.device()).isEqualTo("hdd"));
    assertThat(MoveQueue.read(paused).orElseThrow().state()).isEqualTo(MoveQueue.State.PAUSED);
  }

  private static MoveQueue runningQueue(MosaicTable table, String column, String to) {
    long b = table.latest().segmentsOf(column).stream().mapToLong(SegmentEntry::fileBytes).sum();
    return new MoveQueue(
        table.name(),
        MoveQueue.State.RUNNING,
        ScheduleShape.CONSTANT,
        1e15,
        1e15,
        0,
        Map.of(),
        List.of(
            new MoveQueue.Step(
                column,
                table.latest().segmentsOf(column).get(0).device(),
                to,
                b,
                1,
                MoveQueue.StepState.PENDING,
                0)),
        "a test transformation",
        null);
  }

  private static void scan(DevicePool pool, MosaicTable table, int times) {
    try (Retriever retriever = new Retriever(pool)) {
      for (int i = 0; i < times; i++) {
        try (Scan scan = retriever.scan(table, ScanRequest.of(List.of("k", "v")))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
  }
}
