package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.maintenance.Migrator;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.storage.Storage;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * A table kept with the lock-free protocol (docs/format.md, "Commits without POSIX locks") on one
 * storage: concurrent writers commit without losing rows, scans are traced without appends, gc
 * keeps what the retention promises and takes what a dead writer left. Subclasses give the storage
 * (local files, HDFS) and the pool.
 */
abstract class LockFreeTableContract {
  static final TableSchema SCHEMA = TpchBatches.ORDERS;

  /** The pool, whose first two devices take the table's columns. */
  abstract DevicePool pool() throws IOException;

  /** A new, empty storage location for the table {@code name}. */
  abstract Storage tableStorage(String name) throws IOException;

  /** The table opened anew, the way engines open it. */
  abstract MosaicTable reopen(MosaicTable table, DevicePool pool);

  final ShiftedClock clock = new ShiftedClock();

  private MosaicTable create(String name, DevicePool pool) throws IOException {
    Storage storage = tableStorage(name);
    VersionLog log = new VersionLog(storage, "", name, Retention.defaults(), clock);
    List<Device> devices = pool.devices();
    Map<String, String> props = new java.util.HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, "5000");
    for (int i = 0; i < SCHEMA.columns().size(); i++) {
      props.put(
          "column." + SCHEMA.columns().get(i).name() + ".device",
          devices.get(devices.size() - 1 - (i % 2)).id());
    }
    return MosaicTable.create(log, pool, SCHEMA, props);
  }

  static List<List<Object>> rows(double sf) {
    List<List<Object>> rows = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator()) {
      TpchBatches.orders(sf, 8192, a, b -> rows.addAll(TableFixtures.values(b)));
    }
    return rows;
  }

  static List<List<Object>> scan(DevicePool pool, MosaicTable table) {
    List<List<Object>> rows = new ArrayList<>();
    try (Retriever retriever = new Retriever(pool);
        Scan scan = retriever.scan(table, ScanRequest.of(table.latest().schema().names()))) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        rows.addAll(TableFixtures.values(batch));
      }
    }
    return rows;
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(r -> (Long) r.get(0)));
    return copy;
  }

  @Test
  void concurrentWritersCommitEveryRowAndScansAreTraced() throws Exception {
    DevicePool pool = pool();
    MosaicTable table = create("orders", pool);
    assertThat(table.lockFree()).isTrue();
    List<List<Object>> all = rows(0.01);
    int writers = 4;
    int commitsEach = 3;
    int parts = writers * commitsEach;
    ExecutorService threads = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(
            threads.submit(
                () -> {
                  // each writer its own instance, as separate processes would have
                  MosaicTable mine = MosaicTable.open(table.log(), pool);
                  for (int c = 0; c < commitsEach; c++) {
                    int part = writer * commitsEach + c;
                    List<List<Object>> slice =
                        all.subList(part * all.size() / parts, (part + 1) * all.size() / parts);
                    TableFixtures.appendRows(mine, SCHEMA, new ArrayList<>(slice));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      threads.shutdownNow();
    }
    MosaicTable reopened = reopen(table, pool);
    assertThat(reopened.location()).isEqualTo(table.location());
    assertThat(reopened.versions()).hasSize(parts + 1).last().isEqualTo((long) parts + 1);
    assertThat(reopened.latest().rowCount()).isEqualTo(all.size());
    assertThat(sorted(scan(pool, reopened))).isEqualTo(sorted(all));
    // Every writer's lease was given back.
    assertThat(table.log().storage().list(Lease.WRITERS)).isEmpty();
    // The scan was recorded, as a file of its own (no appends).
    List<io.mosaic.trace.TraceRecord> trace = TraceLog.of(reopened).read(1);
    assertThat(trace).hasSize(1);
    assertThat(trace.get(0).columns()).containsExactlyElementsOf(SCHEMA.names());
    assertThat(TraceLog.of(reopened).newEpoch()).isEqualTo(2);
    assertThat(TraceLog.of(reopened).epoch()).isEqualTo(2);
  }

  @Test
  void gcKeepsAVersionForItsRetentionThenRetiresItAndDeletesItsSegments() throws IOException {
    DevicePool pool = pool();
    MosaicTable table = create("lineitem", pool);
    List<List<Object>> rows = rows(0.005);
    Manifest written = TableFixtures.appendRows(table, SCHEMA, rows);
    String column = SCHEMA.columns().get(0).name();
    SegmentEntry old = written.segmentsOf(column).get(0);
    String target = pool.devices().get(0).id();
    Migrator migrator = new Migrator(table);
    Manifest moved =
        migrator.apply(migrator.plan(Map.of(column, target)), new Migrator.Listener() {});
    assertThat(moved.segmentsOf(column)).allMatch(s -> s.device().equals(target));
    Storage oldDevice = pool.device(old.device()).storage();
    // Within the retention: the old version can still be read, and its segment stays.
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(oldDevice.stat(old.path())).isPresent();
    assertThat(table.version(written.version()).rowCount()).isEqualTo(rows.size());

    clock.advance(Duration.ofHours(2).toMillis()); // past the one-hour version retention
    GarbageCollector.Report report = new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(report.manifests()).isEqualTo((int) (moved.version() - 1));
    assertThat(report.files()).isPositive();
    assertThat(oldDevice.stat(old.path())).isEmpty();
    assertThatThrownBy(() -> table.version(written.version()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("was retired");
    // Tombstones keep the names: the versions are not listed, but the next commit is v(n+1).
    assertThat(table.versions()).containsExactly(moved.version());
    assertThat(sorted(scan(pool, table))).isEqualTo(sorted(rows));
    assertThat(table.commit("noop", m -> m).version()).isEqualTo(moved.version() + 1);
  }

  /**
   * A pin held past half the version retention takes a reader lease and renews it, so gc keeps its
   * version past the retention; once the pin is closed, gc retires the version. Real time here (a 2
   * s retention): the lease is taken by a timer.
   */
  @Test
  void aLongPinTakesAReaderLeaseThatKeepsItsVersion() throws Exception {
    DevicePool pool = pool();
    Retention retention =
        new Retention(
            Duration.ofSeconds(2),
            Duration.ofSeconds(30),
            Duration.ZERO,
            Duration.ofSeconds(6),
            Duration.ofMillis(500));
    VersionLog log =
        new VersionLog(tableStorage("part"), "", "part", retention, java.time.Clock.systemUTC());
    MosaicTable table = MosaicTable.create(log, pool, SCHEMA, Map.of());
    List<List<Object>> rows = rows(0.002);
    Manifest written = TableFixtures.appendRows(table, SCHEMA, rows);
    String column = SCHEMA.columns().get(0).name();
    SegmentEntry old = written.segmentsOf(column).get(0);
    Storage oldDevice = pool.device(old.device()).storage();
    try (TablePin pin = table.pin()) {
      assertThat(pin.version()).isEqualTo(written.version());
      long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!pin.holdsLease() && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      assertThat(pin.holdsLease()).as("a reader lease after half the retention").isTrue();
      String target =
          pool.devices().stream()
              .map(Device::id)
              .filter(d -> !d.equals(old.device()))
              .findFirst()
              .orElseThrow();
      Migrator migrator = new Migrator(table);
      migrator.apply(migrator.plan(Map.of(column, target)), new Migrator.Listener() {});
      Thread.sleep(retention.versions().plus(retention.skew()).multipliedBy(2).toMillis());
      new GarbageCollector(table).collect(Duration.ZERO);
      assertThat(oldDevice.stat(old.path())).as("kept by the pin's lease").isPresent();
      assertThat(table.version(written.version()).rowCount()).isEqualTo(rows.size());
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(oldDevice.stat(old.path())).as("gone once the pin closed").isEmpty();
    assertThatThrownBy(() -> table.version(written.version()))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("was retired");
  }

  @Test
  void gcTakesAnExpiredWritersFilesAndKeepsALiveOnes() throws IOException {
    DevicePool pool = pool();
    MosaicTable table = create("customer", pool);
    List<List<Object>> rows = rows(0.002);
    TableWriter live = table.newWriter();
    TableWriter dead = table.newWriter();
    write(live, rows);
    write(dead, rows);
    List<String> liveFiles = filesOf(table, pool, live.writerId());
    List<String> deadFiles = filesOf(table, pool, dead.writerId());
    assertThat(liveFiles).isNotEmpty();
    assertThat(deadFiles).isNotEmpty();
    new GarbageCollector(table).collect(Duration.ZERO); // both leases live: nothing goes
    assertThat(filesOf(table, pool, dead.writerId())).isEqualTo(deadFiles);

    // Four minutes on, the live writer renews (half its lease is gone); the dead one cannot.
    clock.advance(Duration.ofMinutes(4).toMillis());
    try (VectorSchemaRoot more = batch(rows.subList(0, 10))) {
      live.write(more);
    }
    WriteResult result = live.finish();
    clock.advance(Duration.ofMinutes(2).toMillis());
    new GarbageCollector(table).collect(Duration.ofHours(1));
    assertThat(filesOf(table, pool, dead.writerId())).isEmpty();
    assertThat(filesOf(table, pool, live.writerId())).isEqualTo(liveFiles);
    assertThatThrownBy(dead::finish)
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("expired");
    Manifest committed = table.append(List.of(result));
    live.close();
    assertThat(committed.rowCount()).isEqualTo(rows.size() + 10);
    assertThat(scan(pool, table)).hasSize(rows.size() + 10);
  }

  private static void write(TableWriter writer, List<List<Object>> rows) throws IOException {
    for (int from = 0; from < rows.size(); from += 4096) {
      try (VectorSchemaRoot b = batch(rows.subList(from, Math.min(rows.size(), from + 4096)))) {
        writer.write(b);
      }
    }
  }

  private static final BufferAllocator ALLOC = new RootAllocator();

  private static VectorSchemaRoot batch(List<List<Object>> rows) {
    return TableFixtures.batch(SCHEMA, rows, ALLOC);
  }

  private static List<String> filesOf(MosaicTable table, DevicePool pool, String writer)
      throws IOException {
    List<String> files = new ArrayList<>();
    String tableId = table.latest().tableId();
    for (Device d : pool.devices()) {
      if (d.isFolder(tableId)) {
        for (Storage.FileStatus f : d.files(tableId)) {
          if (f.name().startsWith(writer + "-")) {
            files.add(d.id() + "/" + f.key());
          }
        }
      }
    }
    files.sort(null);
    return files;
  }
}
