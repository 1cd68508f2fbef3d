package io.mosaic.cold;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.ColdSpec;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table on an emulated cold device without a group scheduler ({@code policy = "none"}: reads in
 * arrival order, Skipper's naive path), scanned through the {@link Retriever} (issue 24): every row
 * comes back; scans alternating between two disk groups pay a switch each, counted by the device
 * and at least the switch latency each in time; scans within one group pay none. Lower bounds on
 * time only. {@link ColdSchedulerScanTest} reads through the scheduler.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColdScanTest {
  private static final long SWITCH_NANOS = 100_000_000L;
  private static final int COLUMNS = 8;
  private static final int ROWS = 60_000;

  private DevicePool pool;
  private Device csd;
  private Retriever retriever;
  private MosaicTable table;
  private final Map<String, Integer> groupOf = new HashMap<>();

  @BeforeAll
  void writeTable(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("devices.toml");
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
        id = "csd"
        path = "csd"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        cold = { groups = 4, switch = "100 ms", read = "200 MB/s", policy = "none" }
        """);
    pool = DevicePool.load(file);
    csd = pool.device("csd");
    retriever = new Retriever(pool);
    // Segment names are random (their writer's id), so are their groups: with 8 columns on 4
    // groups two share one (pigeonhole), and all 8 share one with odds 4^-7; then write again.
    for (int attempt = 0; groupOf.values().stream().distinct().count() < 2; attempt++) {
      assertThat(attempt).as("tables written without two groups").isLessThan(5);
      table = write(dir.resolve("t" + attempt));
      groupOf.clear();
      ColdSpec cold = csd.spec().cold().orElseThrow();
      for (SegmentEntry s : table.latest().segments()) {
        assertThat(s.device()).isEqualTo("csd");
        int group = cold.groupOf(s.path());
        assertThat(csd.groupOf(csd.resolve(s.path()))).isEqualTo(group);
        Integer before = groupOf.put(s.column(), group);
        assertThat(before == null || before == group).as("one segment per column").isTrue();
      }
    }
  }

  @AfterAll
  void close() {
    retriever.close();
  }

  private MosaicTable write(Path root) throws IOException {
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
            Map.of(TableProperties.DEFAULT_DEVICE, "csd", TableProperties.ROW_GROUP_ROWS, "15000"));
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

  private static long value(int row, int column) {
    return (long) row * 1_000_003L + column * 7L - 12_345L * (row % 11);
  }

  /** Scans {@code columns} and checks every value of every row. */
  private void scanAndCheck(String... columns) {
    List<String> names = List.of(columns);
    int rows = 0;
    try (Scan scan = retriever.scan(table, ScanRequest.of(names))) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        for (int i = 0; i < names.size(); i++) {
          BigIntVector v = (BigIntVector) batch.getVector(i);
          int c = Integer.parseInt(names.get(i).substring(1));
          for (int r = 0; r < batch.getRowCount(); r++) {
            if (v.get(r) != value(rows + r, c)) {
              throw new AssertionError(
                  "row " + (rows + r) + " column " + names.get(i) + ": " + v.get(r));
            }
          }
        }
        rows += batch.getRowCount();
      }
    }
    assertThat(rows).as("rows of " + names).isEqualTo(ROWS);
  }

  private List<String> columnsOfGroup(int group) {
    return groupOf.entrySet().stream()
        .filter(e -> e.getValue() == group)
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  @Test
  void everyRowComesBackAndEachSwitchCostsItsLatency() {
    String[] all = IntStream.range(0, COLUMNS).mapToObj(c -> "c" + c).toArray(String[]::new);
    long before = csd.groupSwitches();
    long start = System.nanoTime();
    scanAndCheck(all);
    long elapsed = System.nanoTime() - start;
    long switches = csd.groupSwitches() - before;
    // Without the scheduler, the reader threads interleave the groups' chunks (FCFS at the device).
    System.out.printf(
        "cold scan of %d columns on %d groups: %d switches, %.2f s%n",
        COLUMNS, groupOf.values().stream().distinct().count(), switches, elapsed / 1e9);
    // Every group the table uses is spun up at least once (one may have been active already).
    assertThat(switches)
        .isGreaterThanOrEqualTo(groupOf.values().stream().distinct().count() - 1)
        .isPositive();
    assertThat(elapsed).isGreaterThanOrEqualTo(switches * SWITCH_NANOS);
  }

  @Test
  void scansAlternatingBetweenTwoGroupsPayASwitchEach() {
    List<Integer> groups = groupOf.values().stream().distinct().sorted().toList();
    String a = columnsOfGroup(groups.get(0)).get(0);
    String b = columnsOfGroup(groups.get(1)).get(0);
    scanAndCheck(a); // a's group is now the active one
    long before = csd.groupSwitches();
    long start = System.nanoTime();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      scanAndCheck(b);
      scanAndCheck(a);
      order.add(b);
      order.add(a);
    }
    long elapsed = System.nanoTime() - start;
    assertThat(csd.groupSwitches() - before).as("switches reading " + order).isEqualTo(4);
    assertThat(elapsed).isGreaterThanOrEqualTo(4 * SWITCH_NANOS);
  }

  @Test
  void scansWithinOneGroupPayNoSwitch() {
    // 8 columns on 4 groups: some group holds two of them.
    List<String> pair =
        groupOf.values().stream()
            .distinct()
            .map(this::columnsOfGroup)
            .filter(cs -> cs.size() >= 2)
            .findFirst()
            .orElseThrow();
    scanAndCheck(pair.get(0)); // their group is now the active one
    long before = csd.groupSwitches();
    scanAndCheck(pair.get(1));
    scanAndCheck(pair.get(0));
    scanAndCheck(pair.get(0), pair.get(1));
    assertThat(csd.groupSwitches() - before).as("switches reading " + pair).isZero();
  }
}
