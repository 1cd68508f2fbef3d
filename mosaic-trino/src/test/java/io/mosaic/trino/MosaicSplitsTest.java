package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import io.trino.Session;
import io.trino.operator.OperatorStats;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.BigintType;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import io.trino.testing.TestingConnectorContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splits and dynamic filtering (docs/trino.md, "What happens in a query") on a two-node cluster: a
 * join's build side prunes the probe side's row groups when splits are planned and again before
 * each row group is read; small tables still get a split per driver slot; split weights follow the
 * splits' bytes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicSplitsTest {
  private static final int GROUPS = 20;
  private static final String JOIN =
      "SELECT count(*), sum(p.v) FROM df.probe p JOIN df.build b ON p.k = b.k";

  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  @BeforeAll
  void start() throws Exception {
    // The default target split size (128 MB): the small tables here get their splits from the
    // minimum of one per driver slot, not from their size.
    runner = MosaicQueryRunner.create(dir, Map.of("mosaic.target-split-size", "128MB"));
    runner.execute("CREATE SCHEMA mosaic.df");
    // k = 1..20000 in order, by one writer: row group g holds k in (1000 g, 1000 (g + 1)].
    Session oneWriter =
        Session.builder(runner.getDefaultSession())
            .setSystemProperty("scale_writers", "false")
            .setSystemProperty("redistribute_writes", "false")
            .build();
    runner.execute(
        oneWriter,
        "CREATE TABLE mosaic.df.probe WITH (row_group_rows = 1000) AS SELECT k, k * 3 AS v FROM"
            + " (SELECT a * 100 + b + 1 AS k FROM UNNEST(sequence(0, 199)) x(a)"
            + " CROSS JOIN UNNEST(sequence(0, 99)) y(b)) ORDER BY k");
    runner.execute(
        "CREATE TABLE mosaic.df.build AS SELECT * FROM (VALUES BIGINT '15500', BIGINT '15600') t(k)");
    assertThat(probe().rowGroups()).hasSize(GROUPS);
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private static Manifest probe() {
    return MosaicTable.open(
            dir.resolve("metadata/df/probe"), DevicePool.load(dir.resolve("devices.toml")))
        .latest();
  }

  /** The probe's row groups whose k statistics admit 15500 or 15600. */
  private static List<Integer> matching() {
    List<Integer> groups = new ArrayList<>();
    for (SegmentEntry s : probe().segmentsOf("k")) {
      for (int g = 0; g < s.rowGroupCount(); g++) {
        long min = (long) s.stats().get(g).min();
        long max = (long) s.stats().get(g).max();
        if ((min <= 15500 && 15500 <= max) || (min <= 15600 && 15600 <= max)) {
          groups.add(s.firstRowGroup() + g);
        }
      }
    }
    return groups;
  }

  /** A broadcast join with the build table as build side, as written (no reordering). */
  private Session join(boolean dynamicFiltering, String waitTimeout) {
    return Session.builder(runner.getDefaultSession())
        .setSystemProperty("join_reordering_strategy", "NONE")
        .setSystemProperty("join_distribution_type", "BROADCAST")
        .setSystemProperty("enable_dynamic_filtering", Boolean.toString(dynamicFiltering))
        .setCatalogSessionProperty("mosaic", "dynamic_filtering_wait_timeout", waitTimeout)
        .build();
  }

  /** The probe table's one trace record of the query. */
  private static TraceRecord probeScan(MaterializedResultWithPlan result) {
    List<TraceRecord> records =
        MosaicQueryRunner.traceRecords(dir.resolve("metadata/df/probe"), result);
    assertThat(records).hasSize(1);
    return records.get(0);
  }

  /**
   * The query's own time reaches the trace of each table it scanned, under the id its scans carry,
   * when Trino cleans the query up (docs/cost-model.md, "Predicted query time").
   */
  @Test
  void eachTableAQueryScansRecordsTheQuerysOwnTime() throws InterruptedException {
    long start = System.nanoTime();
    MaterializedResultWithPlan result = runner.executeWithPlan(join(false, "10s"), JOIN);
    long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    String id = result.queryId().toString();
    for (String table : List.of("probe", "build")) {
      TraceLog log = new TraceLog(dir.resolve("metadata/df/" + table));
      assertThat(MosaicQueryRunner.traceRecords(dir.resolve("metadata/df/" + table), result))
          .isNotEmpty();
      Long millis = null;
      // Trino cleans a query up just after its last page went out.
      for (int i = 0; i < 100 && millis == null; i++) {
        millis = log.queryMillis(log.epoch()).get(id);
        if (millis == null) {
          Thread.sleep(100);
        }
      }
      assertThat(millis).as(table).isNotNull().isBetween(0L, wall + 10_000);
      // Read as scans, the query's own line is none of them (nor a damaged line).
      assertThat(log.read(log.epoch())).allSatisfy(r -> assertThat(r.columns()).isNotEmpty());
    }
  }

  @Test
  void aDynamicFilterPrunesTheProbeSidesRowGroupsWhenSplitsArePlanned() {
    MaterializedResultWithPlan without = runner.executeWithPlan(join(false, "10s"), JOIN);
    MaterializedResultWithPlan with = runner.executeWithPlan(join(true, "30s"), JOIN);
    assertThat(with.result().getMaterializedRows())
        .isEqualTo(without.result().getMaterializedRows());
    assertThat(with.result().getMaterializedRows().get(0).getFields())
        .containsExactly(2L, 3L * (15500 + 15600));
    assertThat(probeScan(without).rowGroups()).hasSize(GROUPS);
    // The split source waited for the build side: only the matching row groups got splits.
    assertThat(matching()).hasSizeBetween(1, 2);
    assertThat(probeScan(with).rowGroups()).isEqualTo(matching());
    // ... and no other split was made: one per matching row group, and the build table's one.
    assertThat(scanDrivers(with)).isEqualTo(matching().size() + 1);
    assertThat(scanDrivers(without)).isGreaterThan(scanDrivers(with));
  }

  @Test
  void aDynamicFilterPrunesRowGroupsBeforeTheyAreReadWhenSplitsDidNotWait() {
    // No wait: splits cover the whole table; the page sources test each row group against the
    // filter before reading it, and the probe side starts reading only once the build is done.
    MaterializedResultWithPlan without = runner.executeWithPlan(join(false, "0s"), JOIN);
    MaterializedResultWithPlan with = runner.executeWithPlan(join(true, "0s"), JOIN);
    assertThat(with.result().getMaterializedRows())
        .isEqualTo(without.result().getMaterializedRows());
    assertThat(probeScan(without).rowGroups()).hasSize(GROUPS);
    assertThat(probeScan(with).rowGroups()).containsAll(matching()).hasSizeLessThan(GROUPS / 2);
    // The same splits were planned: the row groups were skipped by the page sources.
    assertThat(scanDrivers(with)).isEqualTo(scanDrivers(without));
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void splitsComeAsSoonAsTheFilterCompletesAndAScanWithoutOneNeverWaits() {
    // An hour's timeout: the join returns once its build side is done, the scan alone at once.
    assertThat(runner.execute(join(true, "1h"), JOIN).getRowCount()).isEqualTo(1);
    assertThat(runner.execute(join(true, "1h"), "SELECT count(*) FROM df.probe").getOnlyValue())
        .isEqualTo(20_000L);
  }

  @Test
  void aBadWaitTimeoutIsNamed() {
    assertThatThrownBy(() -> runner.execute(join(true, "soon"), JOIN))
        .hasMessageContaining("dynamic_filtering_wait_timeout")
        .hasMessageContaining("'soon'");
  }

  @Test
  void aSmallTableGetsASplitPerDriverSlot() {
    MaterializedResultWithPlan result =
        runner.executeWithPlan(runner.getDefaultSession(), "SELECT sum(v) FROM df.probe");
    assertThat(result.result().getOnlyValue()).isEqualTo(3L * 20_000 * 20_001 / 2);
    // One leaf driver per split.
    long drivers = scanDrivers(result);
    int slots = runner.getNodeCount() * Runtime.getRuntime().availableProcessors();
    // The table is far below 128 MB: by size alone it would be one split.
    assertThat(drivers).isGreaterThanOrEqualTo(Math.min(slots, GROUPS)).isGreaterThan(1);
  }

  /** The query's table scan drivers: one per split (Trino runs a leaf split in a driver). */
  private long scanDrivers(MaterializedResultWithPlan result) {
    return runner
        .getCoordinator()
        .getQueryManager()
        .getFullQueryInfo(result.queryId())
        .getQueryStats()
        .getOperatorSummaries()
        .stream()
        .filter(o -> o.getOperatorType().contains("Scan"))
        .mapToLong(OperatorStats::getTotalDrivers)
        .sum();
  }

  @Test
  void aFilterRulingOutTheRestAfterTheFirstRowGroupFinishesThePageSource() throws Exception {
    // The join's filter, as core's narrowing predicate, arrives once the page source has handed
    // out its first row group (a split that did not wait for it) and rules out every other one.
    // The split's scan shares its reads under relevance (the default policy), and finds the rest
    // ruled out only as they arrive in the shared buffer: the page source must finish, not fail.
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    MosaicTable table = MosaicTable.open(dir.resolve("metadata/df/probe"), pool);
    AtomicReference<Predicate> filter = new AtomicReference<>(Predicate.ALL);
    ScanRequest request =
        ScanRequest.of(List.of("k"))
            .recorded(false)
            .sharing(SharingPolicy.RELEVANCE)
            .narrowing(filter::get);
    long rows = 0;
    try (Retriever retriever = new Retriever(pool, 1, 0, SharingPolicy.RELEVANCE, 64L << 20)) {
      TablePin pin = table.pin();
      Scan scan = retriever.chunks(table, pin, request);
      try (MosaicPageSource source =
          new MosaicPageSource(
              pin, scan, List.of(new MosaicColumnHandle("k", BigintType.BIGINT, true)))) {
        // Trino's driver: a page when there is one, else wait on isBlocked() until finished.
        while (!source.isFinished()) {
          SourcePage page = source.getNextSourcePage();
          if (page == null) {
            source.isBlocked().get(60, TimeUnit.SECONDS);
            continue;
          }
          assertThat(page.getBlock(0).getPositionCount()).isEqualTo(page.getPositionCount());
          rows += page.getPositionCount();
          filter.set(Predicate.of(Predicate.lt("k", 0L)));
        }
        assertThat(scan.stats().rowGroupsRead()).hasSize(1);
      }
    }
    assertThat(rows).isEqualTo(20_000 / GROUPS);
  }

  @Test
  void splitWeightsAreTheSplitsBytesOverTheTarget() throws Exception {
    // A connector of its own over the same directories, with a 1 MB target: each split's weight
    // is its bytes over 1 MB, at least the catalog's minimum.
    Map<String, String> properties = new HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    properties.put("mosaic.target-split-size", "1MB");
    properties.put("mosaic.minimum-assigned-split-weight", "0.01");
    Connector connector =
        new MosaicConnectorFactory().create("mosaic", properties, new TestingConnectorContext());
    try {
      List<MosaicSplit> probe = MosaicQueryRunner.splits(connector, "df", "probe");
      assertThat(probe).hasSizeGreaterThan(1);
      for (MosaicSplit s : probe) {
        double proportion = Math.max(0.01, Math.min(1.0, s.bytes() / (double) (1 << 20)));
        assertThat(s.getSplitWeight()).isEqualTo(SplitWeight.fromProportion(proportion));
        assertThat(s.bytes()).isPositive().isLessThan(1 << 20);
        // Local devices: no host to prefer (docs/distributed-storage.md, "Locality").
        assertThat(s.getAddresses()).isEmpty();
      }
      MosaicSplit first = probe.get(0);
      MosaicSplit last = probe.get(probe.size() - 1);
      assertThat(first.getSplitWeight().getRawValue() * (double) last.bytes())
          .isCloseTo(
              last.getSplitWeight().getRawValue() * (double) first.bytes(),
              org.assertj.core.data.Percentage.withPercentage(1));
      // Two tiny rows: the minimum weight.
      assertThat(MosaicQueryRunner.splits(connector, "df", "build"))
          .singleElement()
          .satisfies(
              s -> assertThat(s.getSplitWeight()).isEqualTo(SplitWeight.fromProportion(0.01)));
    } finally {
      connector.shutdown();
    }
  }
}
