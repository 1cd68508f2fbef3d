package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.ScheduleShape;
import io.mosaic.device.DevicePool;
import io.mosaic.format.SegmentEntry;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.table.MosaicTable;
import io.mosaic.warehouse.Warehouse;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner from SQL: {@code "t$plan"} and {@code CALL mosaic.system.place}, over the trace the
 * cluster records, on a pool whose device model makes "fast" 40x faster to read than "slow".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicPlacementTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;
  private Path modelFile;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    modelFile = pool.modelFile();
    Files.createDirectories(modelFile.getParent());
    // What `mosaic calibrate` would write for an NVMe-like and an HDD-like device.
    DeviceModelFile.write(
        modelFile,
        List.of(
            new DeviceModel(
                "fast",
                2,
                Bandwidth.ofMegabytesPerSecond(2000),
                Latency.ofMillis(0.1),
                Map.of(Codec.ZSTD, new DeviceModel.CodecModel(mbps(3000), 3.0))),
            new DeviceModel(
                "slow",
                1,
                Bandwidth.ofMegabytesPerSecond(50),
                Latency.ofMillis(8),
                Map.of(Codec.LZ4, new DeviceModel.CodecModel(mbps(80), 2.0)))),
        "test model: fast is 40x faster than slow");
    runner.execute("CREATE SCHEMA mosaic.tiny");
  }

  private static Bandwidth mbps(double mbps) {
    return Bandwidth.ofMegabytesPerSecond(mbps);
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private MaterializedResult sql(String sql) {
    return runner.execute(sql);
  }

  private Map<String, String> devices(String table) {
    Map<String, String> devices = new HashMap<>();
    for (MaterializedRow r :
        sql("SELECT column_name, device FROM \"" + table + "$placement\"").getMaterializedRows()) {
      assertThat(devices.put((String) r.getField(0), (String) r.getField(1)))
          .as("one device per column")
          .isNull();
    }
    return devices;
  }

  @Test
  void placeMovesTheScannedColumnsWhereThePlanSays() {
    sql(
        "CREATE TABLE orders WITH (default_device = 'slow', row_group_rows = 1000) AS"
            + " SELECT * FROM tpch.tiny.orders");
    String query =
        "SELECT o_orderpriority, sum(o_totalprice) FROM orders"
            + " WHERE o_orderdate < DATE '1995-01-01' GROUP BY o_orderpriority";
    MaterializedResult before = sql(query);
    assertThat(before.getRowCount()).isEqualTo(5);
    sql("SELECT count(DISTINCT o_custkey) FROM orders WHERE o_totalprice > 1000");
    Set<String> scanned = Set.of("o_orderpriority", "o_totalprice", "o_orderdate", "o_custkey");

    List<MaterializedRow> plan =
        sql("SELECT column_name, current_device, planned_device, moves, stored_bytes,"
                + " predicted_seconds_before, predicted_seconds_after"
                + " FROM \"orders$plan\" WHERE strategy = 'lopt'")
            .getMaterializedRows();
    assertThat(plan).hasSize(9).allMatch(r -> r.getField(1).equals("slow"));
    Map<String, String> planned =
        plan.stream()
            .collect(Collectors.toMap(r -> (String) r.getField(0), r -> (String) r.getField(2)));
    // Every column read goes to the 40x faster device: it has room for all of them.
    scanned.forEach(c -> assertThat(planned.get(c)).as(c).isEqualTo("fast"));
    assertThat(plan)
        .allMatch(r -> r.getField(3).equals(!r.getField(1).equals(r.getField(2))))
        .allMatch(r -> (long) r.getField(4) > 0);
    double now = (double) plan.get(0).getField(5);
    double planned_ = (double) plan.get(0).getField(6);
    assertThat(planned_).isLessThan(now / 10);
    // The heuristics are there too, computed only when asked for.
    assertThat(sql("SELECT DISTINCT strategy FROM \"orders$plan\"").getOnlyColumnAsSet())
        .containsExactlyInAnyOrder("lopt", "hot-column", "hot-table");

    // A plan is only shown (here: logged) unless apply => true, as in Spark and the CLI.
    sql("CALL mosaic.system.place('tiny', 'orders')");
    sql("CALL mosaic.system.place(schema_name => 'tiny', table_name => 'orders', apply => false)");
    assertThat(devices("orders").values()).containsOnly("slow");

    sql("CALL mosaic.system.place(schema_name => 'tiny', table_name => 'orders', apply => true)");
    // A placement starts a new trace epoch: the scans so far described the old
    // placement, and reading metadata tables records none.
    assertThatThrownBy(() -> sql("SELECT * FROM \"orders$plan\""))
        .hasMessageContaining("cannot place tiny.orders: no scan of it is recorded")
        .hasMessageContaining("run the queries the placement should serve first");
    assertThat(devices("orders")).isEqualTo(planned);
    assertThat(
            sql("SELECT codec FROM \"orders$placement\" WHERE device = 'fast'")
                .getOnlyColumnAsSet())
        .containsOnly("zstd");
    assertThat(sql(query).getMaterializedRows())
        .containsExactlyInAnyOrderElementsOf(before.getMaterializedRows());
    assertThat(sql("SELECT * FROM orders").getMaterializedRows())
        .containsExactlyInAnyOrderElementsOf(
            sql("SELECT * FROM tpch.tiny.orders").getMaterializedRows());
  }

  @Test
  void placeWithRangesPutsTheRecentRowsOfAColumnApart() {
    // In row groups of 1000 rows, each written from a range of keys: a filter on the key skips row
    // groups, so the trace records which ranges the queries read.
    sql(
        "CREATE TABLE recent WITH (default_device = 'slow', row_group_rows = 1000) AS"
            + " SELECT o_orderkey, o_totalprice FROM tpch.tiny.orders");
    String query = "SELECT count(*), sum(o_totalprice) FROM recent WHERE o_orderkey > 48000";
    MaterializedResult expected = sql(query);
    for (int i = 0; i < 5; i++) {
      sql(query);
    }
    sql("SELECT sum(o_totalprice) FROM recent"); // once, every row
    long bytes =
        (long) sql("SELECT sum(compressed_bytes) FROM \"recent$placement\"").getOnlyValue();
    // "fast" has room for the recent rows of both columns, not for either whole column.
    sql(
        "CALL mosaic.system.place(schema_name => 'tiny', table_name => 'recent', ranges => true,"
            + " apply => true, max_bytes => 'fast="
            + (bytes * 3 / 10)
            + " B')");
    List<MaterializedRow> parts =
        sql("SELECT column_name, device, row_groups FROM \"recent$placement\"")
            .getMaterializedRows();
    for (String column : List.of("o_orderkey", "o_totalprice")) {
      assertThat(parts)
          .filteredOn(r -> r.getField(0).equals(column))
          .extracting(r -> (String) r.getField(1))
          .as(column + " " + parts)
          .containsExactlyInAnyOrder("fast", "slow");
    }
    // o_orderkey is read only by the filtered query: its fast rows are the ones that query reads,
    // not all of them; o_totalprice, read by both queries, has at least those rows there too.
    // (Trino's writers need not keep the generator's order, so which row groups they are depends
    // on the run.)
    Set<Integer> hotKeys = rowGroups(parts, "o_orderkey", "fast");
    assertThat(hotKeys).isNotEmpty();
    assertThat(rowGroups(parts, "o_orderkey", "slow"))
        .isNotEmpty()
        .doesNotContainAnyElementsOf(hotKeys);
    assertThat(rowGroups(parts, "o_totalprice", "fast")).containsAll(hotKeys);
    assertThat(sql(query).getMaterializedRows())
        .containsExactlyElementsOf(expected.getMaterializedRows());
    assertThat(sql("SELECT * FROM recent").getMaterializedRows())
        .containsExactlyInAnyOrderElementsOf(
            sql("SELECT o_orderkey, o_totalprice FROM tpch.tiny.orders").getMaterializedRows());
  }

  /** The row groups of {@code column} on {@code device}, from $placement's row_groups slices. */
  private static Set<Integer> rowGroups(List<MaterializedRow> parts, String column, String device) {
    Set<Integer> groups = new java.util.TreeSet<>();
    for (MaterializedRow r : parts) {
      if (r.getField(0).equals(column) && r.getField(1).equals(device)) {
        for (String slice : ((String) r.getField(2)).split(",")) {
          String[] bounds = slice.split(":");
          for (int g = Integer.parseInt(bounds[0]); g < Integer.parseInt(bounds[1]); g++) {
            groups.add(g);
          }
        }
      }
    }
    return groups;
  }

  @Test
  void maintainRunsInTheBackgroundAndMovesShowsIt() throws Exception {
    sql(
        "CREATE TABLE kept WITH (default_device = 'slow') AS"
            + " SELECT o_orderkey, o_totalprice, o_comment FROM tpch.tiny.orders");
    String query = "SELECT count(*), sum(o_totalprice) FROM kept WHERE o_orderkey > 1000";
    MaterializedResult expected = sql(query);
    sql(query);
    assertThat(sql("SELECT * FROM \"kept$moves\"").getRowCount()).isZero();

    String call = "CALL mosaic.system.maintain(schema_name => 'tiny', table_name => 'kept'";
    sql(call + ", dry_run => true)");
    assertThat(sql("SELECT * FROM \"kept$moves\"").getRowCount())
        .as("a dry run starts nothing")
        .isZero();
    // Slowly (10 kB/s), so that a pause lands between the steps.
    sql(call + ", force => true, shape => 'constant', rate => '10kB/s')");
    List<MaterializedRow> started =
        sql("SELECT column_name, to_device, state FROM \"kept$moves\"").getMaterializedRows();
    assertThat(started)
        .extracting(r -> (String) r.getField(0))
        .containsExactlyInAnyOrder("o_orderkey", "o_totalprice");
    assertThat(started).allMatch(r -> r.getField(1).equals("fast"));
    sql(call + ", action => 'pause')");
    assertThat(sql("SELECT DISTINCT state FROM \"kept$moves\"").getOnlyValue()).isEqualTo("paused");
    sql(call + ", action => 'resume', rate => '1GB/s')");
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!sql("SELECT DISTINCT state FROM \"kept$moves\"").getOnlyValue().equals("done")
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(sql("SELECT DISTINCT step_state FROM \"kept$moves\"").getOnlyColumnAsSet())
        .containsExactly("done");
    // The progress view: every byte done, nothing left, and the workload's predicted time now.
    List<MaterializedRow> progress =
        sql("SELECT DISTINCT bytes_done, bytes_left, eta_seconds,"
                + " predicted_seconds_now IS NOT NULL FROM \"kept$moves\"")
            .getMaterializedRows();
    assertThat(progress).as("the same on every row").hasSize(1);
    assertThat(progress.get(0).getFields())
        .containsExactly(
            sql("SELECT sum(bytes) FROM \"kept$moves\"").getOnlyValue(), 0L, 0.0, true);
    assertThat(devices("kept"))
        .containsEntry("o_orderkey", "fast")
        .containsEntry("o_totalprice", "fast")
        .containsEntry("o_comment", "slow");
    assertThat(sql(query).getMaterializedRows())
        .containsExactlyElementsOf(expected.getMaterializedRows());
    assertThatThrownBy(() -> sql(call + ", action => 'later')"))
        .hasMessageContaining("maintain action 'later' is unknown");
  }

  @Test
  void aCoordinatorStartingResumesATransformationLeftRunning() throws Exception {
    sql(
        "CREATE TABLE left_running WITH (default_device = 'slow') AS"
            + " SELECT o_orderkey, o_comment FROM tpch.tiny.orders");
    String query = "SELECT count(*), sum(o_orderkey), max(o_comment) FROM left_running";
    MaterializedResult expected = sql(query);
    // As a coordinator that stopped mid-transformation leaves it: the queue running, no runner.
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    MosaicTable table = Warehouse.open(dir.resolve("metadata"), pool).open("tiny", "left_running");
    long bytes =
        table.latest().segmentsOf("o_orderkey").stream().mapToLong(SegmentEntry::fileBytes).sum();
    new MoveQueue(
            table.name(),
            MoveQueue.State.RUNNING,
            ScheduleShape.CONSTANT,
            1e9,
            1e9,
            0,
            Map.of(),
            List.of(
                new MoveQueue.Step(
                    "o_orderkey", "slow", "fast", bytes, 1, MoveQueue.StepState.PENDING, 0)),
            "left by a coordinator that stopped",
            null)
        .write(table);
    // The restart: a new cluster over the same directories; its coordinator's connector looks.
    try (DistributedQueryRunner restarted = MosaicQueryRunner.create(dir)) {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (MoveQueue.read(table).orElseThrow().state() == MoveQueue.State.RUNNING
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
    }
    assertThat(MoveQueue.read(table).orElseThrow().state()).isEqualTo(MoveQueue.State.DONE);
    assertThat(devices("left_running"))
        .containsEntry("o_orderkey", "fast")
        .containsEntry("o_comment", "slow");
    assertThat(sql(query).getMaterializedRows())
        .containsExactlyElementsOf(expected.getMaterializedRows());
  }

  @Test
  void placeTakesPinsADeviceCapANoRegressionBoundAndASample() {
    sql("CREATE TABLE customer WITH (default_device = 'fast') AS SELECT * FROM tpch.tiny.customer");
    // Two distinct scans, so that sampling half of them solves on one.
    sql("SELECT sum(c_acctbal) FROM customer");
    sql("SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING'");
    String call =
        "CALL mosaic.system.place(schema_name => 'tiny', table_name => 'customer',"
            + " pins => 'c_acctbal=slow', max_devices => 1, sample_fraction => 0.5, seed => 7,"
            + " time_limit => '30s', apply => true, no_regression => ";
    // Everything on one device with c_acctbal pinned to the 40x slower one makes the first scan
    // slower than now: the no-regression bound forbids it, and nothing moves.
    assertThatThrownBy(() -> sql(call + "0.0)")).hasMessageContaining("cannot place tiny.customer");
    assertThat(devices("customer").values()).containsOnly("fast");

    List<String> logged = new ArrayList<>();
    java.util.logging.Logger jul =
        java.util.logging.Logger.getLogger(PlaceProcedure.class.getName());
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    jul.addHandler(handler);
    try {
      // A bound loose enough for the slow device (40x the transfer, 80x the seek) lets the pin
      // and the cap through.
      sql(call + "1000.0)");
    } finally {
      jul.removeHandler(handler);
    }
    // The pinned column went to its device and, with one device allowed, every column with it.
    assertThat(devices("customer").values()).containsOnly("slow");
    assertThat(logged)
        .anySatisfy(
            m ->
                assertThat(m)
                    .contains("place tiny.customer with lopt", "to 1 devices")
                    .contains("solved on 1 of 2 scans", "migrated, trace epoch"));
  }

  @Test
  void moveColumnsStartsANewTraceEpochAndHasADryRun() {
    sql("CREATE TABLE region WITH (default_device = 'slow') AS SELECT * FROM tpch.tiny.region");
    sql("SELECT r_name FROM region WHERE r_regionkey > 1");
    String move =
        "CALL mosaic.system.move_columns(schema_name => 'tiny', table_name => 'region',"
            + " placement => 'r_name=fast'";
    sql(move + ", apply => false)");
    assertThat(devices("region")).containsEntry("r_name", "slow");
    assertThat(sql("SELECT * FROM \"region$plan\" WHERE strategy = 'hot-column'").getRowCount())
        .isEqualTo(3);

    sql(move + ")");
    assertThat(devices("region")).containsEntry("r_name", "fast");
    // As in Spark and the CLI, the scans so far described the old placement.
    assertThatThrownBy(() -> sql("SELECT * FROM \"region$plan\""))
        .hasMessageContaining("cannot place tiny.region: no scan of it is recorded");
  }

  @Test
  void badArgumentsAndMissingInputsAreExplained() throws Exception {
    sql("CREATE TABLE nation WITH (default_device = 'slow') AS SELECT * FROM tpch.tiny.nation");
    assertThatThrownBy(() -> sql("SELECT * FROM \"nation$plan\""))
        .hasMessageContaining("cannot place tiny.nation: no scan of it is recorded");
    assertThatThrownBy(() -> sql("CALL mosaic.system.place('tiny', 'nation')"))
        .hasMessageContaining("cannot place tiny.nation: no scan of it is recorded");
    sql("SELECT n_name FROM nation WHERE n_regionkey = 1");

    assertThatThrownBy(
            () ->
                sql(
                    "CALL mosaic.system.place(schema_name => 'tiny', table_name => 'nation', strategy => 'fastest')"))
        .hasMessageContaining("strategy 'fastest' is unknown; use lopt, hot-column, hot-table");
    assertThatThrownBy(
            () ->
                sql(
                    "CALL mosaic.system.place(schema_name => 'tiny', table_name => 'nation', time_limit => 'soon')"))
        .hasMessageContaining("time_limit 'soon' is not a usable duration")
        .hasMessageContaining("write e.g. '10s'");
    assertThatThrownBy(() -> sql("CALL mosaic.system.place('tiny', 'missing')"))
        .hasMessageContaining("tiny.missing");

    Path aside = modelFile.resolveSibling("model.aside");
    Files.move(modelFile, aside);
    try {
      assertThatThrownBy(() -> sql("CALL mosaic.system.place('tiny', 'nation')"))
          .hasMessageContaining("cannot place tiny.nation: no usable device model")
          .hasMessageContaining(
              "calibrate the devices of " + dir.resolve("devices.toml") + " first");
      assertThatThrownBy(() -> sql("SELECT * FROM \"nation$plan\" WHERE strategy = 'hot-column'"))
          .hasMessageContaining("no usable device model");
    } finally {
      Files.move(aside, modelFile, StandardCopyOption.REPLACE_EXISTING);
    }
    // Nothing moved by the failures; with the model back, hot-column places what was read.
    assertThat(devices("nation").values()).containsOnly("slow");
    sql(
        "CALL mosaic.system.place(schema_name => 'tiny', table_name => 'nation', strategy => 'hot-column', apply => true)");
    assertThat(devices("nation"))
        .containsEntry("n_name", "fast")
        .containsEntry("n_regionkey", "fast");
  }
}
