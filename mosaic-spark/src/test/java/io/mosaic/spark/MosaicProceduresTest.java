package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.design.MoveQueue;
import io.mosaic.design.ScheduleShape;
import io.mosaic.device.DevicePool;
import io.mosaic.format.RowGroupStats;
import io.mosaic.table.MosaicTable;
import io.mosaic.warehouse.Warehouse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The maintenance procedures of {@link MosaicCatalog} on a local Spark: {@code placement}, {@code
 * place} (plan only, then applied) and {@code move_columns}, over TPC-H tables on a two-device pool
 * whose device model makes nvme far faster than hdd; and their errors.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicProceduresTest {
  private Path dir;
  private SparkSession spark;
  private DevicePool pool;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    Path devices = SparkTestTables.devices(dir);
    pool = DevicePool.load(devices);
    SparkTestTables.deviceModel(pool);
    // A second pool nobody calibrated.
    Files.createDirectories(dir.resolve("bare"));
    Path bareDevices = SparkTestTables.devices(dir.resolve("bare"));
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-procedures")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .config("spark.sql.catalog.bare", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.bare.devices", bareDevices.toString())
            .config("spark.sql.catalog.bare.warehouse", dir.resolve("bare/warehouse").toString())
            .getOrCreate();
    TpchSpark.dataFrame(spark, "lineitem", 0.01, 2).cache().createOrReplaceTempView("lineitem_src");
    TpchSpark.dataFrame(spark, "orders", 0.01, 2).cache().createOrReplaceTempView("orders_src");
    spark.sql("CREATE NAMESPACE mosaic.tpch");
    // Written to the slow device first, in row groups of 20,000 rows.
    spark.sql(
        "CREATE TABLE mosaic.tpch.lineitem TBLPROPERTIES ('default_device' = 'hdd',"
            + " 'row_group_rows' = '20000') AS SELECT * FROM lineitem_src");
    spark.sql("CREATE TABLE mosaic.tpch.orders AS SELECT * FROM orders_src");
    spark.sql("CREATE TABLE mosaic.tpch.unread AS SELECT * FROM orders_src LIMIT 100");
    spark.sql("CREATE NAMESPACE bare.tpch");
    spark.sql("CREATE TABLE bare.tpch.orders AS SELECT * FROM orders_src LIMIT 100");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private List<Row> call(String sql) {
    return spark.sql(sql).collectAsList();
  }

  /** column -> device, from CALL placement (every column here lives on one device). */
  private Map<String, String> placement(String table) {
    Map<String, String> devices = new TreeMap<>();
    for (Row r : call("CALL mosaic.system.placement(table => '" + table + "')")) {
      assertThat(devices.put(r.getString(0), r.getString(1))).as(r.getString(0)).isNull();
    }
    return devices;
  }

  private static void assertSameRows(Dataset<Row> actual, Dataset<Row> expected) {
    assertThat(actual.count()).isEqualTo(expected.count());
    assertThat(actual.exceptAll(expected).isEmpty()).isTrue();
    assertThat(expected.exceptAll(actual).isEmpty()).isTrue();
  }

  private io.mosaic.format.Manifest latest(String name) {
    return MosaicTable.open(dir.resolve("warehouse/tpch").resolve(name), pool).latest();
  }

  private long version(String name) {
    return latest(name).version();
  }

  @Test
  void placeShowsAPlanThenAppliesIt() {
    List<Row> initial = call("CALL mosaic.system.placement(table => 'tpch.lineitem')");
    assertThat(initial).hasSize(16);
    for (Row r : initial) {
      assertThat(r.getString(1)).isEqualTo("hdd");
      assertThat(r.getString(2)).isEqualTo("lz4");
      assertThat(r.getInt(3)).isPositive(); // segments
      assertThat(r.getLong(4)).isPositive(); // compressed bytes
      assertThat(r.getLong(5)).isPositive(); // uncompressed bytes
    }
    // A workload: Q6 and Q1 shaped scans, recorded in the table's trace.
    for (int i = 0; i < 3; i++) {
      spark
          .sql(
              "SELECT sum(l_extendedprice * l_discount) FROM mosaic.tpch.lineitem WHERE l_shipdate"
                  + " >= DATE '1994-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24")
          .collectAsList();
    }
    spark
        .sql(
            "SELECT l_returnflag, l_linestatus, sum(l_quantity), avg(l_extendedprice), count(*)"
                + " FROM mosaic.tpch.lineitem GROUP BY l_returnflag, l_linestatus")
        .collectAsList();

    long before = version("lineitem");
    List<Row> plan =
        call(
            "CALL mosaic.system.place(table => 'tpch.lineitem', strategy => 'lopt', apply => false)");
    assertThat(plan).hasSize(16);
    // The library's result columns (docs/operations.md), the same names as Trino's "t$plan".
    assertThat(spark.sql("CALL mosaic.system.place(table => 'tpch.lineitem')").columns())
        .containsExactly(
            "table_name",
            "column_name",
            "strategy",
            "current_device",
            "planned_device",
            "pinned",
            "moves",
            "stored_bytes",
            "applied",
            "predicted_seconds_before",
            "predicted_seconds_after",
            "scans_recorded",
            "scans_planned",
            "devices_used",
            "worst_scan_ratio",
            "measured_query_seconds",
            "predicted_query_seconds_after",
            "trace_epoch");
    Map<String, String> planned = new TreeMap<>();
    for (Row r : plan) {
      planned.put(r.getAs("column_name"), r.getAs("planned_device"));
      assertThat((String) r.getAs("current_device")).isEqualTo("hdd");
      assertThat((boolean) r.getAs("moves")).isEqualTo(!r.getAs("planned_device").equals("hdd"));
      assertThat((boolean) r.getAs("applied")).isFalse();
      assertThat((Object) r.getAs("trace_epoch")).isNull();
    }
    // The scanned columns leave the slow device, and the model predicts the gain.
    assertThat(planned)
        .containsEntry("l_extendedprice", "nvme")
        .containsEntry("l_discount", "nvme")
        .containsEntry("l_shipdate", "nvme");
    assertThat((double) plan.get(0).getAs("predicted_seconds_after"))
        .isLessThan((double) plan.get(0).getAs("predicted_seconds_before"))
        .isPositive();
    // Planning changed nothing.
    assertThat(version("lineitem")).isEqualTo(before);
    assertThat(placement("tpch.lineitem")).allSatisfy((c, d) -> assertThat(d).isEqualTo("hdd"));

    List<Row> applied =
        call(
            "CALL mosaic.system.place(table => 'tpch.lineitem', apply => true,"
                + " time_limit => '30s')");
    Map<String, String> plannedAgain = new TreeMap<>();
    for (Row r : applied) {
      plannedAgain.put(r.getAs("column_name"), r.getAs("planned_device"));
      assertThat((boolean) r.getAs("applied")).isEqualTo(r.getAs("moves"));
      assertThat((Integer) r.getAs("trace_epoch")).isPositive();
    }
    assertThat(plannedAgain).isEqualTo(planned);
    assertThat(version("lineitem")).isGreaterThan(before);
    assertThat(placement("tpch.lineitem")).isEqualTo(planned);
    for (Row r : call("CALL mosaic.system.placement(table => 'tpch.lineitem')")) {
      assertThat(r.getString(2)).isEqualTo(r.getString(1).equals("nvme") ? "zstd" : "lz4");
    }
    // The migration started a new trace epoch: the next plan waits for scans on this placement.
    assertThatThrownBy(() -> call("CALL mosaic.system.place(table => 'tpch.lineitem')"))
        .hasMessageContaining("CALL mosaic.system.place")
        .hasMessageContaining("no scans recorded in the current trace epoch")
        .hasMessageContaining("run the workload first");

    assertSameRows(spark.table("mosaic.tpch.lineitem"), spark.table("lineitem_src"));
  }

  @Test
  void placeTakesPinsADeviceCapANoRegressionBoundAndASample() {
    spark.sql(
        "CREATE TABLE mosaic.tpch.constrained TBLPROPERTIES ('default_device' = 'hdd')"
            + " AS SELECT * FROM orders_src");
    // Two distinct scans, so that sampling half of them solves on one.
    spark.sql("SELECT sum(o_totalprice) FROM mosaic.tpch.constrained").collectAsList();
    spark
        .sql("SELECT count(*) FROM mosaic.tpch.constrained WHERE o_orderdate < DATE '1995-01-01'")
        .collectAsList();
    // o_comment is never read: only its pin puts it on nvme, and one device only means that every
    // column follows it there.
    List<Row> rows =
        call(
            "CALL mosaic.system.place(table => 'tpch.constrained', pins => 'o_comment=nvme',"
                + " max_devices => 1, no_regression => 0.0, sample_fraction => 0.5, seed => 7,"
                + " time_limit => 'PT30S', apply => true)");
    assertThat(rows).hasSize(9);
    for (Row r : rows) {
      assertThat((String) r.getAs("planned_device")).isEqualTo("nvme");
      assertThat((boolean) r.getAs("pinned")).isEqualTo(r.getAs("column_name").equals("o_comment"));
      assertThat((int) r.getAs("devices_used")).isOne();
      assertThat((int) r.getAs("scans_recorded")).isEqualTo(2);
      assertThat((int) r.getAs("scans_planned")).isOne();
      assertThat((double) r.getAs("worst_scan_ratio")).isLessThanOrEqualTo(1.0 + 1e-9);
      assertThat((boolean) r.getAs("applied")).isTrue();
      assertThat((Integer) r.getAs("trace_epoch")).isPositive();
    }
    assertThat(placement("tpch.constrained")).allSatisfy((c, d) -> assertThat(d).isEqualTo("nvme"));

    assertThatThrownBy(
            () ->
                call("CALL mosaic.system.place(table => 'tpch.constrained', pins => 'o_comment')"))
        .hasMessageContaining("CALL mosaic.system.place")
        .hasMessageContaining("pin entry 'o_comment' must be COLUMN=DEVICE");
    assertThatThrownBy(
            () ->
                call(
                    "CALL mosaic.system.place(table => 'tpch.constrained', max_bytes => 'nvme=lots')"))
        .hasMessageContaining("max bytes entry 'nvme=lots' has no usable size");
  }

  @Test
  void maintainRunsInTheBackgroundAndReportsItsSteps() throws InterruptedException {
    spark.sql(
        "CREATE TABLE mosaic.tpch.kept TBLPROPERTIES ('default_device' = 'hdd') AS"
            + " SELECT o_orderkey, o_totalprice, o_comment FROM orders_src");
    spark.sql("SELECT sum(o_totalprice) FROM mosaic.tpch.kept WHERE o_orderkey > 100").collect();
    String call = "CALL mosaic.system.maintain(table => 'tpch.kept'";
    List<Row> proposed = call(call + ", dry_run => true)");
    assertThat(proposed)
        .extracting(r -> r.getString(2))
        .containsExactlyInAnyOrder("o_orderkey", "o_totalprice");
    assertThat(proposed)
        .allMatch(r -> r.getString(8).equals("proposed") && r.getString(4).equals("nvme"));
    assertThat(proposed.get(0).getString(9)).containsPattern("(worth it|not worth it)");
    assertThatThrownBy(() -> call(call + ", action => 'status')"))
        .hasMessageContaining("has no transformation");

    call(call + ", force => true, rate => '1GB/s')");
    long deadline = System.nanoTime() + 60_000_000_000L;
    List<Row> status = call(call + ", action => 'status')");
    while (!status.get(0).getString(8).equals("done") && System.nanoTime() < deadline) {
      Thread.sleep(100);
      status = call(call + ", action => 'status')");
    }
    assertThat(status)
        .allMatch(r -> r.getString(7).equals("done") && r.getString(8).equals("done"));
    // The progress view: the same rows, every byte done, nothing left.
    List<Row> moves = call("CALL mosaic.system.moves(table => 'tpch.kept')");
    assertThat(moves).hasSameSizeAs(status);
    long total = moves.stream().mapToLong(r -> r.<Long>getAs("bytes")).sum();
    assertThat(moves)
        .allMatch(
            r ->
                r.<Long>getAs("bytes_done") == total
                    && r.<Long>getAs("bytes_left") == 0
                    && r.<Long>getAs("step_bytes_left") == 0
                    && r.<Double>getAs("eta_seconds") == 0
                    && !r.isNullAt(r.fieldIndex("predicted_seconds_now")));
    assertThat(placement("tpch.kept"))
        .containsEntry("o_orderkey", "nvme")
        .containsEntry("o_totalprice", "nvme")
        .containsEntry("o_comment", "hdd");
    assertSameRows(
        spark.table("mosaic.tpch.kept"),
        spark.table("orders_src").select("o_orderkey", "o_totalprice", "o_comment"));
  }

  @Test
  void aDriverStartingResumesATransformationLeftRunning() throws Exception {
    spark.sql(
        "CREATE TABLE mosaic.tpch.left_running TBLPROPERTIES ('default_device' = 'hdd') AS"
            + " SELECT o_orderkey, o_comment FROM orders_src");
    // As a driver that stopped mid-transformation leaves it: the queue running, no runner.
    MosaicTable table = Warehouse.open(dir.resolve("warehouse"), pool).open("tpch", "left_running");
    long bytes =
        table.latest().segmentsOf("o_orderkey").stream()
            .mapToLong(io.mosaic.format.SegmentEntry::fileBytes)
            .sum();
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
                    "o_orderkey", "hdd", "nvme", bytes, 1, MoveQueue.StepState.PENDING, 0)),
            "left by a driver that stopped",
            null)
        .write(table);
    // The driver's start, as another catalog of the same warehouse: its first use looks.
    spark.conf().set("spark.sql.catalog.again", MosaicCatalog.class.getName());
    spark.conf().set("spark.sql.catalog.again.devices", pool.configFile().toString());
    spark.conf().set("spark.sql.catalog.again.warehouse", dir.resolve("warehouse").toString());
    spark.sql("SHOW NAMESPACES IN again").collect();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (MoveQueue.read(table).orElseThrow().state() == MoveQueue.State.RUNNING
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(MoveQueue.read(table).orElseThrow().state()).isEqualTo(MoveQueue.State.DONE);
    assertThat(placement("tpch.left_running"))
        .containsEntry("o_orderkey", "nvme")
        .containsEntry("o_comment", "hdd");
    assertSameRows(
        spark.table("mosaic.tpch.left_running"),
        spark.table("orders_src").select("o_orderkey", "o_comment"));
  }

  @Test
  void moveColumnsMovesByHand() {
    assertThat(placement("tpch.orders")).containsEntry("o_comment", "nvme");
    // A dry run lists the moves and changes nothing.
    List<Row> listed =
        call(
            "CALL mosaic.system.move_columns(table => 'tpch.orders',"
                + " placement => 'o_comment = hdd, o_orderdate=hdd, o_orderkey=nvme', apply => false)");
    assertThat(listed).extracting(r -> r.getString(1)).containsExactly("o_comment", "o_orderdate");
    assertThat(listed).allMatch(r -> !r.<Boolean>getAs("applied") && r.isNullAt(8));
    assertThat(placement("tpch.orders")).containsEntry("o_comment", "nvme");
    List<Row> moved =
        call(
            "CALL mosaic.system.move_columns(table => 'tpch.orders',"
                + " placement => 'o_comment = hdd, o_orderdate=hdd, o_orderkey=nvme')");
    // o_orderkey is on nvme already: only two columns move.
    assertThat(moved).extracting(r -> r.getString(1)).containsExactly("o_comment", "o_orderdate");
    for (Row r : moved) {
      assertThat((String) r.getAs("from_device")).isEqualTo("nvme");
      assertThat((String) r.getAs("to_device")).isEqualTo("hdd");
      assertThat((int) r.getAs("segments")).isPositive();
      assertThat((long) r.getAs("bytes_read")).isPositive();
      assertThat((long) r.getAs("stored_bytes")).isPositive();
      assertThat((boolean) r.getAs("applied")).isTrue();
      assertThat((Integer) r.getAs("trace_epoch")).isPositive();
    }
    Map<String, String> now = placement("tpch.orders");
    assertThat(now).containsEntry("o_comment", "hdd").containsEntry("o_orderdate", "hdd");
    assertThat(now).containsEntry("o_orderkey", "nvme").containsEntry("o_custkey", "nvme");
    assertSameRows(spark.table("mosaic.tpch.orders"), spark.table("orders_src"));
    // Asking again moves nothing.
    assertThat(call("CALL mosaic.system.move_columns('tpch.orders', 'o_comment=hdd')")).isEmpty();
  }

  @Test
  void analyzeAddsMissingStatisticsOnce() {
    spark.sql("CREATE TABLE mosaic.tpch.stripped AS SELECT * FROM orders_src LIMIT 1000");
    // Spark's writers collect the statistics: nothing to do.
    Row written = call("CALL mosaic.system.analyze(table => 'tpch.stripped')").get(0);
    assertThat(written.getString(0)).isEqualTo("stripped");
    assertThat(written.getInt(1)).isZero();
    assertThat(written.isNullAt(3)).isTrue();

    // The manifest as a writer before sketches left it (or import's copied chunks).
    MosaicTable table = MosaicTable.open(dir.resolve("warehouse/tpch/stripped"), pool);
    table.commit(
        "strip",
        base ->
            base.next(
                "strip",
                base.rowGroups(),
                base.segments().stream()
                    .map(
                        seg ->
                            seg.withStats(
                                seg.stats().stream()
                                    .map(st -> new RowGroupStats(st.min(), st.max(), st.nulls()))
                                    .toList()))
                    .toList()));
    long stripped = version("stripped");
    int segments = table.latest().segments().size();

    Row analyzed = call("CALL mosaic.system.analyze(table => 'tpch.stripped')").get(0);
    assertThat(analyzed.getInt(1)).isEqualTo(segments);
    assertThat(analyzed.getLong(2)).isEqualTo(segments); // one row group each
    assertThat(analyzed.getLong(3)).isEqualTo(stripped + 1).isEqualTo(version("stripped"));
    assertThat(table.latest().segments())
        .allMatch(seg -> seg.stats().stream().allMatch(RowGroupStats::hasDistinct));
    assertThat(call("CALL mosaic.system.analyze('tpch.stripped')").get(0).isNullAt(3)).isTrue();
  }

  @Test
  void optimizeCompactsTheRowGroupsOfSmallInserts() {
    spark.sql(
        "CREATE TABLE mosaic.tpch.small TBLPROPERTIES ('row_group_rows' = '1000')"
            + " AS SELECT * FROM orders_src LIMIT 1500");
    for (int i = 0; i < 6; i++) {
      spark.sql("INSERT INTO mosaic.tpch.small SELECT * FROM orders_src LIMIT 10");
    }
    List<Row> before = spark.table("mosaic.tpch.small").collectAsList();
    int groups = latest("small").rowGroups().size();
    assertThat(groups).isGreaterThanOrEqualTo(8);

    Row done = call("CALL mosaic.system.optimize(table => 'tpch.small')").get(0);

    assertThat(done.getString(0)).isEqualTo("small");
    assertThat(done.getLong(1)).isEqualTo(1560L);
    assertThat(done.getInt(2)).isEqualTo(groups);
    assertThat(done.getInt(3)).isEqualTo(2);
    assertThat(done.getLong(5)).isEqualTo(version("small"));
    assertThat(latest("small").rowGroups()).containsExactly(1000L, 560L);
    assertThat(latest("small").operation()).isEqualTo("optimize");
    assertSameRows(
        spark.table("mosaic.tpch.small"),
        spark.createDataFrame(before, spark.table("mosaic.tpch.small").schema()));
    // Compact already: nothing committed.
    assertThat(call("CALL mosaic.system.optimize('tpch.small')").get(0).isNullAt(5)).isTrue();
  }

  @Test
  void errorsNameTheProblemAndTheFix() {
    assertThatThrownBy(() -> call("CALL mosaic.system.placement(table => 'tpch.nope')"))
        .hasMessageContaining("CALL mosaic.system.placement: no table tpch.nope in catalog mosaic")
        .hasMessageContaining("SHOW TABLES IN mosaic.tpch");
    assertThatThrownBy(() -> call("CALL mosaic.system.placement(table => 'lineitem')"))
        .hasMessageContaining("must name a table as namespace.table");
    assertThatThrownBy(
            () -> call("CALL mosaic.system.place(table => 'tpch.orders', strategy => 'fastest')"))
        .hasMessageContaining("strategy 'fastest' is unknown; use lopt, hot-column or hot-table");
    assertThatThrownBy(
            () ->
                call(
                    "CALL mosaic.system.move_columns(table => 'tpch.orders',"
                        + " placement => 'nope=hdd')"))
        .hasMessageContaining("unknown column 'nope'")
        .hasMessageContaining("o_comment");
    assertThatThrownBy(
            () ->
                call(
                    "CALL mosaic.system.move_columns(table => 'tpch.orders',"
                        + " placement => 'o_comment=ssd')"))
        .hasMessageContaining("unknown device 'ssd'")
        .hasMessageContaining("nvme, hdd");
    assertThatThrownBy(
            () ->
                call(
                    "CALL mosaic.system.move_columns(table => 'tpch.orders',"
                        + " placement => 'o_comment')"))
        .hasMessageContaining("placement entry 'o_comment' must be COLUMN=DEVICE");
    assertThatThrownBy(() -> call("CALL mosaic.system.place(table => 'tpch.unread')"))
        .hasMessageContaining("no scans recorded in the current trace epoch");
    // Spark reports FAILED_TO_LOAD_ROUTINE with ours as the cause.
    assertThatThrownBy(() -> call("CALL mosaic.system.compact(table => 'tpch.orders')"))
        .rootCause()
        .hasMessageContaining("no procedure mosaic.system.compact")
        .hasMessageContaining("mosaic.system.move_columns");

    spark.table("bare.tpch.orders").collectAsList(); // a recorded scan: only the model lacks
    assertThatThrownBy(() -> call("CALL bare.system.place(table => 'tpch.orders')"))
        .hasMessageContaining("no usable device model")
        .hasMessageContaining("calibrate the devices of");
  }
}
