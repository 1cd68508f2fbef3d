package io.mosaic.cooperative;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.cooperative.AbmSimulation.Device;
import io.mosaic.cooperative.AbmSimulation.Query;
import io.mosaic.cooperative.AbmSimulation.Result;
import io.mosaic.cooperative.AbmSimulation.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Active Buffer Manager's decisions on virtual time ({@link AbmSimulation}): correctness under
 * every policy with cancellations, the budget, fairness, and that relevance shares what normal
 * reads again (Cooperative Scans, VLDB 2007, Table 3's setting scaled down).
 */
@Timeout(60)
class ActiveBufferManagerTest {
  private static final long MB = 1_000_000;
  // lineitem's Q1 columns, chunk bytes per row group in the proportions of TPC-H with zstd.
  private static final Map<String, Long> CHUNKS = new LinkedHashMap<>();

  static {
    CHUNKS.put("l_quantity", 1 * MB);
    CHUNKS.put("l_extendedprice", 3 * MB);
    CHUNKS.put("l_discount", 600_000L);
    CHUNKS.put("l_tax", 600_000L);
    CHUNKS.put("l_returnflag", 100_000L);
    CHUNKS.put("l_linestatus", 100_000L);
    CHUNKS.put("l_shipdate", 1_800_000L);
  }

  private static final Set<String> FAST =
      Set.of("l_quantity", "l_extendedprice", "l_discount", "l_shipdate");
  private static final Set<String> SLOW = CHUNKS.keySet();
  private static final long GROUP_BYTES = CHUNKS.values().stream().mapToLong(Long::longValue).sum();
  private static final Device HDD = new Device("hdd", 1, 100 * MB, 8_000_000);
  private static final Device SSD = new Device("ssd", 2, 400 * MB, 0);

  private static Table table(int groups, Device... devices) {
    Map<String, String> device = new LinkedHashMap<>();
    int i = 0;
    for (String c : CHUNKS.keySet()) {
      device.put(c, devices[i++ % devices.length].id());
    }
    return new Table("lineitem", groups, CHUNKS, device);
  }

  /**
   * Streams of FAST (Q6-like, 4 columns) and SLOW (Q1-like, 7 columns, 3x the CPU per byte) queries
   * over random ranges of 1, 10, 50 or 100 % of the row groups (the paper's Section 5.1).
   */
  private static List<List<Query>> workload(
      long seed, int streams, int perStream, int groups, boolean cancels) {
    Random r = new Random(seed);
    int[] percents = {1, 10, 50, 100};
    List<List<Query>> out = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      List<Query> stream = new ArrayList<>();
      for (int q = 0; q < perStream; q++) {
        boolean fast = r.nextBoolean();
        int n = Math.max(1, groups * percents[r.nextInt(percents.length)] / 100);
        int from = r.nextInt(groups - n + 1);
        int cancelAfter = cancels && r.nextInt(4) == 0 ? r.nextInt(n) : -1;
        stream.add(
            new Query(
                (fast ? "F-" : "S-") + n,
                fast ? FAST : SLOW,
                from,
                from + n,
                fast ? 600 * MB : 200 * MB,
                cancelAfter));
      }
      out.add(stream);
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(SharingPolicy.class)
  void everyScanGetsExactlyItsRowGroupsOnceWithinTheBudget(SharingPolicy policy) {
    for (long seed = 0; seed < 4; seed++) {
      long budget = 3 * GROUP_BYTES;
      Result r =
          new AbmSimulation(policy, budget, 2_000_000_000L, List.of(HDD, SSD), table(30, HDD, SSD))
              .run(workload(seed, 8, 3, 30, true), 500_000_000L);
      assertThat(r.received()).isNotEmpty();
      for (var e : r.received().entrySet()) {
        List<Integer> expected = r.expected().get(e.getKey());
        if (expected != null) {
          assertThat(e.getValue().stream().sorted().toList()).as(e.getKey()).isEqualTo(expected);
        } else {
          // Cancelled mid-way: what it got, it got once.
          assertThat(e.getValue()).as(e.getKey()).doesNotHaveDuplicates();
        }
      }
      assertThat(r.maxUsedBytes()).as("peak buffer").isLessThanOrEqualTo(budget);
    }
  }

  @Test
  void relevanceReadsSharedChunksOnceWhereNormalReadsThemAgain() {
    // One disk, 16 streams of 4 queries started 3 s apart, a buffer of a tenth of the data: the
    // paper's Table 3 setting, scaled down.
    int groups = 40;
    long budget = groups * GROUP_BYTES / 10;
    Map<SharingPolicy, Result> results = new LinkedHashMap<>();
    for (SharingPolicy p : SharingPolicy.values()) {
      results.put(
          p,
          new AbmSimulation(p, budget, 60_000_000_000L, List.of(HDD), table(groups, HDD))
              .run(workload(42, 16, 4, groups, false), 3_000_000_000L));
    }
    Result normal = results.get(SharingPolicy.NORMAL);
    Result relevance = results.get(SharingPolicy.RELEVANCE);
    results.forEach(
        (p, r) ->
            System.out.printf(
                "%-9s stream avg %6.1f s, loaded %,d MB in %,d chunks, shared %,d of %,d chunks,"
                    + " peak %,d MB%n",
                p.configName(),
                average(r.streamSeconds()),
                r.stats().bytesLoaded() / MB,
                r.stats().chunksLoaded(),
                r.stats().chunksShared(),
                r.stats().chunksDelivered(),
                r.maxUsedBytes() / MB));
    // The paper's DSM Table 3: relevance at 0.56x normal's I/O and 0.49x its stream time.
    assertThat(relevance.stats().bytesLoaded())
        .isLessThan((long) (0.7 * normal.stats().bytesLoaded()));
    assertThat(average(relevance.streamSeconds()))
        .isLessThan(0.5 * average(normal.streamSeconds()));
  }

  @Test
  void noScanWaitsLongPastTheStarvationBound() {
    long bound = 1_000_000_000L;
    long budget = 4 * GROUP_BYTES;
    Result r =
        new AbmSimulation(SharingPolicy.RELEVANCE, budget, bound, List.of(HDD), table(30, HDD))
            .run(workload(7, 16, 3, 30, false), 100_000_000L);
    // Once past the bound a scan's row group is the next decision; before it is read, at most
    // the buffer's worth of loads already decided are ahead of it on the disk.
    double readBudget = budget / HDD.bytesPerSecond() * 1e9 + 8 * HDD.latencyNanos();
    double readGroup = GROUP_BYTES / HDD.bytesPerSecond() * 1e9 + 7 * HDD.latencyNanos();
    assertThat((double) r.maxBlockedNanos()).isLessThanOrEqualTo(bound + readBudget + readGroup);
  }

  @ParameterizedTest
  @EnumSource(SharingPolicy.class)
  void aBufferSmallerThanARowGroupStillFinishesEveryScan(SharingPolicy policy) {
    Result r =
        new AbmSimulation(policy, 1, 1_000_000_000L, List.of(HDD, SSD), table(6, HDD, SSD))
            .run(workload(3, 4, 2, 6, false), 0);
    r.expected()
        .forEach(
            (id, groups) ->
                assertThat(r.received().get(id).stream().sorted().toList()).isEqualTo(groups));
    assertThat(r.maxUsedBytes()).isLessThanOrEqualTo(GROUP_BYTES);
  }

  @Test
  void aFailedLoadReachesEveryScanThatNeedsTheChunk() throws Exception {
    ActiveBufferManager abm =
        new ActiveBufferManager(
            SharingPolicy.RELEVANCE, 100 * MB, 1, TimeUnit.SECONDS, System::nanoTime, () -> {});
    Table t = table(2, HDD);
    ActiveBufferManager.Scan a = abm.register("a", List.of(t.need(0, FAST)));
    ActiveBufferManager.Scan b = abm.register("b", List.of(t.need(0, Set.of("l_quantity"))));
    ActiveBufferManager.Scan c = abm.register("c", List.of(t.need(1, Set.of("l_tax"))));
    ChunkRef first = abm.nextLoad("hdd");
    while (!first.column().equals("l_quantity")) {
      abm.loaded(first, first);
      first = abm.nextLoad("hdd");
    }
    abm.failed(first, new IOException("disk gone"));
    assertThatThrownBy(a::poll)
        .isInstanceOf(CompletionException.class)
        .hasMessageContaining("disk gone");
    assertThatThrownBy(() -> b.take(1, TimeUnit.SECONDS)).hasRootCauseMessage("disk gone");
    // c needs none of it: it gets its row group.
    ChunkRef tax;
    while ((tax = abm.nextLoad("hdd")) != null && !tax.column().equals("l_tax")) {
      abm.loaded(tax, tax);
    }
    abm.loaded(tax, "tax bytes");
    ActiveBufferManager.Delivery d = c.take(1, TimeUnit.SECONDS);
    assertThat(d.data()).containsExactly("tax bytes");
    c.release(d);
    assertThat(c.take(1, TimeUnit.SECONDS)).isNull();
    a.close();
    b.close();
    c.close();
  }

  @Test
  void anUnknownPolicyNamesTheChoices() {
    assertThat(SharingPolicy.parse(" Relevance")).isEqualTo(SharingPolicy.RELEVANCE);
    assertThatThrownBy(() -> SharingPolicy.parse("lru"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("'lru' is unknown; use one of normal, attach, elevator, relevance");
  }

  private static double average(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }
}
