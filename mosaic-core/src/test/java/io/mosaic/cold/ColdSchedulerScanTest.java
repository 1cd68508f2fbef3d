package io.mosaic.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.config.ColdSpec;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.RowGroupChunks;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads of a cold device through its group scheduler (issue 24; Skipper, VLDB 2016, Section 4.4):
 * the same table on a device without a scheduler ({@code policy = "none"}) and on one with each
 * policy. Concurrent scans of every policy return every value; a chunk-mode scan (Trino's) queues
 * its whole split, so the scheduler serves it a disk group at a time: at most one switch per group
 * the scan reads, where the naive path interleaves the groups (bounds on the device's counter, not
 * on time).
 */
class ColdSchedulerScanTest {
  private static final int COLUMNS = 8;
  private static final int ROWS = 60_000;

  private record Setup(DevicePool pool, MosaicTable naive, MosaicTable scheduled, Set<Integer> used)
      implements AutoCloseable {
    @Override
    public void close() {}
  }

  private static Setup setup(Path dir, String policy) throws IOException {
    Path file = dir.resolve("devices.toml");
    String cold = "{ groups = 4, switch = \"30 ms\", read = \"400 MB/s\", policy = \"%s\" }";
    Files.writeString(
        file,
        """
        [[device]]
        id = "warm"
        path = "warm"
        capacity = "1 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "30 ct"
        metadata = true
        emulate = { read = "4 GB/s" }

        [[device]]
        id = "naive"
        path = "naive"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        cold = %s

        [[device]]
        id = "sched"
        path = "sched"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        cold = %s
        """
            .formatted(cold.formatted("none"), cold.formatted(policy)));
    DevicePool pool = DevicePool.load(file);
    // Segment names are random, so are their groups: write again until the scheduled table's
    // columns use at least 3 groups (each attempt fails with odds below 1/4).
    MosaicTable scheduled = null;
    Set<Integer> used = new HashSet<>();
    for (int attempt = 0; used.size() < 3; attempt++) {
      assertThat(attempt).as("tables written without three groups").isLessThan(10);
      scheduled = write(pool, dir.resolve("s" + attempt), "sched");
      used.clear();
      ColdSpec spec = pool.device("sched").spec().cold().orElseThrow();
      for (SegmentEntry s : scheduled.latest().segments()) {
        used.add(spec.groupOf(s.path()));
      }
    }
    return new Setup(pool, write(pool, dir.resolve("n"), "naive"), scheduled, used);
  }

  private static MosaicTable write(DevicePool pool, Path root, String device) throws IOException {
    List<ColumnSpec> columns =
        IntStream.range(0, COLUMNS)
            .mapToObj(c -> new ColumnSpec("c" + c, ColumnType.of(ColumnType.Kind.INT64), false))
            .toList();
    TableSchema schema = new TableSchema(columns);
    MosaicTable t =
        MosaicTable.create(
            root,
            pool,
            schema,
            Map.of(
                TableProperties.DEFAULT_DEVICE, device, TableProperties.ROW_GROUP_ROWS, "15000"));
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = t.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int c = 0; c < COLUMNS; c++) {
        BigIntVector v = (BigIntVector) batch.getVector(c);
        for (int r = 0; r < ROWS; r++) {
          v.setSafe(r, value(r, c));
        }
      }
      batch.setRowCount(ROWS);
      writer.write(batch);
      t.append(List.of(writer.finish()));
    }
    return t;
  }

  /** A table of {@code parts} appends of one row group each: its segments spread over groups. */
  private static MosaicTable writeParts(DevicePool pool, Path root, int parts) throws IOException {
    return writeParts(pool, root, parts, "sched");
  }

  private static MosaicTable writeParts(DevicePool pool, Path root, int parts, String device)
      throws IOException {
    List<ColumnSpec> columns =
        IntStream.range(0, COLUMNS)
            .mapToObj(c -> new ColumnSpec("c" + c, ColumnType.of(ColumnType.Kind.INT64), false))
            .toList();
    TableSchema schema = new TableSchema(columns);
    MosaicTable t =
        MosaicTable.create(
            root,
            pool,
            schema,
            Map.of(
                TableProperties.DEFAULT_DEVICE, device, TableProperties.ROW_GROUP_ROWS, "15000"));
    for (int p = 0; p < parts; p++) {
      try (BufferAllocator alloc = new RootAllocator();
          TableWriter writer = t.newWriter();
          VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
        batch.allocateNew();
        for (int c = 0; c < COLUMNS; c++) {
          BigIntVector v = (BigIntVector) batch.getVector(c);
          for (int r = 0; r < 15_000; r++) {
            v.setSafe(r, value(p * 15_000 + r, c));
          }
        }
        batch.setRowCount(15_000);
        writer.write(batch);
        t.append(List.of(writer.finish()));
      }
    }
    return t;
  }

  private static long value(int row, int column) {
    return (long) row * 1_000_003L + column * 7L - 12_345L * (row % 11);
  }

  private static List<String> allColumns() {
    return IntStream.range(0, COLUMNS).mapToObj(c -> "c" + c).toList();
  }

  /** Scans every column in vector mode under query {@code query}; checks every value. */
  private static int scanAndCheck(Retriever retriever, MosaicTable table, String query) {
    return scanAndCheck(retriever, table, ScanRequest.of(allColumns()).queryId(query));
  }

  private static int scanAndCheck(Retriever retriever, MosaicTable table, ScanRequest request) {
    List<String> names = allColumns();
    int rows = 0;
    try (Scan scan = retriever.scan(table, request)) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        int first = 15_000 * scan.rowGroup();
        for (int c = 0; c < names.size(); c++) {
          BigIntVector v = (BigIntVector) batch.getVector(c);
          for (int r = 0; r < batch.getRowCount(); r++) {
            if (v.get(r) != value(first + r, c)) {
              throw new AssertionError("row " + (first + r) + " column c" + c + ": " + v.get(r));
            }
          }
        }
        rows += batch.getRowCount();
      }
    }
    return rows;
  }

  /** A chunk-mode scan of every column (Trino's path); returns its rows. */
  private static long chunkScan(Retriever retriever, MosaicTable table, String query) {
    long rows = 0;
    try (TablePin pin = table.pin();
        Scan scan = retriever.chunks(table, pin, ScanRequest.of(allColumns()).queryId(query))) {
      while (scan.hasNext()) {
        RowGroupChunks g = scan.nextChunks();
        assertThat(g.chunks()).hasSize(COLUMNS);
        rows += g.rows();
      }
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank", "max-queries", "fcfs"})
  void concurrentScansReturnEveryValueUnderEveryPolicy(String policy, @TempDir Path dir)
      throws Exception {
    Setup s = setup(dir, policy);
    try (Retriever retriever = new Retriever(s.pool())) {
      ExecutorService clients = Executors.newFixedThreadPool(4);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int q = 0; q < 4; q++) {
          String query = "q" + q;
          results.add(clients.submit(() -> scanAndCheck(retriever, s.scheduled(), query)));
        }
        for (Future<Integer> f : results) {
          assertThat(f.get()).isEqualTo(ROWS);
        }
      } finally {
        clients.shutdownNow();
      }
      assertThat(retriever.scheduledSwitches("sched")).isPositive();
      assertThat(retriever.scheduledSwitches("naive")).as("no scheduler").isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank", "fcfs"})
  void aChunkScanTakesEveryRowGroupOnceInTheOrderTheDeviceServesThem(
      String policy, @TempDir Path dir) throws Exception {
    Setup s = setup(dir, policy);
    // Eight appends: each row group its own segments, so a column's row groups lie in several
    // groups and the device's rounds complete them out of row-group order.
    MosaicTable parts = writeParts(s.pool(), dir.resolve("parts"), 8);
    try (Retriever retriever = new Retriever(s.pool())) {
      for (int pass = 0; pass < 2; pass++) {
        List<Integer> order = new ArrayList<>();
        long rows = 0;
        try (TablePin pin = parts.pin();
            Scan scan =
                retriever.chunks(parts, pin, ScanRequest.of(allColumns()).queryId("p" + pass))) {
          while (scan.hasNext()) {
            RowGroupChunks g = scan.nextChunks();
            order.add(g.rowGroup());
            assertThat(g.chunks()).hasSize(COLUMNS);
            rows += g.rows();
          }
        }
        System.out.printf("row groups of 8 appends, policy %s, pass %d: %s%n", policy, pass, order);
        assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(rows).isEqualTo(8 * 15_000);
      }
    }
  }

  @Test
  void aDamagedChunkFailsAnOutOfOrderVectorScanAndLeaksNothing(@TempDir Path dir) throws Exception {
    Setup s = setup(dir, "rank");
    MosaicTable parts = writeParts(s.pool(), dir.resolve("parts"), 8);
    SegmentEntry damaged = parts.latest().segmentsOf("c3").get(5);
    Path file = s.pool().device(damaged.device()).resolve(damaged.path());
    byte[] bytes = Files.readAllBytes(file);
    bytes[40] ^= 0x5a; // inside the segment's one chunk
    Files.write(file, bytes);
    // The retriever's close checks that every buffer of its scans was freed (Arrow's allocator).
    try (Retriever retriever = new Retriever(s.pool())) {
      for (int attempt = 0; attempt < 3; attempt++) {
        int before = attempt;
        try (Scan scan =
            retriever.scan(parts, ScanRequest.of(allColumns()).queryId("d" + before))) {
          assertThatThrownBy(
                  () -> {
                    while (scan.hasNext()) {
                      scan.next();
                    }
                  })
              .isInstanceOf(CorruptTableException.class)
              .hasMessageContaining(file.toString())
              .hasMessageContaining("column 'c3'");
        }
      }
      assertThat(scanAndCheck(retriever, s.scheduled(), "after")).isEqualTo(ROWS);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank", "fcfs"})
  void aVectorScanTakesEveryRowGroupOnceUnlessAskedForTableOrder(String policy, @TempDir Path dir)
      throws Exception {
    Setup s = setup(dir, policy);
    MosaicTable parts = writeParts(s.pool(), dir.resolve("parts"), 8);
    try (Retriever retriever = new Retriever(s.pool())) {
      for (boolean ordered : new boolean[] {false, true, false}) {
        List<Integer> order = new ArrayList<>();
        ScanRequest request = ScanRequest.of(allColumns()).queryId("v" + ordered).ordered(ordered);
        int rows = 0;
        try (Scan scan = retriever.scan(parts, request)) {
          while (scan.hasNext()) {
            VectorSchemaRoot batch = scan.next();
            order.add(scan.rowGroup());
            int first = 15_000 * scan.rowGroup();
            for (int c = 0; c < COLUMNS; c++) {
              BigIntVector v = (BigIntVector) batch.getVector(c);
              for (int r = 0; r < batch.getRowCount(); r++) {
                if (v.get(r) != value(first + r, c)) {
                  throw new AssertionError("row " + (first + r) + " column c" + c);
                }
              }
            }
            rows += batch.getRowCount();
          }
        }
        System.out.printf(
            "vector scan of 8 appends, policy %s, ordered %s: %s%n", policy, ordered, order);
        assertThat(rows).isEqualTo(8 * 15_000);
        if (ordered) {
          assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        } else {
          assertThat(order).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        }
      }
      // A scan closed after one row group, whichever came first, frees what it read ahead once.
      try (Scan scan = retriever.scan(parts, ScanRequest.of(allColumns()).queryId("early"))) {
        assertThat(scan.hasNext()).isTrue();
        assertThat(scan.next().getRowCount()).isEqualTo(15_000);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank", "max-queries", "fcfs"})
  void aChunkScanSwitchesOncePerGroupThroughTheScheduler(String policy, @TempDir Path dir)
      throws Exception {
    Setup s = setup(dir, policy);
    try (Retriever retriever = new Retriever(s.pool())) {
      Device naive = s.pool().device("naive");
      Device sched = s.pool().device("sched");
      // A first scan reads the segments' footers (cached by the retriever; those reads are not
      // scheduled), so the second is the reads of the chunks alone.
      chunkScan(retriever, s.naive(), "naive-warm");
      chunkScan(retriever, s.scheduled(), "sched-warm");
      long naiveBefore = naive.groupSwitches();
      long schedBefore = sched.groupSwitches();
      long decidedBefore = retriever.scheduledSwitches("sched");
      assertThat(chunkScan(retriever, s.naive(), "naive-q")).isEqualTo(ROWS);
      assertThat(chunkScan(retriever, s.scheduled(), "sched-q")).isEqualTo(ROWS);
      long naiveSwitches = naive.groupSwitches() - naiveBefore;
      long schedSwitches = sched.groupSwitches() - schedBefore;
      System.out.printf(
          "chunk scan of %d columns, 4 row groups, policy %s: naive %d switches, scheduled %d"
              + " (groups used %d)%n",
          COLUMNS, policy, naiveSwitches, schedSwitches, s.used().size());
      assertThat(schedSwitches).isLessThanOrEqualTo(s.used().size());
      assertThat(schedSwitches)
          .as("the device switches when the scheduler does")
          .isEqualTo(retriever.scheduledSwitches("sched") - decidedBefore);
      assertThat(naiveSwitches)
          .as("the naive path interleaves groups")
          .isGreaterThan(schedSwitches);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"attach", "elevator", "relevance"})
  void sharedScansLoadThroughTheGroupScheduler(String sharing, @TempDir Path dir) throws Exception {
    Setup s = setup(dir, "rank");
    SharingPolicy policy = SharingPolicy.parse(sharing);
    // Eight appends: a row group's column chunks lie in several disk groups.
    Map<String, MosaicTable> tables =
        Map.of(
            "naive", writeParts(s.pool(), dir.resolve("pn"), 8, "naive"),
            "sched", writeParts(s.pool(), dir.resolve("ps"), 8, "sched"));
    Map<String, Long> switches = new java.util.HashMap<>();
    for (String id : List.of("naive", "sched")) {
      Device device = s.pool().device(id);
      MosaicTable table = tables.get(id);
      // A shared buffer that holds the table: the ABM, not the budget, limits what is queued.
      try (Retriever retriever = new Retriever(s.pool(), 2, 0, policy, 64L << 20)) {
        // The footers first (cached; their reads are not scheduled), on the ordered path, which
        // leaves nothing in the shared buffer.
        scanAndCheck(
            retriever,
            table,
            ScanRequest.of(allColumns()).queryId(id + "-warm").sharing(SharingPolicy.NORMAL));
        long before = device.groupSwitches();
        long decidedBefore = retriever.scheduledSwitches(id);
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try {
          List<Future<Integer>> results = new ArrayList<>();
          for (int q = 0; q < 4; q++) {
            ScanRequest request = ScanRequest.of(allColumns()).queryId(id + q).sharing(policy);
            results.add(clients.submit(() -> scanAndCheck(retriever, table, request)));
          }
          for (Future<Integer> f : results) {
            assertThat(f.get()).isEqualTo(8 * 15_000);
          }
        } finally {
          clients.shutdownNow();
        }
        switches.put(id, device.groupSwitches() - before);
        if (id.equals("sched")) {
          assertThat(switches.get(id))
              .as("every shared load went through the scheduler: the device switched as it said")
              .isEqualTo(retriever.scheduledSwitches(id) - decidedBefore);
        }
      }
    }
    System.out.printf(
        "4 shared scans (%s) of 8 appends x %d columns: naive %d switches, scheduled %d%n",
        sharing, COLUMNS, switches.get("naive"), switches.get("sched"));
    assertThat(switches.get("sched")).isLessThan(switches.get("naive"));
  }
}
