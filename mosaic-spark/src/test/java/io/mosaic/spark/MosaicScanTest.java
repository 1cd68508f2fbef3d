package io.mosaic.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Date;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.connector.read.colstats.ColumnStatistics;
import org.apache.spark.sql.execution.FilterExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * What a Spark scan of a Mosaic table does: its custom metrics (bytes per device, row groups read
 * and skipped) and which filters go into row-group skipping, on orders sorted by date in row groups
 * of 1,000 rows, o_comment on the hdd device and the other columns on nvme.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicScanTest {
  private SparkSession spark;
  private Dataset<Row> orders;
  private String path;
  private Manifest manifest;
  private String devices;

  @BeforeAll
  void start(@TempDir Path dir) throws IOException {
    Path devicesFile = SparkTestTables.devices(dir);
    devices = devicesFile.toString();
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-scan")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices)
            .getOrCreate();
    orders = SparkTestTables.orders(spark).cache();
    Path root = dir.resolve("pool/nvme/orders");
    path = root.toString();
    DevicePool pool = DevicePool.load(devicesFile);
    MosaicTable.create(
        root,
        pool,
        SparkTypes.fromSpark(SparkTestTables.ORDERS),
        Map.of(TableProperties.ROW_GROUP_ROWS, "1000", "column.o_comment.device", "hdd"));
    orders.orderBy("o_orderdate").write().format("mosaic").mode("append").save(path);
    manifest = MosaicTable.open(root, pool).latest();
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private Dataset<Row> read(boolean pushdown) {
    return spark.read().format("mosaic").option("pushdown", pushdown).load(path);
  }

  private Dataset<Row> readOrdered() {
    return spark.read().format("mosaic").option("sharing_policy", "normal").load(path);
  }

  static BatchScanExec scanOf(Dataset<Row> executed) {
    SparkPlan plan = executed.queryExecution().executedPlan();
    return (BatchScanExec)
        CollectionConverters.asJava(plan.collectLeaves()).stream()
            .filter(p -> p instanceof BatchScanExec)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no BatchScanExec in " + plan));
  }

  private static long metric(BatchScanExec scan, String name) {
    return scan.metrics().apply(name).value();
  }

  private long storedBytes(String column) {
    return manifest.segmentsOf(column).stream().mapToLong(SegmentEntry::compressedBytes).sum();
  }

  @Test
  void decodedVectorsOutliveSparkReadingThemForTheNextScans() {
    // Spark closes each batch it has read; the vectors stay the scan's, which hands them to the
    // retriever's pool when done. Closed (emptied) vectors would leave it holding no bytes. The
    // same devices file by another name gets a retriever of its own, with an empty pool.
    String sameDevices =
        Path.of(devices).getParent().resolve(".").resolve("devices.toml").toString();
    assertThat(MosaicPartitionReaderFactory.retriever(sameDevices)).isNull();
    Dataset<Row> fixedWidth =
        spark.read().format("mosaic").option("devices", sameDevices).load(path);
    assertThat(fixedWidth.selectExpr("sum(o_custkey)", "max(o_orderdate)").collectAsList())
        .hasSize(1);
    assertThat(MosaicPartitionReaderFactory.retriever(sameDevices).pooledBytes()).isPositive();
  }

  @Test
  void anExecutorGivenNoVectorPoolMemoryKeepsNoVectors() {
    // The conf the executor reads when it builds its retriever (here the local driver's); a third
    // name for the devices file gets a retriever built under it.
    Path parent = Path.of(devices).getParent();
    String devicesAgain =
        parent.resolve("..").resolve(parent.getFileName()).resolve("devices.toml").toString();
    assertThat(MosaicPartitionReaderFactory.retriever(devicesAgain)).isNull();
    SparkEnv.get().conf().set(ExecutorSettings.VECTOR_POOL_MEMORY, "0");
    try {
      Dataset<Row> fixedWidth =
          spark.read().format("mosaic").option("devices", devicesAgain).load(path);
      assertThat(fixedWidth.selectExpr("sum(o_custkey)").collectAsList()).hasSize(1);
    } finally {
      SparkEnv.get().conf().remove(ExecutorSettings.VECTOR_POOL_MEMORY);
    }
    assertThat(MosaicPartitionReaderFactory.retriever(devicesAgain).pooledBytes()).isZero();
  }

  @Test
  void statisticsAreWhatSparkEstimatesForStoredFiles() {
    long stored = manifest.segments().stream().mapToLong(SegmentEntry::compressedBytes).sum();
    var all = read(true).queryExecution().optimizedPlan().stats();
    assertThat(all.rowCount().get().longValue()).isEqualTo(15_000);
    assertThat(all.sizeInBytes().longValue()).isEqualTo(stored);
    // Pruned to two columns: Spark's default widths, 8 + 8 (bigint) + 20 (string) of the full
    // row's 8 + sum of defaults, as Spark scales a file relation under a projection.
    double full = 8;
    for (var f : SparkTestTables.ORDERS.fields()) {
      full += f.dataType().defaultSize();
    }
    var two = read(true).select("o_orderkey", "o_orderstatus").queryExecution().optimizedPlan();
    assertThat(two.stats().sizeInBytes().longValue())
        .isEqualTo((long) (stored * (8 + 8 + 20) / full));
  }

  @Test
  void customMetricsCountTheBytesReadFromEachDevice() {
    // The ordered path: under the default shared buffer, chunks earlier tests' scans loaded are
    // served from it and the devices read nothing.
    Dataset<Row> df = readOrdered().select("o_orderkey", "o_totalprice", "o_comment");
    assertThat(df.collectAsList()).hasSize(15_000);
    BatchScanExec scan = scanOf(df);
    assertThat(manifest.rowGroups()).hasSize(15);
    // A full scan reads every chunk of the selected columns once: exactly their stored bytes.
    assertThat(metric(scan, "bytesRead.nvme"))
        .isEqualTo(storedBytes("o_orderkey") + storedBytes("o_totalprice"))
        .isPositive();
    assertThat(metric(scan, "bytesRead.hdd")).isEqualTo(storedBytes("o_comment")).isPositive();
    assertThat(metric(scan, "rowGroupsRead")).isEqualTo(15);
    assertThat(metric(scan, "rowGroupsSkipped")).isZero();
    // The UI shows them with their descriptions, summed as bytes.
    assertThat(scan.metrics().apply("bytesRead.hdd").name().get())
        .isEqualTo("bytes read from device hdd");
  }

  @Test
  void aSharedReadGetsTheSameRowsAndShowsChunksFromTheSharedBuffer() {
    List<Row> plain = read(true).select("o_orderkey", "o_totalprice", "o_comment").collectAsList();
    Dataset<Row> first =
        spark
            .read()
            .format("mosaic")
            .option("sharing_policy", "relevance")
            .load(path)
            .select("o_orderkey", "o_totalprice", "o_comment");
    assertThat(first.collectAsList()).containsExactlyInAnyOrderElementsOf(plain);
    assertThat(metric(scanOf(first), "chunksRead") + metric(scanOf(first), "chunksShared"))
        .isEqualTo(15 * 3);
    // The executor's shared buffer (256 MB) still holds them: the same read again reads nothing
    // from the devices and takes every chunk from the buffer.
    Dataset<Row> again =
        spark
            .read()
            .format("mosaic")
            .option("sharing_policy", "relevance")
            .load(path)
            .select("o_orderkey", "o_totalprice", "o_comment");
    assertThat(again.collectAsList()).containsExactlyInAnyOrderElementsOf(plain);
    BatchScanExec scan = scanOf(again);
    assertThat(metric(scan, "chunksShared")).isEqualTo(15 * 3);
    assertThat(metric(scan, "chunksRead")).isZero();
    assertThat(metric(scan, "bytesRead.nvme") + metric(scan, "bytesRead.hdd")).isZero();
    assertThat(metric(scanOf(read(true)), "chunksShared")).isZero();
  }

  @Test
  void anUnknownSharingPolicyIsNamedWithWhereItWasSet() {
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .format("mosaic")
                    .option("sharing_policy", "fastest")
                    .load(path)
                    .collectAsList())
        .hasMessageContaining("option sharing_policy")
        .hasMessageContaining(
            "'fastest' is unknown; use one of normal, attach, elevator," + " relevance");
  }

  @Test
  void pushedFiltersAreThoseMosaicCanSkipWithAndResultsDoNotChange() {
    Column where =
        col("o_orderdate")
            .lt(lit(Date.valueOf("1993-01-01")))
            .and(col("o_custkey").isin(370L, 781L, 1234L, 499L, 1000L, 20L))
            .and(col("o_orderstatus").isNotNull())
            .and(col("o_comment").startsWith("furious").or(col("o_totalprice").gt(1000)))
            .and(col("o_comment").contains("s"));
    Dataset<Row> pushed = read(true).filter(where).select("o_orderkey", "o_totalprice");
    Dataset<Row> notPushed = read(false).filter(where).select("o_orderkey", "o_totalprice");
    List<String> expected =
        orders.filter(where).select("o_orderkey", "o_totalprice").collectAsList().stream()
            .map(Row::toString)
            .sorted()
            .toList();
    assertThat(expected).isNotEmpty();
    assertThat(pushed.collectAsList().stream().map(Row::toString).sorted().toList())
        .isEqualTo(expected);
    assertThat(notPushed.collectAsList().stream().map(Row::toString).sorted().toList())
        .isEqualTo(expected);

    // Pushed: the comparison, the IN list and IS NOT NULL. The OR and the string functions cannot
    // skip row groups: they stay with Spark only (Spark may add IS NOT NULL for their columns).
    BatchScanExec scan = scanOf(pushed);
    MosaicScan mosaic = (MosaicScan) scan.scan();
    List<ColumnPredicate> terms = mosaic.predicate().terms();
    assertThat(terms)
        .filteredOn(t -> t.op() != ColumnPredicate.Op.IS_NOT_NULL)
        .extracting(t -> t.column() + " " + t.op())
        .containsExactlyInAnyOrder("o_orderdate LT", "o_custkey IN");
    assertThat(terms)
        .filteredOn(t -> t.op() == ColumnPredicate.Op.IS_NOT_NULL)
        .extracting(ColumnPredicate::column)
        .contains("o_orderstatus");
    assertThat(scan.toString()).contains("MosaicScan orders", "o_orderdate <", "o_custkey in");
    // Every filter is also evaluated by Spark after the scan (skipping is per row group).
    String postScan = filterOf(pushed).condition().sql();
    assertThat(postScan)
        .contains("o_orderdate <", "o_custkey IN", "startswith", "OR", "contains")
        .containsIgnoringCase("o_orderstatus IS NOT NULL");
    // Pushdown skipped row groups (the table is sorted by date); without it, nothing is skipped.
    assertThat(metric(scan, "rowGroupsSkipped")).isPositive();
    assertThat(metric(scan, "rowGroupsRead") + metric(scan, "rowGroupsSkipped")).isEqualTo(15);
    BatchScanExec unskipped = scanOf(notPushed);
    assertThat(((MosaicScan) unskipped.scan()).predicate().terms()).isEmpty();
    assertThat(metric(unskipped, "rowGroupsSkipped")).isZero();
    assertThat(metric(unskipped, "bytesRead.nvme")).isGreaterThan(metric(scan, "bytesRead.nvme"));
  }

  @Test
  void aQueryIsOneTraceRecordOfItsColumnsAndTheRowGroupsItRead() {
    TraceLog log = new TraceLog(Path.of(path));
    int before = log.read(log.epoch()).size();
    // Days far apart in a table sorted by day: row groups with gaps between them, so the plan has
    // several splits, which Spark runs as several tasks.
    List<Date> days =
        List.of(Date.valueOf("1992-01-05"), Date.valueOf("1995-06-01"), Date.valueOf("1998-07-01"));
    // The ordered path reads the devices, whatever earlier tests' shared scans left in the buffer.
    Dataset<Row> df =
        readOrdered()
            .filter(col("o_orderdate").isin(days.toArray()))
            .select("o_orderkey", "o_comment");
    assertThat(df.collectAsList())
        .hasSize((int) orders.filter(col("o_orderdate").isin(days.toArray())).count());
    BatchScanExec scan = scanOf(df);
    assertThat(scan.inputPartitions().size()).isGreaterThan(1);
    List<TraceRecord> records = log.read(log.epoch());
    assertThat(records).hasSize(before + 1);
    TraceRecord r = records.get(before);
    assertThat(r.queryId()).startsWith("spark-execution-");
    assertThat(r.columns()).containsExactlyInAnyOrder("o_orderkey", "o_comment", "o_orderdate");
    List<Integer> mightMatch =
        RowGroupFilter.bind(
                "orders",
                manifest,
                Predicate.of(
                    Predicate.in("o_orderdate", days.stream().map(Date::toLocalDate).toList())))
            .select(0, manifest.rowGroups().size());
    assertThat(r.rowGroups()).isEqualTo(mightMatch).hasSizeBetween(3, 14);
    // What the tasks read, as Spark's metrics count it.
    assertThat(r.bytesPerDevice())
        .isEqualTo(
            Map.of("nvme", metric(scan, "bytesRead.nvme"), "hdd", metric(scan, "bytesRead.hdd")));
  }

  @Test
  void aScanPlansAndExecutesOnTheVersionItsTableWasLoadedAt() {
    Path root = Path.of(path).resolveSibling("pinned");
    String pinned = root.toString();
    orders.limit(3000).write().format("mosaic").mode("append").save(pinned);
    long loaded = MosaicTable.open(root, DevicePool.load(Path.of(devices))).latest().version();
    // Spark loads the table (its version 1) when the DataFrame is defined ...
    Dataset<Row> df = read(pinned).select("o_orderkey", "o_orderdate");
    // ... a commit before Spark plans the scan ...
    orders.limit(500).write().format("mosaic").mode("append").save(pinned);
    BatchScanExec scan = scanOf(df);
    assertThat(scan.scan().description()).contains("pinned v" + loaded + " ");
    // Local devices: no host to prefer (docs/distributed-storage.md, "Locality").
    assertThat(scan.batch().planInputPartitions())
        .isNotEmpty()
        .allSatisfy(p -> assertThat(p.preferredLocations()).isEmpty());
    // ... and one between planning and execution: the scan reads the version it planned.
    orders.limit(700).write().format("mosaic").mode("append").save(pinned);
    assertThat(df.collectAsList()).hasSize(3000);
    assertThat(df.count()).isEqualTo(3000);
    assertThat(read(pinned).count()).isEqualTo(4200);
  }

  @Test
  void theScanReportsEachColumnsDistinctCountNullsRangeAndLength() {
    Dataset<Row> df = read(false).select("o_orderkey", "o_orderdate", "o_orderstatus", "o_comment");
    Statistics stats = ((SupportsReportStatistics) scanOf(df).scan()).estimateStatistics();
    Map<String, ColumnStatistics> columns = new java.util.HashMap<>();
    stats.columnStats().forEach((ref, c) -> columns.put(ref.toString(), c));
    assertThat(columns).containsOnlyKeys("o_orderkey", "o_orderdate", "o_orderstatus", "o_comment");
    for (String c : columns.keySet()) {
      Row exact =
          orders
              .agg(
                  org.apache.spark.sql.functions.countDistinct(col(c)),
                  org.apache
                      .spark
                      .sql
                      .functions
                      .count(lit(1))
                      .minus(org.apache.spark.sql.functions.count(col(c))))
              .first();
      long distinct = exact.getLong(0);
      assertThat((double) columns.get(c).distinctCount().getAsLong())
          .as(c)
          .isCloseTo(distinct, within(distinct * 0.05));
      assertThat(columns.get(c).nullCount().getAsLong()).as(c).isEqualTo(exact.getLong(1));
    }
    Row range =
        orders
            .agg(
                org.apache.spark.sql.functions.min("o_orderkey"),
                org.apache.spark.sql.functions.max("o_orderkey"),
                org.apache.spark.sql.functions.avg(
                    org.apache.spark.sql.functions.octet_length(col("o_comment"))))
            .first();
    assertThat(columns.get("o_orderkey").min()).contains(range.getLong(0));
    assertThat(columns.get("o_orderkey").max()).contains(range.getLong(1));
    // Dates in Catalyst's form: days since 1970 as an int.
    assertThat(columns.get("o_orderdate").min().orElseThrow()).isInstanceOf(Integer.class);
    assertThat(columns.get("o_comment").min()).isEmpty();
    assertThat((double) columns.get("o_comment").avgLen().getAsLong())
        .isCloseTo(range.getDouble(2), within(0.5));
  }

  private Dataset<Row> read(String table) {
    return spark.read().format("mosaic").load(table);
  }

  private static FilterExec filterOf(Dataset<Row> executed) {
    SparkPlan plan = executed.queryExecution().executedPlan();
    return (FilterExec)
        plan.find(p -> p instanceof FilterExec)
            .getOrElse(
                () -> {
                  throw new AssertionError("no FilterExec in " + plan);
                });
  }
}
