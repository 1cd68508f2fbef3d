package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.cooperative.ActiveBufferManager;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cooperative scans through a real retriever (issue 23): concurrent scans of lineitem on four
 * emulated devices share their reads through the Active Buffer Manager, take row groups out of
 * order, and every scan still gets each of its values exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedScanTest {
  private static final int GROUP_ROWS = 10_000;
  private DevicePool pool;
  private MosaicTable lineitem;
  private List<List<Object>> rows;
  private int groups;
  private long tableBytes;

  @BeforeAll
  void writeTable(@TempDir Path dir) throws IOException {
    pool = TableFixtures.fourDevices(dir);
    rows = new ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator()) {
      TpchBatches.lineitem(0.02, 0, Long.MAX_VALUE, 8192, alloc, b -> rows.addAll(values(b)));
    }
    Map<String, String> props = new HashMap<>(TableFixtures.spread(TpchBatches.LINEITEM));
    props.put(TableProperties.ROW_GROUP_ROWS, String.valueOf(GROUP_ROWS));
    lineitem =
        TableFixtures.write(dir.resolve("lineitem"), pool, TpchBatches.LINEITEM, rows, props);
    groups = lineitem.latest().rowGroups().size();
    try (Retriever r = new Retriever(pool);
        Scan s = r.scan(lineitem, ScanRequest.of(columns(0, 4, 5, 6, 10)).recorded(false))) {
      while (s.hasNext()) {
        s.next();
      }
      tableBytes = s.stats().bytesPerDevice().values().stream().mapToLong(Long::longValue).sum();
    }
  }

  @AfterAll
  void closePool() {}

  private static List<List<Object>> values(VectorSchemaRoot b) {
    return TableFixtures.values(b);
  }

  private static List<String> columns(int... index) {
    return Arrays.stream(index)
        .mapToObj(i -> TpchBatches.LINEITEM.columns().get(i).name())
        .toList();
  }

  /** One concurrent scan of the mix: its columns, its row groups, whether it is cancelled. */
  private record Job(int[] columns, int from, int to, boolean cancel) {}

  /** Row group -> its rows (the scanned columns), as the scan delivered them. */
  private Map<Integer, List<List<Object>>> run(Retriever retriever, Job job) {
    Map<Integer, List<List<Object>>> got = new HashMap<>();
    ScanRequest request =
        ScanRequest.of(columns(job.columns())).rowGroups(job.from(), job.to()).recorded(false);
    try (Scan scan = retriever.scan(lineitem, request)) {
      int n = 0;
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        List<List<Object>> previous = got.put(scan.rowGroup(), values(batch));
        assertThat(previous).as("row group %d delivered twice", scan.rowGroup()).isNull();
        if (job.cancel() && ++n == 2) {
          return got; // closed mid-way, with row groups still registered
        }
      }
    }
    return got;
  }

  private List<List<Object>> expected(int group, int[] columns) {
    int from = group * GROUP_ROWS;
    int to = Math.min(rows.size(), from + GROUP_ROWS);
    return rows.subList(from, to).stream()
        .map(r -> Arrays.stream(columns).mapToObj(r::get).toList())
        .toList();
  }

  @ParameterizedTest
  @EnumSource(SharingPolicy.class)
  void concurrentScansGetEveryValueExactlyOnce(SharingPolicy policy) throws Exception {
    List<Job> jobs =
        List.of(
            new Job(new int[] {4, 5, 6, 10}, 0, -1, false),
            new Job(new int[] {4, 5, 6, 10}, 2, groups - 1, false),
            new Job(new int[] {0, 4, 8, 9, 10}, 0, -1, false),
            new Job(new int[] {5, 6}, groups / 2, -1, false),
            new Job(new int[] {4, 5, 6, 10}, 0, -1, true),
            new Job(new int[] {0, 15}, 1, groups, false),
            new Job(new int[] {0, 4, 8, 9, 10}, 0, -1, true),
            new Job(new int[] {10}, 0, 3, false));
    // A buffer of a quarter of the scanned bytes: the scans must evict and share to finish.
    long budget = tableBytes / 4;
    try (Retriever retriever = new Retriever(pool, 2, 0, policy, budget)) {
      ExecutorService threads = Executors.newFixedThreadPool(jobs.size());
      try {
        List<Future<Map<Integer, List<List<Object>>>>> results = new ArrayList<>();
        for (Job j : jobs) {
          results.add(threads.submit(() -> run(retriever, j)));
        }
        for (int i = 0; i < jobs.size(); i++) {
          Job j = jobs.get(i);
          int index = i;
          Map<Integer, List<List<Object>>> got = results.get(i).get();
          int to = j.to() < 0 ? groups : j.to();
          if (j.cancel()) {
            assertThat(got).hasSize(2);
          } else {
            assertThat(got.keySet())
                .as("%s scan %d", policy, i)
                .containsExactlyInAnyOrderElementsOf(
                    java.util.stream.IntStream.range(j.from(), to).boxed().toList());
          }
          got.forEach(
              (g, values) ->
                  assertThat(values)
                      .as("%s scan %d row group %d", policy, index, g)
                      .isEqualTo(expected(g, j.columns())));
        }
      } finally {
        threads.shutdownNow();
      }
      ActiveBufferManager abm = retriever.sharedManager(policy);
      if (policy == SharingPolicy.NORMAL) {
        assertThat(abm).as("normal reads on the ordered path").isNull();
        return;
      }
      // Every scan, finished or cancelled, deregistered and unpinned its chunks; loads decided for
      // cancelled scans are given back once under way ones end.
      assertThat(abm.scans()).isZero();
      assertThat(abm.pinnedChunks()).isZero();
      awaitNoLoads(abm);
      assertThat(abm.stats().peakBytes()).as("budget").isLessThanOrEqualTo(budget);
    }
  }

  private static void awaitNoLoads(ActiveBufferManager abm) throws InterruptedException {
    for (int i = 0; i < 200 && abm.inFlightBytes() > 0; i++) {
      Thread.sleep(50);
    }
    assertThat(abm.inFlightBytes()).isZero();
  }

  @Test
  void relevanceReadsFewerBytesThanEachScanAlone() throws Exception {
    int n = 6;
    Job full = new Job(new int[] {0, 4, 5, 6, 10}, 0, -1, false);
    long alone;
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.RELEVANCE, tableBytes / 3)) {
      run(retriever, full);
      alone = retriever.sharedStats(SharingPolicy.RELEVANCE).bytesLoaded();
      assertThat(alone).isEqualTo(tableBytes);
    }
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.RELEVANCE, tableBytes / 3)) {
      ExecutorService threads = Executors.newFixedThreadPool(n);
      List<Future<?>> results = new ArrayList<>();
      List<ScanStats> stats = java.util.Collections.synchronizedList(new ArrayList<>());
      try {
        for (int i = 0; i < n; i++) {
          results.add(
              threads.submit(
                  () -> {
                    try (Scan scan =
                        retriever.scan(
                            lineitem, ScanRequest.of(columns(full.columns())).recorded(false))) {
                      int seen = 0;
                      while (scan.hasNext()) {
                        seen += scan.next().getRowCount();
                      }
                      assertThat(seen).isEqualTo(rows.size());
                      stats.add(scan.stats());
                    }
                    return null;
                  }));
        }
        for (Future<?> f : results) {
          f.get();
        }
      } finally {
        threads.shutdownNow();
      }
      long together = retriever.sharedStats(SharingPolicy.RELEVANCE).bytesLoaded();
      System.out.printf(
          "relevance: %d concurrent full scans read %,d bytes, one alone %,d (%.2fx)%n",
          n, together, alone, together / (double) (n * alone));
      assertThat(together).isLessThan(n * alone);
      // What each scan reports: chunks read for it plus chunks received from others' loads cover
      // every chunk it took, and the bytes read for all of them are what the buffer loaded.
      long chunksPerScan = (long) groups * full.columns().length;
      long read = 0;
      long shared = 0;
      long bytes = 0;
      for (ScanStats s : stats) {
        read += s.chunksRead();
        shared += s.chunksShared();
        bytes += s.bytesPerDevice().values().stream().mapToLong(Long::longValue).sum();
      }
      assertThat(shared).isPositive();
      assertThat(read + shared).isGreaterThanOrEqualTo(n * chunksPerScan);
      assertThat(bytes).isEqualTo(together);
    }
  }

  @Test
  void chunkModeSharesTheSameCheckedBytes() throws Exception {
    List<String> cols = columns(4, 5, 10, 15);
    Map<Integer, List<byte[]>> ordered = new HashMap<>();
    try (Retriever plain = new Retriever(pool);
        Scan scan = plain.chunks(lineitem, lineitem.pin(), ScanRequest.of(cols).recorded(false))) {
      while (scan.hasNext()) {
        RowGroupChunks g = scan.nextChunks();
        ordered.put(g.rowGroup(), g.chunks().stream().map(c -> c.pieces().get(0).bytes()).toList());
      }
    }
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.ELEVATOR, tableBytes)) {
      ExecutorService threads = Executors.newFixedThreadPool(3);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          results.add(
              threads.submit(
                  () -> {
                    int seen = 0;
                    try (var pin = lineitem.pin();
                        Scan scan =
                            retriever.chunks(lineitem, pin, ScanRequest.of(cols).recorded(false))) {
                      while (scan.hasNext()) {
                        // As an engine that must not park: wait for ready(), then take.
                        scan.ready().get();
                        if (!scan.hasNext()) {
                          break;
                        }
                        RowGroupChunks g = scan.nextChunks();
                        assertThat(g.rowRanges()).isNull();
                        for (int c = 0; c < cols.size(); c++) {
                          assertThat(g.chunks().get(c).pieces().get(0).bytes())
                              .isEqualTo(ordered.get(g.rowGroup()).get(c));
                        }
                        seen++;
                      }
                    }
                    return seen;
                  }));
        }
        for (Future<Integer> f : results) {
          assertThat(f.get()).isEqualTo(groups);
        }
      } finally {
        threads.shutdownNow();
      }
      assertThat(retriever.sharedStats(SharingPolicy.ELEVATOR).chunksShared()).isPositive();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = SharingPolicy.class,
      names = {"ATTACH", "ELEVATOR", "RELEVANCE"})
  void chunkScansHoldingARowGroupWhileTheyWaitDoNotStallTheBuffer(SharingPolicy policy)
      throws Exception {
    // Trino's page source keeps the row group it was handed while it waits (ready()) for the
    // next. Six such scans and room for two row groups: pinned while waiting, the held row groups
    // would fill the budget and every scan wait for room forever.
    List<String> cols = columns(4, 5, 10, 15);
    long budget = 2 * tableBytes / groups;
    try (Retriever retriever = new Retriever(pool, 2, 0, policy, budget)) {
      ExecutorService threads = Executors.newFixedThreadPool(6);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          results.add(
              threads.submit(
                  () -> {
                    int seen = 0;
                    try (var pin = lineitem.pin();
                        Scan scan =
                            retriever.chunks(lineitem, pin, ScanRequest.of(cols).recorded(false))) {
                      RowGroupChunks last = null;
                      while (scan.hasNext()) {
                        scan.ready().get();
                        if (!scan.hasNext()) {
                          break;
                        }
                        last = scan.nextChunks();
                        seen++;
                      }
                      assertThat(last).isNotNull();
                    }
                    return seen;
                  }));
        }
        for (Future<Integer> f : results) {
          assertThat(f.get(60, java.util.concurrent.TimeUnit.SECONDS))
              .as("row groups each scan took")
              .isEqualTo(groups);
        }
      } finally {
        threads.shutdownNow();
      }
      assertThat(retriever.sharedStats(policy).peakBytes())
          .as("the buffer's own accounting")
          .isLessThanOrEqualTo(budget);
    }
  }

  @Test
  void aNarrowingPredicateRulesOutRowGroupsAsTheyArrive() {
    // Rows are in l_orderkey order: the predicate keeps the first four row groups.
    long bound = (Long) rows.get(3 * GROUP_ROWS).get(0) + 1;
    List<Integer> kept = new ArrayList<>();
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.RELEVANCE, tableBytes)) {
      try (Scan scan =
          retriever.scan(
              lineitem,
              ScanRequest.of(columns(0, 4))
                  .recorded(false)
                  .narrowing(() -> Predicate.of(Predicate.lt("l_orderkey", bound))))) {
        while (scan.hasNext()) {
          VectorSchemaRoot batch = scan.next();
          assertThat(values(batch)).isEqualTo(expected(scan.rowGroup(), new int[] {0, 4}));
          kept.add(scan.rowGroup());
        }
        assertThat(scan.stats().rowGroupsSkipped()).isEqualTo(groups - kept.size());
      }
    }
    assertThat(kept).containsExactlyInAnyOrder(0, 1, 2, 3);
  }

  @Test
  void orderedRequestsAndNormalKeepRowGroupOrder() {
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.RELEVANCE, tableBytes)) {
      List<Integer> seen = new ArrayList<>();
      try (Scan scan =
          retriever.scan(lineitem, ScanRequest.of(columns(4)).ordered(true).recorded(false))) {
        while (scan.hasNext()) {
          scan.next();
          seen.add(scan.rowGroup());
        }
        assertThat(scan.stats().chunksShared()).isZero();
        assertThat(scan.stats().chunksRead()).isEqualTo(groups);
      }
      assertThat(seen).isSorted().hasSize(groups);
      assertThat(retriever.sharedManager(SharingPolicy.RELEVANCE)).isNull();
    }
  }

  @Test
  void aFailedLoadReachesEveryScanThatNeedsItAndTheyDeregister(@TempDir Path dir) throws Exception {
    MosaicTable damaged =
        TableFixtures.write(
            dir.resolve("damaged"),
            pool,
            TpchBatches.LINEITEM,
            rows.subList(0, 3 * GROUP_ROWS),
            Map.of(TableProperties.ROW_GROUP_ROWS, String.valueOf(GROUP_ROWS)));
    var segment = damaged.latest().segmentFor("l_quantity", 0);
    Path file = pool.device(segment.device()).resolve(segment.path());
    try (var ch =
        java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(new byte[] {(byte) 0x5a, (byte) 0xa5}), 40);
    }
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.ELEVATOR, tableBytes)) {
      ExecutorService threads = Executors.newFixedThreadPool(2);
      try {
        List<Future<?>> results = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
          results.add(
              threads.submit(
                  () -> {
                    try (Scan scan =
                        retriever.scan(damaged, ScanRequest.of(columns(4, 5)).recorded(false))) {
                      while (scan.hasNext()) {
                        scan.next();
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> f : results) {
          assertThatThrownBy(f::get)
              .hasCauseInstanceOf(io.mosaic.format.CorruptTableException.class)
              .hasMessageContaining(file.getFileName().toString());
        }
      } finally {
        threads.shutdownNow();
      }
      ActiveBufferManager abm = retriever.sharedManager(SharingPolicy.ELEVATOR);
      assertThat(abm.scans()).isZero();
      assertThat(abm.pinnedChunks()).isZero();
      awaitNoLoads(abm);
    }
  }

  @Test
  void aScanClosedFromAnotherThreadStopsWaiting() throws Exception {
    // A consumer holding one row group, closed from another thread (an engine cancelling a split).
    try (Retriever retriever = new Retriever(pool, 2, 0, SharingPolicy.RELEVANCE, tableBytes)) {
      Scan scan = retriever.scan(lineitem, ScanRequest.of(columns(4, 15)).recorded(false));
      scan.next();
      ExecutorService closer = Executors.newSingleThreadExecutor();
      try {
        Future<?> f = closer.submit(scan::close);
        f.get();
        assertThat(scan.hasNext()).isFalse();
        assertThatThrownBy(scan::next).isInstanceOf(IllegalStateException.class);
      } finally {
        closer.shutdownNow();
      }
      ActiveBufferManager abm = retriever.sharedManager(SharingPolicy.RELEVANCE);
      assertThat(abm.scans()).isZero();
      assertThat(abm.pinnedChunks()).isZero();
      awaitNoLoads(abm);
    } catch (CancellationException e) {
      throw new AssertionError("closing is not a failure of the consumer", e);
    }
  }
}
