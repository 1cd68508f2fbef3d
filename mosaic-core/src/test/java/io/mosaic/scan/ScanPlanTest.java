package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableWriter;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's one planning path for engine scans (issue 19): split cutting, planned bytes per device,
 * row-group skipping, count(*) plans, and the one trace record merged from the splits' fragments.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScanPlanTest {
  private static final int GROUPS = 20;
  private static final int GROUP_ROWS = 1000;
  private static final List<String> KV = List.of("k", "v");

  private DevicePool pool;
  private Retriever retriever;
  private MosaicTable table;
  private Manifest manifest;

  /** {@code k} = row number (sorted, so statistics skip), {@code v}, {@code s} on three devices. */
  @BeforeAll
  void writeTable(@TempDir Path dir) throws IOException {
    pool = TableFixtures.fourDevices(dir);
    retriever = new Retriever(pool);
    TableSchema schema =
        new TableSchema(
            List.of(
                new ColumnSpec("k", ColumnType.of(ColumnType.Kind.INT64), false),
                new ColumnSpec("v", ColumnType.of(ColumnType.Kind.INT64), false),
                new ColumnSpec("s", ColumnType.of(ColumnType.Kind.STRING), false)));
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, Integer.toString(GROUP_ROWS));
    props.put("column.k.device", "nvme");
    props.put("column.v.device", "ssd");
    props.put("column.s.device", "raid");
    table = MosaicTable.create(dir.resolve("t"), pool, schema, props);
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      for (int from = 0; from < GROUPS * GROUP_ROWS; from += GROUP_ROWS) {
        batch.allocateNew();
        for (int i = 0; i < GROUP_ROWS; i++) {
          long k = from + i;
          ((BigIntVector) batch.getVector(0)).setSafe(i, k);
          ((BigIntVector) batch.getVector(1)).setSafe(i, k * 7919 % 10007);
          ((VarCharVector) batch.getVector(2))
              .setSafe(i, ("row " + k).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(GROUP_ROWS);
        writer.write(batch);
      }
      table.append(List.of(writer.finish()));
    }
    manifest = table.latest();
    assertThat(manifest.rowGroups()).hasSize(GROUPS);
  }

  @AfterAll
  void close() {
    retriever.close();
  }

  /** What row group {@code g} of {@code columns} plans per device: its segment's even share. */
  private Map<String, Long> share(List<String> columns, int g) {
    Map<String, Long> bytes = new LinkedHashMap<>();
    for (String c : columns) {
      SegmentEntry s = manifest.segmentFor(c, g);
      bytes.merge(s.device(), s.compressedBytes() / s.rowGroupCount(), Long::sum);
    }
    return bytes;
  }

  private long shareBytes(List<String> columns, int g) {
    return share(columns, g).values().stream().mapToLong(Long::longValue).sum();
  }

  @Test
  void splitsAreContiguousRangesCutAtTheTargetWithPlannedBytesPerDevice() {
    long target = 3 * shareBytes(KV, 0);
    ScanPlan plan =
        ScanPlan.of(table, manifest, KV, Predicate.ALL, "q-cut", SplitTarget.fixed(target));
    assertThat(plan.version()).isEqualTo(manifest.version());
    assertThat(plan.rowGroups()).hasSize(GROUPS);
    assertThat(plan.rowGroupsSkipped()).isZero();
    assertThat(plan.splits().size()).isBetween(GROUPS / 4, GROUPS / 2);
    int next = 0;
    Map<String, Long> total = new HashMap<>();
    for (int i = 0; i < plan.splits().size(); i++) {
      ScanPlan.Split s = plan.splits().get(i);
      assertThat(s.fromRowGroup()).as("split %d starts where the last ended", i).isEqualTo(next);
      next = s.toRowGroup();
      Map<String, Long> expected = new HashMap<>();
      for (int g = s.fromRowGroup(); g < s.toRowGroup(); g++) {
        share(KV, g).forEach((d, b) -> expected.merge(d, b, Long::sum));
      }
      assertThat(s.bytesPerDevice()).isEqualTo(expected);
      // Local devices have no hosts: engines get no locality preference.
      assertThat(s.hosts()).as("hosts of split %d", i).isEmpty();
      expected.forEach((d, b) -> total.merge(d, b, Long::sum));
      if (i < plan.splits().size() - 1) {
        // Cut right after the row group that reached the target, never before.
        assertThat(s.bytes()).isGreaterThanOrEqualTo(target);
        assertThat(s.bytes() - shareBytes(KV, s.toRowGroup() - 1)).isLessThan(target);
      }
    }
    assertThat(next).isEqualTo(GROUPS);
    assertThat(plan.bytesPerDevice()).isEqualTo(total).containsOnlyKeys("nvme", "ssd");
    assertThat(plan.bytes()).isEqualTo(total.values().stream().mapToLong(Long::longValue).sum());
    // The whole table in one split when the target exceeds it.
    assertThat(
            ScanPlan.of(table, manifest, KV, Predicate.ALL, "q", SplitTarget.fixed(1L << 40))
                .splits())
        .containsExactly(new ScanPlan.Split(0, GROUPS, total));
  }

  @Test
  void perCoreTargetSpreadsAScanOverTheCoresWithinBounds() {
    // Spark's policy: min(128 MiB, max(4 MiB, total / (4 x cores))).
    assertThat(SplitTarget.perCore(1).bytesFor(1L << 30)).isEqualTo(128L << 20);
    assertThat(SplitTarget.perCore(4).bytesFor(160L << 20)).isEqualTo(10L << 20);
    assertThat(SplitTarget.perCore(8).bytesFor(1L << 20)).isEqualTo(4L << 20);
    assertThat(SplitTarget.fixed(5).bytesFor(1L << 40)).isEqualTo(5);
    // This table is far below 4 MiB: one split.
    assertThat(
            ScanPlan.of(table, manifest, KV, Predicate.ALL, "q", SplitTarget.perCore(2)).splits())
        .hasSize(1);
  }

  @Test
  void aMinimumSplitCountDividesASmallScanAtRowGroupBoundaries() {
    // Far more than the table per split, but six driver slots: six contiguous, even splits.
    ScanPlan plan =
        ScanPlan.of(table, manifest, KV, Predicate.ALL, "q", SplitTarget.fixed(1L << 40, 6));
    assertThat(plan.splits()).hasSize(6);
    int next = 0;
    for (ScanPlan.Split s : plan.splits()) {
      assertThat(s.fromRowGroup()).isEqualTo(next);
      assertThat(s.toRowGroup() - s.fromRowGroup()).isBetween(2, 5);
      next = s.toRowGroup();
    }
    assertThat(next).isEqualTo(GROUPS);
    assertThat(plan.splits().stream().mapToLong(ScanPlan.Split::bytes).sum())
        .isEqualTo(plan.bytes());
    // More slots than row groups: one row group per split, never less.
    assertThat(
            ScanPlan.of(table, manifest, KV, Predicate.ALL, "q", SplitTarget.fixed(1L << 40, 50))
                .splits())
        .hasSize(GROUPS)
        .allSatisfy(s -> assertThat(s.toRowGroup() - s.fromRowGroup()).isEqualTo(1));
    // Already enough splits by size: the minimum changes nothing.
    long target = 3 * shareBytes(KV, 0);
    assertThat(
            ScanPlan.of(table, manifest, KV, Predicate.ALL, "q", SplitTarget.fixed(target, 2))
                .splits())
        .isEqualTo(
            ScanPlan.of(table, manifest, KV, Predicate.ALL, "q", SplitTarget.fixed(target))
                .splits());
  }

  @Test
  void aNarrowingPredicateSkipsRowGroupsBeforeTheyAreRead() {
    ScanPlan plan =
        ScanPlan.of(table, manifest, KV, Predicate.ALL, "q-narrow", SplitTarget.fixed(1L << 40));
    ScanPlan.Split all = plan.splits().get(0);
    List<Long> keys = new ArrayList<>();
    ScanStats stats;
    try (TablePin pin = table.pin(plan.version());
        Scan scan =
            retriever.scan(
                table,
                pin,
                plan.request(all)
                    .narrowing(() -> Predicate.of(Predicate.in("k", List.of(500L, 12500L)))))) {
      while (scan.hasNext()) {
        BigIntVector k = (BigIntVector) scan.next().getVector(0);
        keys.add(k.get(0));
      }
      stats = scan.stats();
    }
    assertThat(keys).containsExactly(0L, 12000L);
    assertThat(stats.rowGroupsRead()).containsExactly(0, 12);
    assertThat(stats.rowGroupsSkipped()).isEqualTo(GROUPS - 2);
    Map<String, Long> bytes = stats.bytesPerDevice();
    assertThat(records("q-narrow"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.rowGroups()).containsExactly(0, 12);
              assertThat(r.bytesPerDevice()).isEqualTo(bytes);
            });
  }

  @Test
  void aPredicateThatNarrowsDuringTheScanSkipsTheRowGroupsNotYetRead() {
    AtomicReference<Predicate> current = new AtomicReference<>(Predicate.ALL);
    List<Integer> returned = new ArrayList<>();
    ScanStats stats;
    // A one-byte buffer: nothing is read ahead of the row group the consumer waits for.
    try (Scan scan =
        retriever.scan(
            table, ScanRequest.of(KV).recorded(false).buffer(1).narrowing(current::get))) {
      scan.next();
      returned.add(scan.rowGroup());
      // The build side of a join completes: only k >= 15000 (row groups 15..19) can match.
      current.set(Predicate.of(Predicate.ge("k", 15_000L)));
      while (scan.hasNext()) {
        scan.next();
        returned.add(scan.rowGroup());
      }
      stats = scan.stats();
    }
    // Row group 1 may have been let through before the filter narrowed; 2..14 never are.
    assertThat(returned).startsWith(0).endsWith(15, 16, 17, 18, 19);
    assertThat(returned).doesNotContainAnyElementsOf(List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 14));
    assertThat(stats.rowGroupsRead()).isEqualTo(returned);
    assertThat(stats.rowGroupsSkipped()).isEqualTo(GROUPS - returned.size());
  }

  @Test
  void predicatesSkipRowGroupsAndGapsCutSplits() {
    // k is the row number: groups 2..4 hold 2500..4999; the IN adds group 9, after a gap.
    Predicate p =
        Predicate.of(Predicate.ge("k", 2500L), Predicate.in("k", List.of(2600L, 4100L, 9500L)));
    ScanPlan plan = ScanPlan.of(table, manifest, KV, p, "q", SplitTarget.fixed(1L << 40));
    assertThat(plan.rowGroups()).containsExactly(2, 4, 9);
    assertThat(plan.rowGroupsSkipped()).isEqualTo(GROUPS - 3);
    assertThat(plan.splits())
        .extracting(ScanPlan.Split::fromRowGroup, ScanPlan.Split::toRowGroup)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2, 3),
            org.assertj.core.groups.Tuple.tuple(4, 5),
            org.assertj.core.groups.Tuple.tuple(9, 10));
    assertThat(plan.bytes()).isEqualTo(shareBytes(KV, 2) + shareBytes(KV, 4) + shareBytes(KV, 9));
  }

  @Test
  void aProjectionOfNoColumnsPlansRowGroupsReadsNothingAndRecordsNothing() {
    Predicate p = Predicate.of(Predicate.in("k", List.of(10L, 1010L, 7000L)));
    ScanPlan plan = ScanPlan.of(table, manifest, List.of(), p, "q-count", SplitTarget.fixed(1));
    // No bytes to cut by: splits end only at gaps, as both engines planned count(*) before.
    assertThat(plan.splits())
        .containsExactly(new ScanPlan.Split(0, 2, Map.of()), new ScanPlan.Split(7, 8, Map.of()));
    assertThat(plan.bytesPerDevice()).isEmpty();
    long rows = 0;
    try (TablePin pin = table.pin(plan.version())) {
      for (ScanPlan.Split s : plan.splits()) {
        try (Scan scan = retriever.scan(table, pin, plan.request(s))) {
          while (scan.hasNext()) {
            rows += scan.next().getRowCount();
          }
        }
      }
    }
    assertThat(rows).isEqualTo(3 * GROUP_ROWS);
    assertThat(records("q-count")).isEmpty();
  }

  private List<TraceRecord> records(String queryId) {
    TraceLog log = new TraceLog(table.root());
    return log.read(log.epoch()).stream().filter(r -> r.queryId().equals(queryId)).toList();
  }

  @Test
  void splitsRunOnSeveralThreadsAndJvmsMakeOneRecordOfWhatTheyRead() throws Exception {
    ScanPlan plan =
        ScanPlan.of(table, manifest, KV, Predicate.ALL, "q-merge", SplitTarget.fixed(1));
    assertThat(plan.splits()).hasSize(GROUPS);
    Map<String, Long> read = new HashMap<>();
    try (TablePin pin = table.pin(plan.version())) {
      // The first split runs "in another JVM": its fragment is in another process's file.
      read.putAll(run(pin, plan, plan.splits().get(0)));
      Path epoch = table.root().resolve("_trace/epoch-" + new TraceLog(table.root()).epoch());
      try (Stream<Path> files = Files.list(epoch)) {
        for (Path f : files.toList()) {
          Files.move(f, f.resolveSibling("other-host-1-" + f.getFileName()));
        }
      }
      ExecutorService threads = Executors.newFixedThreadPool(4);
      try {
        List<Future<Map<String, Long>>> done = new ArrayList<>();
        for (ScanPlan.Split s : plan.splits().subList(1, GROUPS)) {
          done.add(threads.submit(() -> run(pin, plan, s)));
        }
        for (Future<Map<String, Long>> f : done) {
          f.get().forEach((d, b) -> read.merge(d, b, Long::sum));
        }
      } finally {
        threads.shutdown();
      }
      // A split run again (a retried or speculative task) was still read once by the scan.
      run(pin, plan, plan.splits().get(5));
    }
    List<TraceRecord> records = records("q-merge");
    assertThat(records).hasSize(1);
    TraceRecord r = records.get(0);
    assertThat(r.table()).isEqualTo("t");
    assertThat(r.columns()).isEqualTo(KV);
    assertThat(r.rowGroups()).isEqualTo(plan.rowGroups());
    // Actual bytes (whole column chunks, headers included), not the plan's shares.
    assertThat(r.bytesPerDevice()).isEqualTo(read).containsOnlyKeys("nvme", "ssd");
    assertThat(r.elapsedMillis()).isNotNegative();
  }

  /** Executes one split to its end; returns the bytes it read per device. */
  private Map<String, Long> run(TablePin pin, ScanPlan plan, ScanPlan.Split split) {
    try (Scan scan = retriever.scan(table, pin, plan.request(split))) {
      while (scan.hasNext()) {
        scan.next();
      }
      return scan.stats().bytesPerDevice();
    }
  }

  @Test
  void aScanWhoseSplitsArePartlySkippedRecordsOnlyWhatWasRead() {
    ScanPlan plan =
        ScanPlan.of(
            table,
            manifest,
            List.of("v"),
            Predicate.ALL,
            "q-part",
            SplitTarget.fixed(5 * shareBytes(List.of("v"), 0)));
    assertThat(plan.splits()).hasSize(4);
    Map<String, Long> read = new HashMap<>();
    List<Integer> groups = new ArrayList<>();
    try (TablePin pin = table.pin(plan.version())) {
      // Split 1 runs whole, split 3 stops after one batch (a LIMIT), splits 0 and 2 never run.
      read.putAll(run(pin, plan, plan.splits().get(1)));
      for (int g = 5; g < 10; g++) {
        groups.add(g);
      }
      try (Scan scan = retriever.scan(table, pin, plan.request(plan.splits().get(3)).buffer(1))) {
        scan.next();
        scan.close();
        scan.stats().bytesPerDevice().forEach((d, b) -> read.merge(d, b, Long::sum));
        groups.addAll(scan.stats().rowGroupsRead());
      }
    }
    List<TraceRecord> records = records("q-part");
    assertThat(records).hasSize(1);
    assertThat(records.get(0).rowGroups()).isEqualTo(groups).contains(5, 9, 15).doesNotContain(0);
    assertThat(groups).hasSizeLessThan(10);
    assertThat(records.get(0).bytesPerDevice()).isEqualTo(read);
  }

  @Test
  void aScanOfItsOwnIsStillOneWholeRecord() throws IOException {
    try (Scan scan = retriever.scan(table, ScanRequest.of(KV).queryId("q-alone"))) {
      while (scan.hasNext()) {
        scan.next();
      }
    }
    assertThat(records("q-alone"))
        .singleElement()
        .satisfies(r -> assertThat(r.rowGroups()).hasSize(GROUPS));
    // Lines written before fragments existed read as they did.
    Path old =
        table.root().resolve("_trace/epoch-" + new TraceLog(table.root()).epoch() + "/old.jsonl");
    Files.writeString(
        old,
        "{\"queryId\":\"q-old\",\"table\":\"t\",\"columns\":[\"k\"],\"rowGroups\":[0,1],"
            + "\"bytesPerDevice\":{\"nvme\":10},\"elapsedMillis\":7,\"at\":\"2026-01-01T00:00:00Z\"}\n");
    assertThat(records("q-old"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.rowGroups()).containsExactly(0, 1);
              assertThat(r.elapsedMillis()).isEqualTo(7);
            });
  }
}
