package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.design.MoveQueue;
import io.mosaic.device.DevicePool;
import io.mosaic.operations.CalibratedModels;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.MoveRequest;
import io.mosaic.operations.MoveResult;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table commands end to end: import, table, migrate (dry and real), gc, and their errors. */
class TableCommandsTest {
  @TempDir Path dir;
  private StringWriter out;
  private StringWriter err;
  private Path devices;
  private Path table;

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    return MosaicCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @BeforeEach
  void poolAndParquet() throws IOException {
    devices = CalibratedModels.writeNvmeAndHdd(dir);
    table = dir.resolve("pool/nvme/orders");
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message spark_schema { required int64 o_orderkey; required int64 o_custkey;"
                + " required int32 o_orderdate (DATE); required binary o_comment (STRING); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(dir.resolve("orders.parquet")))
            .withType(schema)
            .withCompressionCodec(CompressionCodecName.ZSTD)
            .build()) {
      for (Order o : new OrderGenerator(0.01, 1, 1)) {
        writer.write(
            groups
                .newGroup()
                .append("o_orderkey", o.getOrderKey())
                .append("o_custkey", o.getCustomerKey())
                .append("o_orderdate", o.getOrderDate())
                .append("o_comment", o.getComment()));
      }
    }
  }

  @Test
  void importShowMigrateAndCollect() {
    String[] pool = importOrders();
    assertThat(out.toString())
        .contains(
            "imported 15,000 rows from 1 files into orders v2: 4 column chunks copied, 0 re-encoded");
    assertThat(err.toString()).contains("created table orders", "o_comment", "copied");

    assertThat(run(concat(new String[] {"table"}, pool))).isZero();
    assertThat(out.toString()).contains("table orders v2 (append): 15,000 rows in 1 row groups");
    assertThat(out.toString()).containsPattern("o_comment\\s+string not null\\s+nvme\\s+zstd\\s+1");

    assertThat(run(concat(new String[] {"migrate", "--set", "o_comment=hdd", "--dry-run"}, pool)))
        .isZero();
    assertThat(out.toString()).contains("o_comment", "nvme (zstd) -> hdd (lz4)", "into hdd: ~");
    assertThat(run(concat(new String[] {"table"}, pool))).isZero();
    assertThat(out.toString()).contains("v2 (append)");

    assertThat(run(concat(new String[] {"migrate", "--set", "o_comment=hdd"}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("migrated 1 segments of table orders", "now at version 3");
    assertThat(err.toString()).contains("committed o_comment (v3)");
    assertThat(out.toString()).contains("trace epoch 2"); // a migration starts a new epoch
    assertThat(run(concat(new String[] {"table"}, pool))).isZero();
    assertThat(out.toString()).containsPattern("o_comment\\s+string not null\\s+hdd\\s+lz4");
    // The migration retired the versions no reader pinned before deleting its old segment.
    assertThat(out.toString()).contains("versions kept: [3]");

    assertThat(run(concat(new String[] {"gc", "--grace", "PT0S"}, pool))).isZero();
    assertThat(out.toString()).contains("gc of table orders: removed 0 old versions and 0 files");

    // import copied three chunks byte for byte (no sketches); the migration's writer gave
    // o_comment its own: analyze reads the three, once.
    assertThat(run(concat(new String[] {"analyze"}, pool))).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("analyze of table orders: read 3 segments (3 row groups), committed version 4");
    assertThat(run(concat(new String[] {"analyze"}, pool))).isZero();
    assertThat(out.toString()).contains("every row group has its statistics; nothing read");
    assertThat(run(concat(new String[] {"table"}, pool))).isZero();
    assertThat(out.toString()).contains("v4 (analyze)");

    // Two scans of one column set and one of another, through the retriever: the trace shows them.
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    try (Retriever retriever = new Retriever(devicePool)) {
      for (List<String> columns :
          List.of(
              List.of("o_orderkey", "o_comment"),
              List.of("o_comment", "o_orderkey"),
              List.of("o_orderdate"))) {
        try (Scan scan = retriever.scan(t, ScanRequest.of(columns))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    assertThat(run(concat(new String[] {"trace"}, pool))).isZero();
    assertThat(out.toString())
        .contains("table orders, trace epoch 2: 3 scans, 2 distinct")
        .containsPattern("2\\s+\\S+ \\S+\\s+\\d+ ms\\s+o_comment,o_orderkey");
    assertThat(run(concat(new String[] {"trace", "--new-epoch"}, pool))).isZero();
    assertThat(out.toString()).contains("trace epoch 3 started");
    assertThat(run(concat(new String[] {"trace"}, pool))).isZero();
    assertThat(out.toString()).contains("epoch 3: 0 scans");
  }

  @Test
  void placeFromTheTraceThenMigrateThePlan() throws IOException {
    String[] pool = importOrders();
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    try (Retriever retriever = new Retriever(devicePool)) {
      for (List<String> columns :
          List.of(
              List.of("o_orderkey", "o_comment"),
              List.of("o_orderkey", "o_comment"),
              List.of("o_orderkey", "o_comment"),
              List.of("o_orderdate", "o_custkey"))) {
        try (Scan scan = retriever.scan(t, ScanRequest.of(columns))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    assertThat(run(concat(new String[] {"place"}, pool))).isOne();
    assertThat(err.toString()).contains("no usable device model", "calibrate the devices of");

    assertThat(
            run(
                "calibrate",
                "--devices",
                devices.toString(),
                "--sample-size",
                "2 MiB",
                "--cpu-sample-sf",
                "0"))
        .isZero();
    Path plan = dir.resolve("plan.csv");
    Path json = dir.resolve("plan.json");
    assertThat(
            run(
                concat(
                    new String[] {"place", "--plan", plan.toString(), "--json", json.toString()},
                    pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("LOPT: 2 distinct scans; predicted scan time", "Wrote " + plan)
        .containsPattern("orders\\.o_comment\\s+nvme\\s+(nvme|hdd)");
    assertThat(Files.readString(plan))
        .startsWith("table,column,device\n")
        .contains("orders,o_comment,");
    assertThat(Files.readString(json))
        .contains("\"predictedSecondsAfter\"", "\"orders.o_orderkey\"");

    assertThat(run(concat(new String[] {"migrate", "--plan", plan.toString()}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).containsPattern("(nothing to move|trace epoch 2)");
    // After a placement the next one waits for new scans (a new epoch), unless nothing moved.
    if (out.toString().contains("trace epoch 2")) {
      assertThat(run(concat(new String[] {"place"}, pool))).isOne();
      assertThat(err.toString()).contains("no scans recorded in the current trace epoch");
    }
    assertThat(run(concat(new String[] {"place", "--strategy", "fastest"}, pool))).isOne();
  }

  @Test
  void placeRowRangesWhereTheScansReadTheRecentRows() throws IOException {
    // The orders in row groups of ~1500 rows, so that ranges have row groups to be made of.
    Path parquet = dir.resolve("orders-small-groups.parquet");
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message spark_schema { required int64 o_orderkey; required int32 o_orderdate (DATE);"
                + " }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(parquet))
            .withType(schema)
            .withCompressionCodec(CompressionCodecName.ZSTD)
            .withRowGroupSize(16 * 1024L)
            .build()) {
      for (Order o : new OrderGenerator(0.01, 1, 1)) {
        writer.write(
            groups
                .newGroup()
                .append("o_orderkey", o.getOrderKey())
                .append("o_orderdate", o.getOrderDate()));
      }
    }
    String[] pool = {"--devices", devices.toString(), "--table", table.toString()};
    assertThat(run(concat(new String[] {"import", "--create"}, pool, parquet.toString())))
        .as(err.toString())
        .isZero();
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    int rowGroups = t.latest().rowGroups().size();
    assertThat(rowGroups).isGreaterThanOrEqualTo(4);
    List<List<Object>> before = allValues(devicePool, t);
    // The recent quarter of both columns is read ten times, the whole table once.
    try (Retriever retriever = new Retriever(devicePool)) {
      for (int i = 0; i <= 10; i++) {
        ScanRequest request = ScanRequest.of(List.of("o_orderkey", "o_orderdate"));
        try (Scan scan =
            retriever.scan(t, i == 0 ? request : request.rowGroups(rowGroups * 3 / 4, -1))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    CalibratedModels.nvme40xHdd(devicePool);
    long total = t.latest().segments().stream().mapToLong(s -> s.compressedBytes()).sum();
    // nvme holds the recent quarter of both columns (their rows are alike) but neither whole
    // column: only ranges can use it well.
    String[] args =
        concat(
            new String[] {
              "place", "--ranges", "--apply", "--max-bytes", "nvme=" + (total * 3 / 10) + " B"
            },
            pool);
    assertThat(run(args)).as(err.toString()).isZero();
    String cold = "[0:" + (rowGroups * 3 / 4) + "]";
    String recent = "[" + (rowGroups * 3 / 4) + ":" + rowGroups + "]";
    assertThat(out.toString())
        .containsPattern("orders\\.o_orderdate\\Q" + cold + "\\E\\s+nvme\\s+hdd")
        .containsPattern("orders\\.o_orderdate\\Q" + recent + "\\E\\s+nvme\\s+nvme")
        .contains("applied: migrated orders");
    MosaicTable after = MosaicTable.open(table, devicePool);
    for (String c : List.of("o_orderkey", "o_orderdate")) {
      assertThat(after.latest().segmentFor(c, 0).device()).isEqualTo("hdd");
      assertThat(after.latest().segmentFor(c, rowGroups - 1).device()).isEqualTo("nvme");
    }
    assertThat(allValues(devicePool, after)).isEqualTo(before);
    // Pins name whole columns: with ranges they are refused, saying what to do.
    assertThat(run(concat(new String[] {"place", "--ranges", "--pin", "o_orderkey=hdd"}, pool)))
        .isOne();
    assertThat(err.toString()).contains("pins name whole columns", "place without ranges");
  }

  @Test
  void maintainRunsTheStepsByItsScheduleAndCanBePausedAndResumed() throws Exception {
    String[] pool = importOrders("--device", "hdd");
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    List<String> read = List.of("o_orderkey", "o_orderdate", "o_custkey");
    try (Retriever retriever = new Retriever(devicePool)) {
      for (int i = 0; i < 3; i++) {
        try (Scan scan = retriever.scan(t, ScanRequest.of(read))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    CalibratedModels.nvme40xHdd(devicePool);
    List<List<Object>> before = allValues(devicePool, t);

    assertThat(run(concat(new String[] {"maintain", "--dry-run"}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("o_orderkey", "hdd", "nvme", "dry run: nothing moved")
        .containsPattern("(worth it|not worth it)");
    assertThat(MoveQueue.read(t)).isEmpty();

    // A step per scanned column, tens of kB each at 20 kB/s: a pause from another thread lands
    // after the first.
    java.util.concurrent.atomic.AtomicInteger status =
        new java.util.concurrent.atomic.AtomicInteger(-1);
    Thread background =
        new Thread(
            () ->
                status.set(
                    MosaicCli.run(
                        concat(
                            new String[] {
                              "maintain", "--force", "--shape", "constant", "--rate", "20 kB/s"
                            },
                            pool),
                        new PrintWriter(new StringWriter(), true),
                        new PrintWriter(new StringWriter(), true))));
    background.start();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (MoveQueue.read(t).map(q -> q.bytesDone() == 0).orElse(true)
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(run(concat(new String[] {"maintain", "--pause"}, pool))).as(err.toString()).isZero();
    background.join(60_000);
    assertThat(status.get()).isZero();
    MoveQueue paused = MoveQueue.read(t).orElseThrow();
    assertThat(paused.state()).isEqualTo(MoveQueue.State.PAUSED);
    assertThat(paused.steps()).extracting(MoveQueue.Step::column).containsAll(read);
    long done = paused.steps().stream().filter(s -> s.state() == MoveQueue.StepState.DONE).count();
    assertThat(done).isBetween(1L, paused.steps().size() - 1L);
    // Each step committed on its own: the columns done are on nvme, the others still on hdd.
    MosaicTable reopened = MosaicTable.open(table, devicePool);
    for (MoveQueue.Step s : paused.steps()) {
      assertThat(reopened.latest().segmentsOf(s.column()).get(0).device())
          .as(s.column())
          .isEqualTo(s.state() == MoveQueue.StepState.DONE ? "nvme" : "hdd");
    }
    assertThat(allValues(devicePool, reopened)).isEqualTo(before);
    // The progress view, from the queue as another process sees it: the done steps' bytes are
    // done, the rest left, at the rate measured, and the workload's predicted time is the last
    // done step's.
    MaintainResult view =
        new MaintenanceExecutor(devicePool, n -> MosaicTable.open(Path.of(n), devicePool))
            .maintain(
                MaintainRequest.parse(
                    table.toString(), "status", null, null, null, null, null, null, null, null),
                new io.mosaic.design.DesignExecutor.Listener() {},
                false);
    MaintainResult.Progress progress = view.progress();
    assertThat(progress.bytesDone()).isPositive();
    assertThat(progress.bytesLeft()).isPositive();
    assertThat(progress.bytesDone() + progress.bytesLeft()).isEqualTo(paused.bytesTotal());
    assertThat(progress.bytesDone())
        .isEqualTo(view.steps().stream().mapToLong(MaintainResult.StepRow::bytesDone).sum());
    for (MaintainResult.StepRow s : view.steps()) {
      assertThat(s.bytesDone())
          .as(s.column())
          .isEqualTo(s.stepState().equals("done") ? s.bytes() : 0);
      assertThat(s.bytesDone() + s.bytesLeft()).isEqualTo(s.bytes());
    }
    assertThat(progress.rate()).isNotNull().isPositive();
    assertThat(progress.etaSeconds())
        .isCloseTo(
            progress.bytesLeft() / progress.rate(), org.assertj.core.data.Offset.offset(1e-6));
    assertThat(progress.predictedSecondsNow())
        .isNotNull()
        .isEqualTo(paused.steps().get((int) done - 1).secondsAfter());
    assertThat(view.rows()).allSatisfy(r -> assertThat(r).hasSize(MaintainResult.COLUMNS.size()));
    assertThat(run(concat(new String[] {"moves"}, pool))).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("transformation of orders: paused, " + done + " of ")
        .containsPattern("progress: .+ done, .+ left, rate .+/s, ETA [0-9.]+ s,")
        .contains(
            String.format(
                java.util.Locale.ROOT,
                "predicted workload time now %.3f s",
                paused.steps().get((int) done - 1).secondsAfter()));
    assertThat(run(concat(new String[] {"maintain"}, pool))).isOne();
    assertThat(err.toString()).contains("has a transformation paused", "resume or cancel it first");

    assertThat(run(concat(new String[] {"maintain", "--resume", "--rate", "1 GB/s"}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).containsPattern("done, (\\d) of \\1 steps done");
    // The resume's rate replaced the queue's; the shape, not given, stayed the one it started with.
    MoveQueue resumed = MoveQueue.read(t).orElseThrow();
    assertThat(resumed.schedule().rate()).isEqualTo(1e9);
    assertThat(out.toString()).contains("schedule constant: 1 GB/s throughout");
    assertThat(resumed.schedule().shape()).isEqualTo(io.mosaic.design.ScheduleShape.CONSTANT);
    assertThat(resumed.schedule().workingSetBytes()).isEqualTo(paused.schedule().workingSetBytes());
    assertThat(paused.schedule().rate()).isEqualTo(20e3);
    MosaicTable finished = MosaicTable.open(table, devicePool);
    for (String c : read) {
      assertThat(finished.latest().segmentsOf(c).get(0).device()).as(c).isEqualTo("nvme");
    }
    assertThat(allValues(devicePool, finished)).isEqualTo(before);
    assertThat(run(concat(new String[] {"maintain", "--status"}, pool))).isZero();
    assertThat(out.toString()).contains("transformation of orders: done");
  }

  /**
   * A pause sent while the transformation is still being identified (no queue yet) is kept and the
   * transformation starts paused, rather than being refused and the runner running unpaused; a
   * queue that says running with no live runner shows as interrupted; and the errors speak of the
   * CLI's options, not of the procedures' actions.
   */
  @Test
  void aPauseWhileIdentifyingStartsItPausedAndStatusTellsARunnerGone() throws Exception {
    String[] pool = importOrders("--device", "hdd");
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    assertThat(run(concat(new String[] {"maintain", "--pause"}, pool))).isEqualTo(3);
    assertThat(err.toString())
        .contains("has no transformation to pause", "mosaic maintain --devices")
        .doesNotContain("action");
    try (Retriever retriever = new Retriever(devicePool)) {
      for (int i = 0; i < 3; i++) {
        try (Scan scan = retriever.scan(t, ScanRequest.of(List.of("o_orderkey", "o_custkey")))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    CalibratedModels.nvme40xHdd(devicePool);
    long version = t.latest().version();

    // The pause arrives from the CLI while the start identifies (its listener is called then).
    String[] pauseOutput = new String[1];
    MaintainResult started =
        new MaintenanceExecutor(devicePool, name -> MosaicTable.open(Path.of(name), devicePool))
            .maintain(
                MaintainRequest.parse(
                    table.toString(), "start", "constant", "1 GB/s", null, null, null, true, false),
                new io.mosaic.design.DesignExecutor.Listener() {
                  @Override
                  public void identifying(MosaicTable identified) {
                    assertThat(MoveQueue.read(identified)).isEmpty();
                    assertThat(run(concat(new String[] {"maintain", "--status"}, pool)))
                        .as(err.toString())
                        .isZero();
                    assertThat(out.toString()).contains("being identified");
                    assertThat(run(concat(new String[] {"maintain", "--pause"}, pool)))
                        .as(err.toString())
                        .isZero();
                    pauseOutput[0] = out.toString();
                  }
                },
                false);
    assertThat(pauseOutput[0]).contains("being identified; it will start paused");
    assertThat(started.state()).isEqualTo("paused");
    MoveQueue queue = MoveQueue.read(t).orElseThrow();
    assertThat(queue.state()).isEqualTo(MoveQueue.State.PAUSED);
    assertThat(queue.steps()).isNotEmpty();
    assertThat(queue.bytesDone()).isZero();
    assertThat(MosaicTable.open(table, devicePool).latest().version()).isEqualTo(version);

    // Left saying running by a process that stopped: no runner holds it.
    MoveQueue.update(t, q -> q.withState(MoveQueue.State.RUNNING, null));
    assertThat(run(concat(new String[] {"maintain", "--status"}, pool))).isZero();
    assertThat(out.toString())
        .contains("transformation of orders: interrupted", "no process is running it");
    assertThat(run(concat(new String[] {"maintain", "--resume"}, pool))).isZero();
    assertThat(out.toString()).containsPattern("done, (\\d) of \\1 steps done");
  }

  @Test
  void maintainStartsOnDriftOnlyAndWatchesTheTable() throws Exception {
    String[] pool = importOrders("--device", "hdd");
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    try (Retriever retriever = new Retriever(devicePool)) {
      for (int i = 0; i < 3; i++) {
        try (Scan scan = retriever.scan(t, ScanRequest.of(List.of("o_orderkey", "o_orderdate")))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    CalibratedModels.nvme40xHdd(devicePool);
    List<List<Object>> before = allValues(devicePool, t);

    // A threshold the new design does not beat: nothing starts, and the output says why.
    assertThat(run(concat(new String[] {"maintain", "--force", "--drift", "0.999"}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("no drift: ", "not above the 99.9 % threshold")
        .contains("not started: the workload has not drifted by more than the threshold");
    assertThat(MoveQueue.read(t)).isEmpty();
    assertThat(run(concat(new String[] {"maintain", "--drift", "1.5"}, pool))).isOne();
    assertThat(err.toString()).contains("drift threshold 1.5", "from 0 to below 1");

    // The service: the first check finds the drift and runs the steps; stopped by an interrupt.
    StringWriter watched = new StringWriter();
    java.util.concurrent.atomic.AtomicInteger status =
        new java.util.concurrent.atomic.AtomicInteger(-1);
    Thread watch =
        new Thread(
            () ->
                status.set(
                    MosaicCli.run(
                        concat(
                            new String[] {
                              "maintain", "--watch", "50ms", "--force", "--rate", "1 GB/s"
                            },
                            pool),
                        new PrintWriter(watched, true),
                        new PrintWriter(watched, true))));
    watch.start();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!watched.toString().contains("transformation of orders: done")
        && watch.isAlive()
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    watch.interrupt();
    watch.join(60_000);
    assertThat(status.get()).as(watched.toString()).isZero();
    assertThat(watched.toString())
        .contains("watching ", "more than 20.0 %", "drift: ", "above the 20.0 % threshold")
        .contains("transformation of orders: done")
        // Only --rate given: the default shape moves the working set faster, and says so.
        .contains(
            "schedule fast-start: the working set (the first ",
            ") moves at the full rate (unpaced; --full-rate bounds it), the rest at 1 GB/s"
                + " (--shape constant paces every byte at the rate)");
    MosaicTable finished = MosaicTable.open(table, devicePool);
    for (String c : List.of("o_orderkey", "o_orderdate")) {
      assertThat(finished.latest().segmentsOf(c).get(0).device()).as(c).isEqualTo("nvme");
    }
    assertThat(allValues(devicePool, finished)).isEqualTo(before);
  }

  private static List<List<Object>> allValues(DevicePool pool, MosaicTable t) {
    List<List<Object>> rows = new java.util.ArrayList<>();
    List<String> columns = t.latest().schema().names();
    try (Retriever retriever = new Retriever(pool);
        Scan scan = retriever.scan(t, ScanRequest.of(columns).recorded(false))) {
      while (scan.hasNext()) {
        var batch = scan.next();
        for (int i = 0; i < batch.getRowCount(); i++) {
          List<Object> row = new java.util.ArrayList<>();
          for (int c = 0; c < columns.size(); c++) {
            row.add(String.valueOf(batch.getVector(c).getObject(i)));
          }
          rows.add(row);
        }
      }
    }
    rows.sort(java.util.Comparator.comparing(Object::toString));
    return rows;
  }

  /**
   * Imports the orders, records two distinct scans (three of one) and writes the device model
   * `mosaic calibrate` would for an NVMe-like nvme and an HDD-like hdd (measured, the emulated
   * devices can come out alike on a busy machine).
   */
  private String[] tracedAndCalibrated() throws IOException {
    String[] pool = importOrders();
    DevicePool devicePool = DevicePool.load(devices);
    MosaicTable t = MosaicTable.open(table, devicePool);
    try (Retriever retriever = new Retriever(devicePool)) {
      for (List<String> columns :
          List.of(
              List.of("o_orderkey", "o_comment"),
              List.of("o_orderkey", "o_comment"),
              List.of("o_orderdate", "o_custkey"))) {
        try (Scan scan = retriever.scan(t, ScanRequest.of(columns))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
      }
    }
    CalibratedModels.nvme40xHdd(devicePool);
    return pool;
  }

  @Test
  void placeTakesPinsADeviceCapANoRegressionBoundAndASample() throws IOException {
    String[] pool = tracedAndCalibrated();
    int epoch = new TraceLog(table).epoch();
    String[] constrained = {
      "place",
      "--pin",
      "o_custkey=hdd",
      "--max-devices",
      "1",
      "--no-regression",
      "1000",
      "--sample",
      "0.5",
      "--seed",
      "7",
      "--time-limit",
      "30s"
    };
    // A bound of 0 cannot hold with every column on the slower device: no plan, nothing moves.
    String[] strict = constrained.clone();
    strict[6] = "0";
    assertThat(run(concat(strict, pool, "--apply"))).isNotZero();
    assertThat(err.toString()).contains("mosaic place");
    assertThat(devicesOf(table)).containsOnly("nvme");

    // Without --apply the plan is shown and nothing moves.
    assertThat(run(concat(constrained, pool))).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("solved on 1 of 2 distinct scans; 1 devices used", "dry run: nothing moved")
        .containsPattern("orders\\.o_custkey\\s+nvme\\s+hdd\\s+\\S+ \\S+\\s+yes\\s+yes\\s");
    assertThat(new TraceLog(table).epoch()).isEqualTo(epoch);
    assertThat(devicesOf(table)).containsOnly("nvme");

    assertThat(run(concat(constrained, pool, "--apply"))).as(err.toString()).isZero();
    // The pin puts o_custkey on hdd and, one device allowed, every column follows it.
    assertThat(devicesOf(table)).containsOnly("hdd");
    assertThat(out.toString()).contains("applied: migrated orders (new trace epoch " + (epoch + 1));
    assertThat(new TraceLog(table).epoch()).isEqualTo(epoch + 1);

    assertThat(run(concat(new String[] {"place", "--pin", "o_custkey"}, pool))).isOne();
    assertThat(err.toString()).contains("pin entry 'o_custkey' must be COLUMN=DEVICE");
  }

  @Test
  void theLibrarysMoveStartsANewTraceEpochOnlyWhenItApplies() throws IOException {
    String[] pool = importOrders();
    DevicePool devicePool = DevicePool.load(devices);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(devicePool, name -> MosaicTable.open(Path.of(name), devicePool));
    int epoch = new TraceLog(table).epoch();
    MoveResult dry = executor.move(MoveRequest.parse(table.toString(), "o_comment=hdd", false));
    assertThat(dry.columns())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.applied()).isFalse();
              assertThat(c.traceEpoch()).isNull();
            });
    assertThat(new TraceLog(table).epoch()).isEqualTo(epoch);
    assertThat(devicesOf(table)).containsOnly("nvme");

    MoveResult moved = executor.move(MoveRequest.parse(table.toString(), "o_comment=hdd", null));
    assertThat(moved.columns())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.applied()).isTrue();
              assertThat(c.traceEpoch()).isEqualTo(epoch + 1);
            });
    assertThat(new TraceLog(table).epoch()).isEqualTo(epoch + 1);
    assertThat(executor.status(table.toString()).columns())
        .anySatisfy(c -> assertThat(c.column() + "@" + c.device()).isEqualTo("o_comment@hdd"));
    // Nothing left to move: nothing applied, and the trace keeps its epoch.
    assertThat(executor.move(MoveRequest.parse(table.toString(), "o_comment=hdd", true)).columns())
        .isEmpty();
    assertThat(new TraceLog(table).epoch()).isEqualTo(epoch + 1);
  }

  private java.util.Set<String> devicesOf(Path root) {
    java.util.Set<String> used = new java.util.TreeSet<>();
    MosaicTable.open(root, DevicePool.load(devices))
        .latest()
        .storedColumns()
        .forEach(c -> used.add(c.device()));
    return used;
  }

  @Test
  void cloneRollbackAndAnInterruptedCreate() throws Exception {
    String[] pool = {"--devices", devices.toString(), "--table", table.toString()};
    String parquet = dir.resolve("orders.parquet").toString();
    assertThat(run(concat(new String[] {"import", "--create"}, pool, parquet))).isZero();
    assertThat(run(concat(new String[] {"import"}, pool, parquet))).isZero(); // v3

    Path copy = dir.resolve("pool/nvme/orders_copy");
    assertThat(run(concat(new String[] {"clone", "--to", copy.toString()}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .contains("cloned table orders v3 to orders_copy (" + copy + "): 30,000 rows, 8 segments");
    String[] copyPool = {"--devices", devices.toString(), "--table", copy.toString()};
    assertThat(run(concat(new String[] {"migrate", "--set", "o_comment=hdd"}, pool))).isZero();
    assertThat(run(concat(new String[] {"gc", "--grace", "PT0S"}, pool))).isZero();
    assertThat(run(concat(new String[] {"gc", "--grace", "PT0S"}, copyPool))).isZero();
    assertThat(run(concat(new String[] {"table"}, copyPool))).isZero();
    assertThat(out.toString()).contains("table orders_copy v2 (clone): 30,000 rows");
    assertThat(rows(copy)).isEqualTo(30_000);
    assertThat(rows(table)).isEqualTo(30_000);

    // A damaged newest manifest: every command names the way back, and rollback takes it.
    assertThat(run(concat(new String[] {"import"}, pool, parquet))).isZero(); // v5
    Path v5 = table.resolve("_manifests/v00000000000000000005.json");
    Files.write(v5, new byte[0]);
    assertThat(run(concat(new String[] {"table"}, pool))).isEqualTo(4); // corrupt
    assertThat(err.toString())
        .contains("the last good version is v4: roll back to it (docs/format.md)");
    assertThat(run(concat(new String[] {"rollback", "--to", "4"}, pool)))
        .as(err.toString())
        .isZero();
    assertThat(out.toString())
        .isEqualTo("rolled table orders back to v4: published its content as v6 (30,000 rows)\n");
    assertThat(run(concat(new String[] {"table"}, pool))).isZero();
    assertThat(out.toString()).contains("table orders v6 (rollback): 30,000 rows");
    assertThat(rows(table)).isEqualTo(30_000);

    // An import killed before its table's first version: a later import --create makes it.
    Path fresh = dir.resolve("pool/nvme/fresh");
    Process done = new ProcessBuilder("true").start();
    assertThat(done.waitFor()).isZero();
    Files.createDirectories(fresh.resolve("_manifests"));
    Files.writeString(fresh.resolve("_manifests/.tmp-" + done.pid() + "-1234"), "{\"format\"");
    String[] freshPool = {"--devices", devices.toString(), "--table", fresh.toString()};
    assertThat(run(concat(new String[] {"table"}, freshPool))).isEqualTo(3); // not found
    assertThat(err.toString())
        .contains("the creation of table fresh at " + fresh + " was interrupted");
    assertThat(run(concat(new String[] {"import", "--create"}, freshPool, parquet)))
        .as(err.toString())
        .isZero();
    assertThat(rows(fresh)).isEqualTo(15_000);
  }

  /**
   * {@code mv t t2; cp -a t2 t3}: migrate, import, gc and drop are refused through both roots,
   * naming adopt and clone, until the moved one adopts its folders; the copy stays refused.
   */
  @Test
  void aMovedTableAdoptsItsFoldersAndACopyOfItIsRefused() throws Exception {
    String[] pool = {"--devices", devices.toString(), "--table", table.toString()};
    String parquet = dir.resolve("orders.parquet").toString();
    assertThat(run(concat(new String[] {"import", "--create"}, pool, parquet))).isZero();
    Path moved = dir.resolve("pool/nvme/orders_moved");
    Files.move(table, moved);
    Path copy = dir.resolve("pool/nvme/orders_copy");
    Process cp = new ProcessBuilder("cp", "-a", moved.toString(), copy.toString()).start();
    assertThat(cp.waitFor()).isZero();
    String[] movedPool = {"--devices", devices.toString(), "--table", moved.toString()};
    String[] copyPool = {"--devices", devices.toString(), "--table", copy.toString()};
    for (String[] root : List.of(copyPool, movedPool)) {
      for (String[] command :
          List.of(
              new String[] {"migrate", "--set", "o_comment=hdd"},
              new String[] {"gc", "--grace", "PT0S"},
              new String[] {"import", parquet})) {
        assertThat(run(concat(command, root))).as(command[0]).isEqualTo(4);
        assertThat(err.toString())
            .contains("does not own its segment folder", "mosaic adopt --devices D --table")
            .doesNotContain("\tat ");
      }
    }
    assertThat(rows(moved)).isEqualTo(15_000);

    assertThat(run(concat(new String[] {"adopt"}, movedPool))).as(err.toString()).isZero();
    assertThat(out.toString())
        .startsWith("table orders_moved (id ")
        .contains("now owns its segment folders on nvme (they named " + table + ")");
    assertThat(run(concat(new String[] {"adopt"}, movedPool))).isZero();
    assertThat(out.toString())
        .contains("already owns its segment folders on nvme; nothing changed");
    assertThat(run(concat(new String[] {"adopt"}, copyPool))).isEqualTo(4);
    assertThat(err.toString()).contains("looks like a copy of " + moved);
    assertThat(run(concat(new String[] {"migrate", "--set", "o_comment=hdd"}, copyPool)))
        .isEqualTo(4);

    assertThat(run(concat(new String[] {"migrate", "--set", "o_comment=hdd"}, movedPool)))
        .as(err.toString())
        .isZero();
    assertThat(run(concat(new String[] {"gc", "--grace", "PT0S"}, movedPool))).isZero();
    assertThat(rows(moved)).isEqualTo(15_000);
  }

  /** Rows of the table at {@code root}, by a full scan. */
  private long rows(Path root) {
    DevicePool devicePool = DevicePool.load(devices);
    long rows = 0;
    try (Retriever retriever = new Retriever(devicePool);
        Scan scan =
            retriever.scan(
                MosaicTable.open(root, devicePool),
                ScanRequest.of(List.of("o_orderkey", "o_comment")).recorded(false))) {
      while (scan.hasNext()) {
        rows += scan.next().getRowCount();
      }
    }
    return rows;
  }

  @Test
  void errorsNameTheProblem() {
    String[] pool = {"--devices", devices.toString(), "--table", table.toString()};
    // Not found is exit code 3 (docs/README.md, "Errors").
    assertThat(run(concat(new String[] {"table"}, pool))).isEqualTo(3);
    assertThat(err.toString()).startsWith("mosaic table: no Mosaic table at " + table);

    assertThat(
            run(
                concat(
                    new String[] {"import", "--create"},
                    pool,
                    dir.resolve("orders.parquet").toString())))
        .isZero();
    assertThat(run(concat(new String[] {"migrate", "--set", "nope=hdd"}, pool))).isEqualTo(3);
    assertThat(err.toString())
        .isEqualTo(
            "mosaic migrate: unknown column 'nope'; the table has: o_orderkey, o_custkey,"
                + " o_orderdate, o_comment\n");
    assertThat(run(concat(new String[] {"migrate", "--set", "o_comment=ssd"}, pool))).isEqualTo(3);
    assertThat(err.toString()).contains("unknown device 'ssd'", "defines: nvme, hdd");
    assertThat(
            run(concat(new String[] {"import"}, pool, dir.resolve("missing.parquet").toString())))
        .isEqualTo(3);
    assertThat(err.toString())
        .contains("no such Parquet file or directory: " + dir.resolve("missing.parquet"));
  }

  /**
   * Imports orders.parquet into a new table with the {@code import} command and {@code options},
   * and returns the options that name the pool and that table.
   */
  private String[] importOrders(String... options) {
    String[] pool = {"--devices", devices.toString(), "--table", table.toString()};
    assertThat(
            run(
                concat(
                    concat(new String[] {"import", "--create"}, options),
                    pool,
                    dir.resolve("orders.parquet").toString())))
        .as(err.toString())
        .isZero();
    return pool;
  }

  private static String[] concat(String[] a, String[] b, String... c) {
    String[] all = new String[a.length + b.length + c.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    System.arraycopy(c, 0, all, a.length + b.length, c.length);
    return all;
  }
}
