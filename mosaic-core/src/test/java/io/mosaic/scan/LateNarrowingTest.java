package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TablePin;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chunk-mode scan sharing its reads under {@code relevance}, driven as Trino's page source drives
 * it, whose narrowing predicate (a join's dynamic filter arriving late) keeps every row group until
 * the first is handed out and then rules out the rest: the scan ends, it does not fail. The two
 * ways the end was found only by the take that failed (docs/cooperative-scans.md): {@code ready()}
 * rules out the last row groups itself, or returns while a row group it ruled out has already woken
 * it and the rest are still loading.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LateNarrowingTest {
  static final int GROUPS = 8;
  static final int GROUP_ROWS = 1_000;
  private DevicePool pool;
  private MosaicTable table;
  private long tableBytes;

  /** Two emulated devices whose every read waits a seek: a load is never done at once. */
  @BeforeAll
  void writeTable(@TempDir Path dir) throws IOException {
    Path config = dir.resolve("devices.toml");
    Files.writeString(
        config,
        """
        [[device]]
        id = "a"
        path = "devices/a"
        capacity = "1 GB"
        threads = 2
        codec = "none"
        cost_per_gb = "10 ct"
        metadata = true
        emulate = { read = "4 GB/s", seek = "30 ms" }

        [[device]]
        id = "b"
        path = "devices/b"
        capacity = "1 GB"
        threads = 2
        codec = "none"
        cost_per_gb = "10 ct"
        emulate = { read = "4 GB/s", seek = "30 ms" }
        """);
    pool = DevicePool.load(config);
    table = keyed(dir.resolve("t"), pool, GROUPS, GROUP_ROWS, Map.of("k", "a", "v", "b"));
    for (String column : List.of("k", "v")) {
      for (var s : table.latest().segmentsOf(column)) {
        tableBytes += Files.size(pool.device(s.device()).resolve(s.path()));
      }
    }
  }

  /**
   * A table of {@code groups} row groups of {@code rows} rows: k (int64) numbers the rows from 0,
   * so row group g holds k in [g * rows, (g + 1) * rows); v = 7 k mod 1000.
   */
  static MosaicTable keyed(
      Path root, DevicePool pool, int groups, int rows, Map<String, String> devices)
      throws IOException {
    List<List<Object>> all = new ArrayList<>();
    for (long k = 0; k < (long) groups * rows; k++) {
      all.add(List.of(k, 7 * k % 1000));
    }
    var schema = TpchBatches.schema("k int64", "v int64");
    Map<String, String> props = new java.util.HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, String.valueOf(rows));
    devices.forEach((column, device) -> props.put("column." + column + ".device", device));
    return TableFixtures.write(root, pool, schema, all, props);
  }

  /** A narrowing that rules out every row group of {@link #keyed}'s tables. */
  static final Predicate NOTHING = Predicate.of(Predicate.lt("k", -1L));

  private ScanRequest request(AtomicReference<Predicate> narrowing) {
    return ScanRequest.of(List.of("k", "v"))
        .recorded(false)
        .sharing(SharingPolicy.RELEVANCE)
        .narrowing(narrowing::get);
  }

  /** Takes the first row group as the page source would, then lets the narrowing arrive. */
  private static RowGroupChunks first(PageSourceDriver driver, AtomicReference<Predicate> narrowing)
      throws Exception {
    RowGroupChunks g;
    while ((g = driver.next()) == null) {
      driver.isBlocked().get(60, TimeUnit.SECONDS);
    }
    narrowing.set(NOTHING);
    return g;
  }

  @Test
  void readyRulingOutTheLastRowGroupsEndsTheScan() throws Exception {
    // Room for the whole table: every row group is loaded while the first is held, so the next
    // ready() takes and rules out all of them and has nothing to hand out.
    AtomicReference<Predicate> narrowing = new AtomicReference<>(Predicate.ALL);
    try (Retriever retriever = new Retriever(pool, 1, 0, SharingPolicy.RELEVANCE, 4 * tableBytes);
        TablePin pin = table.pin();
        Scan scan = retriever.chunks(table, pin, request(narrowing))) {
      PageSourceDriver driver = new PageSourceDriver(scan);
      RowGroupChunks taken = first(driver, narrowing);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (retriever.sharedStats(SharingPolicy.RELEVANCE).chunksLoaded() < 2 * GROUPS) {
        assertThat(System.nanoTime()).as("every chunk loaded").isLessThan(deadline);
        Thread.sleep(5);
      }
      assertThat(driver.isFinished()).as("not known yet: no row group is ruled out").isFalse();
      assertThat(driver.next()).isNull();
      assertThat(driver.isFinished()).isTrue();
      assertThat(scan.stats().rowGroupsRead()).containsExactly(taken.rowGroup());
      assertThat(scan.stats().rowGroupsSkipped()).isEqualTo(GROUPS - 1);
    }
  }

  @Test
  void aWakeUpFromARowGroupRuledOutDoesNotLeaveTheTakeToWait() throws Exception {
    // Room for one row group: the next is loaded (a 30 ms seek per chunk) only once the first is
    // released, so the ready() that releases it finds nothing complete yet.
    AtomicReference<Predicate> narrowing = new AtomicReference<>(Predicate.ALL);
    long oneGroup = tableBytes / GROUPS;
    try (Retriever retriever = new Retriever(pool, 1, 0, SharingPolicy.RELEVANCE, oneGroup);
        TablePin pin = table.pin();
        Scan scan = retriever.chunks(table, pin, request(narrowing))) {
      PageSourceDriver driver = new PageSourceDriver(scan);
      RowGroupChunks taken = first(driver, narrowing);
      assertThat(driver.next()).as("nothing loaded yet: blocked, not waiting").isNull();
      assertThat(driver.isFinished()).isFalse();
      List<Integer> more = new ArrayList<>();
      driver.drain(g -> more.add(g.rowGroup()));
      assertThat(more).isEmpty();
      assertThat(scan.stats().rowGroupsRead()).containsExactly(taken.rowGroup());
      assertThat(scan.stats().rowGroupsSkipped()).isEqualTo(GROUPS - 1);
    }
  }
}
