package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.storage.LocalStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time travel (docs/format.md, "Time travel"): a table read as of a version number or a time, on
 * the local protocol and the lock-free one; a retired version is a NOT_FOUND naming what is
 * readable; a pinned old version keeps its rows while newer commits and gc run.
 */
class TimeTravelTest {
  private static final TableSchema SCHEMA = TpchBatches.ORDERS;

  @TempDir Path dir;

  /** Three appends after the creation: v1 empty, then v2..v4; {@code times[i]} between them. */
  private record History(
      MosaicTable table, List<List<List<Object>>> content, List<Instant> between) {}

  private History threeAppends(MosaicTable table) throws Exception {
    List<List<Object>> all = LockFreeTableContract.rows(0.002);
    List<List<List<Object>>> content = new ArrayList<>();
    List<Instant> between = new ArrayList<>();
    content.add(List.of());
    List<List<Object>> so = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Thread.sleep(5);
      between.add(Instant.now()); // after v(i+1), before v(i+2)
      Thread.sleep(5);
      List<List<Object>> part = all.subList(i * all.size() / 3, (i + 1) * all.size() / 3);
      TableFixtures.appendRows(table, SCHEMA, new ArrayList<>(part));
      so.addAll(part);
      content.add(List.copyOf(so));
    }
    Thread.sleep(5);
    between.add(Instant.now()); // after v4
    return new History(table, content, between);
  }

  private static List<List<Object>> read(DevicePool pool, MosaicTable table, TablePin pin) {
    List<List<Object>> rows = new ArrayList<>();
    try (Retriever retriever = new Retriever(pool);
        Scan scan = retriever.scan(table, pin, ScanRequest.of(pin.manifest().schema().names()))) {
      while (scan.hasNext()) {
        rows.addAll(TableFixtures.values(scan.next()));
      }
    }
    return rows;
  }

  private static void readsEveryVersion(DevicePool pool, History h) {
    MosaicTable table = h.table();
    for (int v = 1; v <= 4; v++) {
      assertThat(table.asOf(v).version()).isEqualTo(v);
      try (TablePin pin = table.pin(v)) {
        assertThat(read(pool, table, pin)).isEqualTo(h.content().get(v - 1));
      }
      // Between v and v+1, the table was at v.
      assertThat(table.asOf(h.between().get(v - 1)).version()).isEqualTo(v);
      Manifest m = table.asOf(v);
      assertThat(table.asOf(m.committedAt()).version()).isEqualTo(v);
    }
  }

  @Test
  void localTableReadsEachVersionByNumberAndTime() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(dir.resolve("orders"), pool, SCHEMA, TableFixtures.spread(SCHEMA));
    Instant beforeCreate = Instant.now().minusSeconds(60);
    History h = threeAppends(table);
    readsEveryVersion(pool, h);

    assertThatThrownBy(() -> table.asOf(beforeCreate))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("did not exist at " + beforeCreate)
        .extracting(e -> ((MosaicException) e).kind())
        .isEqualTo(MosaicException.Kind.NOT_FOUND);
    assertThatThrownBy(() -> table.asOf(9))
        .hasMessageContaining("table orders has no version 9")
        .hasMessageContaining("never committed (the latest version is v4)")
        .hasMessageContaining("readable now: 4 versions, v1 (committed at");

    // A reader pins v2, then more is committed and gc runs: v2 stays readable for it.
    try (TablePin pinned = table.pin(2)) {
      TableFixtures.appendRows(table, SCHEMA, h.content().get(1));
      new GarbageCollector(table).collect(Duration.ZERO);
      assertThat(read(pool, table, pinned)).isEqualTo(h.content().get(1));
      assertThat(table.versions()).containsExactly(2L, 5L);
      // v3 is retired with its commit time: no time after v2's commit can be shown to be v2's,
      // so the time is refused rather than answered by v2.
      assertThatThrownBy(() -> table.asOf(h.between().get(2)))
          .hasMessageContaining("has no readable version as of " + h.between().get(2))
          .hasMessageContaining("(v3, committed after v2) was retired by gc");
      assertThat(table.asOf(Instant.now()).version()).isEqualTo(5);
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThatThrownBy(() -> table.pin(3))
        .isInstanceOf(MosaicException.class)
        .isNotInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("table orders has no version 3 to read: gc retired it")
        .hasMessageContaining("readable now: only v5 (committed at")
        .hasMessageContaining("run gc less often")
        .extracting(e -> ((MosaicException) e).kind())
        .isEqualTo(MosaicException.Kind.NOT_FOUND);
  }

  @Test
  void lockFreeTableLeasesAnOldVersionWhileGcRuns() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    ShiftedClock clock = new ShiftedClock();
    VersionLog log =
        new VersionLog(
            new LocalStorage(Files.createDirectories(dir.resolve("tables/orders"))),
            "",
            "orders",
            // A one-minute version retention; the clock moves less than a lease (5 minutes) at a
            // time, as a reader's lease renewals would keep up with real time.
            new Retention(
                Duration.ofMinutes(1),
                Duration.ofDays(1),
                Duration.ofHours(1),
                Duration.ofMinutes(5),
                Duration.ofSeconds(30)),
            clock);
    MosaicTable table = MosaicTable.create(log, pool, SCHEMA, TableFixtures.spread(SCHEMA));
    History h = threeAppends(table);
    readsEveryVersion(pool, h);

    // v2 is superseded: its pin takes a reader lease, which gc honours past the retention.
    try (TablePin pinned = table.pin(2)) {
      assertThat(pinned.holdsLease()).isTrue();
      TableFixtures.appendRows(table, SCHEMA, h.content().get(1));
      clock.advance(Duration.ofMinutes(3).toMillis()); // v2..v4 past the retention
      new GarbageCollector(table).collect(Duration.ZERO);
      assertThat(read(pool, table, pinned)).isEqualTo(h.content().get(1));
      assertThat(table.versions()).containsExactly(2L, 5L);
    }
    try (TablePin latest = table.pin(5)) {
      assertThat(latest.holdsLease()).isFalse(); // the latest is kept by time: no lease
    }
    clock.advance(Duration.ofMinutes(10).toMillis()); // the closed lease is gone, v2 past retention
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThatThrownBy(() -> table.asOf(2))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("table orders has no version 2 to read: gc retired it")
        .hasMessageContaining("readable now: only v5")
        .hasMessageContaining("raise the version retention (now PT1M)")
        .extracting(e -> ((MosaicException) e).kind())
        .isEqualTo(MosaicException.Kind.NOT_FOUND);
  }
}
