package io.mosaic.operations;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.MoveStep;
import io.mosaic.design.ScheduleShape;
import io.mosaic.design.SortAdvisor;
import io.mosaic.design.StepKind;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.maintenance.TableSorter;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.RowGroupFilter;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TpchBatches;
import io.mosaic.trace.TraceLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A re-sort identified from the trace and run by {@code maintain} (docs/physical-design.md,
 * "Re-sorting"): the scans filter on g, whose row groups are only partly clustered, so min/max
 * skipping prunes some row groups now and more once the rows are sorted by g.
 */
class ReSortTest {
  @TempDir Path dir;

  private static final DesignExecutor.Listener QUIET = new DesignExecutor.Listener() {};

  // 6 row groups of 1,000 rows; k is the row number; g falls in [0, 1000) in row groups 0-1, in
  // [1000, 2000) in 2-3, in [2000, 3000) in 4-5, scattered within each pair.
  private static List<List<Object>> rows() {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 6000; i++) {
      long g = (i / 2000) * 1000L + (i * 7919L) % 1000;
      rows.add(List.of((long) i, g, "row " + i));
    }
    return rows;
  }

  private static final Predicate NARROW = Predicate.of(Predicate.between("g", 1500L, 1520L));

  @Test
  void theFilteredColumnIsFoundFromTheTraceAndTheReSortPrunesMore() throws Exception {
    DevicePool pool = CalibratedModels.nvmeAndHddPool(dir);
    List<List<Object>> rows = rows();
    MosaicTable table =
        TableFixtures.write(
            dir.resolve("t"),
            pool,
            TpchBatches.schema("k int64", "g int64", "s string"),
            rows,
            Map.of(TableProperties.DEFAULT_DEVICE, "nvme", TableProperties.ROW_GROUP_ROWS, "1000"));
    Manifest before = table.latest();
    assertThat(before.rowGroups()).hasSize(6);
    int readBefore = RowGroupFilter.bind("t", before, NARROW).select(0, 6).size();
    assertThat(readBefore).isEqualTo(2);

    // Full scans only: no evidence of a filter, so no re-sort, and the reason says why.
    scan(pool, table, Predicate.ALL, 2);
    SortAdvisor.Identification none = SortAdvisor.identify(table, epoch(table));
    assertThat(none.candidate()).isEmpty();
    assertThat(none.why()).contains("no scan of the trace epoch skipped row groups");
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, name -> MosaicTable.open(dir.resolve(name), pool));
    MaintainResult dry =
        executor.maintain(
            MaintainRequest.parse("t", null, null, null, null, null, null, null, true),
            QUIET,
            false);
    assertThat(dry.steps()).isEmpty();
    assertThat(dry.reason()).contains("no re-sort: no scan of the trace epoch skipped row groups");

    // Narrow scans on g: k explains the skipping too (it is in row order), but sorting by it
    // saves nothing; g's order reads 1 row group instead of 2.
    new TraceLog(table.root()).newEpoch();
    scan(pool, table, NARROW, 4);
    SortAdvisor.Identification found = SortAdvisor.identify(table, epoch(table));
    SortAdvisor.SortCandidate c = found.candidate().orElseThrow();
    assertThat(c.column()).isEqualTo("g");
    assertThat(c.readNow()).isEqualTo(4 * 2);
    assertThat(c.readAfter()).isEqualTo(4 * 1);
    assertThat(found.why()).contains("g (its order explains what 4 of the epoch's scans skipped)");

    // A payoff it cannot meet: proposed with the reason, not run.
    MaintainResult tooDear =
        executor.maintain(
            MaintainRequest.parse("t", null, null, null, null, 1e-6, null, null, null),
            QUIET,
            false);
    assertThat(tooDear.state()).isEqualTo("proposed");
    assertThat(tooDear.reason())
        .startsWith("not worth it: 0 moves and a re-sort")
        .contains("; re-sort by g (its order explains what 4 of the epoch's scans skipped)")
        .contains("read 8 row groups in all now (of 6 each), about 4 sorted by it (of 6 each)");
    assertThat(table.latest().version()).isEqualTo(before.version());

    // Run it (--force: a table this small never pays for a rewrite).
    MaintainResult done =
        executor.maintain(
            MaintainRequest.parse("t", null, "constant", "1 GB/s", null, null, null, true, null),
            QUIET,
            false);
    assertThat(done.state()).as(done.reason()).isEqualTo("done");
    assertThat(done.steps()).hasSize(1);
    assertThat(done.steps().get(0).toDevice()).isEqualTo("sorted by g");
    assertThat(MoveQueue.read(table).orElseThrow().steps().get(0).kind()).isEqualTo(StepKind.SORT);
    MosaicTable after = MosaicTable.open(dir.resolve("t"), pool);
    Manifest sorted = after.latest();
    assertThat(sorted.version()).isEqualTo(before.version() + 1);
    assertThat(sorted.properties()).containsEntry(TableProperties.CLUSTERING, "g");
    assertThat(TableSorter.sortedBy(sorted, "g")).isTrue();
    assertThat(RowGroupFilter.bind("t", sorted, NARROW).select(0, 6)).hasSize(1);
    List<List<Object>> expected = new ArrayList<>(rows);
    expected.sort(Comparator.comparing(r -> (Long) r.get(1)));
    try (BufferAllocator alloc = new RootAllocator()) {
      TableRoundTripTest.assertRowsEqual(after, sorted, expected, alloc);
    }
    // `mosaic table` shows the order.
    java.io.StringWriter out = new java.io.StringWriter();
    int code =
        io.mosaic.cli.MosaicCli.run(
            new String[] {
              "table",
              "--devices",
              dir.resolve("devices.toml").toString(),
              "--table",
              dir.resolve("t").toString()
            },
            new java.io.PrintWriter(out, true),
            new java.io.PrintWriter(new java.io.StringWriter(), true));
    assertThat(code).isZero();
    assertThat(out.toString()).contains("clustered by g (row groups in its order)");
    // The next epoch's scans read one row group each, as estimated.
    scan(pool, after, NARROW, 1);
    assertThat(epoch(after).get(0).rowGroups()).hasSize(1);
  }

  @Test
  void aPausedReSortLeavesTheTableAsItWasAndResumesToTheEnd() throws Exception {
    DevicePool pool = io.mosaic.table.TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 3);
    Manifest before = table.latest();
    long bytes = before.segments().stream().mapToLong(SegmentEntry::fileBytes).sum();
    // Paced to read the table in about 3 s: the pause lands while the rows are read.
    MoveQueue queue =
        new MoveQueue(
            "t",
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            bytes / 3.0,
            bytes / 3.0,
            0,
            Map.of(),
            List.of(
                new MoveQueue.Step(
                    "d",
                    MoveStep.ALL_DEVICES,
                    MoveStep.ALL_DEVICES,
                    bytes,
                    1,
                    MoveQueue.StepState.PENDING,
                    0,
                    StepKind.SORT,
                    null)),
            "a test re-sort",
            null);
    queue.write(table);
    Thread pauser =
        new Thread(
            () -> {
              try {
                Thread.sleep(600);
              } catch (InterruptedException e) {
                return;
              }
              MoveQueue.read(table)
                  .orElseThrow()
                  .withState(MoveQueue.State.PAUSED, null)
                  .write(table);
            });
    pauser.start();
    MoveQueue paused = new DesignExecutor(table).run(QUIET);
    pauser.join();
    assertThat(paused.state()).isEqualTo(MoveQueue.State.PAUSED);
    assertThat(paused.steps().get(0).state()).isEqualTo(MoveQueue.StepState.PENDING);
    assertThat(table.latest()).isEqualTo(before);
    new GarbageCollector(table).collect(java.time.Duration.ZERO);
    try (var files = Files.walk(dir.resolve("devices"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".parquet")).count())
          .as("only the old version's files")
          .isEqualTo(before.segments().size());
    }

    MoveQueue.read(table).orElseThrow().withState(MoveQueue.State.RUNNING, null).write(table);
    // At full speed now: the queue keeps its rate, so resume through a faster copy of it.
    MoveQueue fast = MoveQueue.read(table).orElseThrow();
    new MoveQueue(
            fast.table(),
            fast.state(),
            fast.shape(),
            1e12,
            1e12,
            0,
            Map.of(),
            fast.steps(),
            fast.reason(),
            null)
        .write(table);
    MoveQueue done = new DesignExecutor(table).run(QUIET);
    assertThat(done.state()).isEqualTo(MoveQueue.State.DONE);
    Manifest sorted = table.latest();
    assertThat(sorted.version()).isEqualTo(before.version() + 1);
    assertThat(sorted.properties()).containsEntry(TableProperties.CLUSTERING, "d");
    try (BufferAllocator alloc = new RootAllocator()) {
      TableRoundTripTest.assertRowsEqual(table, sorted, CrashWorkload.rows(0, 1, 2), alloc);
    }
  }

  private static List<io.mosaic.trace.TraceRecord> epoch(MosaicTable table) {
    TraceLog log = new TraceLog(table.root());
    return log.read(log.epoch());
  }

  private static void scan(DevicePool pool, MosaicTable table, Predicate p, int times) {
    try (Retriever retriever = new Retriever(pool)) {
      for (int i = 0; i < times; i++) {
        try (Scan scan = retriever.scan(table, ScanRequest.of(List.of("k", "g")).where(p))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
  }
}
