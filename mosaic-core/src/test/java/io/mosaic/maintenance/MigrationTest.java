package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.device.DeviceFullException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TableWriter;
import io.mosaic.table.TestPool;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private MosaicTable orders(DevicePool pool, List<List<Object>> expected) throws IOException {
    return TableFixtures.orders(dir.resolve("orders"), pool, 0.05, expected);
  }

  private static Map<String, String> everyColumnTo(
      Manifest m, java.util.function.IntFunction<String> device) {
    Map<String, String> placement = new LinkedHashMap<>();
    for (int i = 0; i < m.schema().columns().size(); i++) {
      placement.put(m.schema().columns().get(i).name(), device.apply(i));
    }
    return placement;
  }

  private static long filesUnder(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".parquet")).count();
    }
  }

  @Test
  void roundTripToOtherDevicesAndCodecsAndBackPreservesEveryValue() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> expected = new ArrayList<>();
    MosaicTable table = orders(pool, expected);
    Manifest before = table.latest();
    Migrator migrator = new Migrator(table);

    // Every column moves one device on: zstd -> lz4 -> none -> zstd, re-encoding each time.
    Map<String, String> away = everyColumnTo(before, i -> TestPool.IDS[(i + 1) % 4]);
    Migrator.Plan plan = migrator.plan(away);
    assertThat(plan.moves()).hasSize(before.segments().size());
    Manifest moved = migrator.apply(plan, new Migrator.Listener() {});
    assertThat(moved.version()).isEqualTo(before.version() + before.schema().columns().size());
    for (SegmentEntry s : moved.segments()) {
      assertThat(s.device()).isEqualTo(away.get(s.column()));
      assertThat(s.codec()).isEqualTo(pool.device(s.device()).spec().codec());
    }
    assertThat(TableRoundTripTest.rows(table, moved, alloc)).isEqualTo(expected);

    Map<String, String> back = everyColumnTo(before, i -> TestPool.IDS[i % 4]);
    Manifest home = migrator.apply(migrator.plan(back), new Migrator.Listener() {});
    assertThat(TableRoundTripTest.rows(table, home, alloc)).isEqualTo(expected);
    // Each segment is back where it started, with the same codec and the same statistics.
    for (SegmentEntry s : home.segments()) {
      SegmentEntry original = before.segmentFor(s.column(), s.firstRowGroup());
      assertThat(s.device()).isEqualTo(original.device());
      assertThat(s.codec()).isEqualTo(original.codec());
      assertThat(s.stats()).isEqualTo(original.stats());
    }
    // Old files were retired: one file per segment is left on the devices.
    assertThat(filesUnder(dir.resolve("devices"))).isEqualTo(home.segments().size());
    assertThat(migrator.plan(back).moves()).isEmpty();
  }

  @Test
  void sameCodecMovesAreByteCopiesAndDryRunChangesNothing() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = orders(pool, new ArrayList<>());
    Manifest before = table.latest();
    // nvme and hdd are both zstd: o_orderkey (on nvme) moves to hdd unchanged.
    Migrator migrator = new Migrator(table);
    Migrator.Plan plan = migrator.plan(Map.of("o_orderkey", "hdd"));
    assertThat(plan.describe())
        .contains("o_orderkey", "nvme (zstd) -> hdd (zstd)", "into hdd:", "out of nvme:");
    assertThat(table.latest()).isEqualTo(before);

    Manifest after = migrator.apply(plan, new Migrator.Listener() {});
    SegmentEntry old = before.segmentsOf("o_orderkey").get(0);
    SegmentEntry now = after.segmentsOf("o_orderkey").get(0);
    assertThat(now.device()).isEqualTo("hdd");
    assertThat(now.checksum()).isEqualTo(old.checksum());
    assertThat(now.fileBytes()).isEqualTo(old.fileBytes());
    assertThat(pool.device("nvme").resolve(old.path())).doesNotExist();
  }

  @Test
  void pinnedVersionsKeepTheirFilesAndReadersAreNeverBlocked() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> expected = new ArrayList<>();
    MosaicTable table = orders(pool, expected);
    Migrator migrator = new Migrator(table);

    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger scans = new AtomicInteger();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferAllocator a = new RootAllocator()) {
                while (!stop.get()) {
                  try (TablePin pin = table.pin()) {
                    List<List<Object>> rows = TableRoundTripTest.rows(table, pin.manifest(), a);
                    if (!rows.equals(expected)) {
                      throw new AssertionError("scan of v" + pin.version() + " saw other data");
                    }
                    scans.incrementAndGet();
                  }
                }
              } catch (Throwable t) {
                failed.set(t);
              }
            });
    try (TablePin held = table.pin()) {
      reader.start();
      Manifest before = held.manifest();
      Manifest moved =
          migrator.apply(
              migrator.plan(everyColumnTo(before, i -> TestPool.IDS[(i + 2) % 4])),
              new Migrator.Listener() {});
      stop.set(true);
      reader.join();
      assertThat(failed.get()).isNull();
      assertThat(scans.get()).isPositive();
      // The held version still reads completely: its files were not deleted.
      assertThat(TableRoundTripTest.rows(table, held.manifest(), alloc)).isEqualTo(expected);
      assertThat(moved.version()).isGreaterThan(before.version());
    }
    // Unpinned now: gc retires the old version and its files.
    GarbageCollector.Report report = new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(report.files()).isEqualTo(table.latest().segments().size());
    assertThat(table.versions()).containsExactly(table.latest().version());
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);
  }

  @Test
  void aDeviceThatFillsUpMidwayStopsCleanly() throws IOException {
    // hdd holds 2.5 MB. Random doubles barely compress, so the planner's estimate (half of the
    // raw size) lets the plan start, and the second column finds the device full.
    DevicePool pool = TestPool.create(dir, "2.5 MB");
    TableSchema schema = TpchBatches.schema("a double", "b double", "c double");
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.DEFAULT_DEVICE, "raid");
    MosaicTable table = MosaicTable.create(dir.resolve("noise"), pool, schema, props);
    Random random = new Random(1);
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int c = 0; c < 3; c++) {
        Float8Vector v = (Float8Vector) batch.getVector(c);
        for (int i = 0; i < 200_000; i++) {
          v.setSafe(i, random.nextDouble());
        }
      }
      batch.setRowCount(200_000);
      writer.write(batch);
      table.append(List.of(writer.finish()));
    }
    Manifest before = table.latest();
    List<List<Object>> expected = TableRoundTripTest.rows(table, before, alloc);
    Migrator migrator = new Migrator(table);
    Map<String, String> placement = new LinkedHashMap<>();
    placement.put("a", "hdd");
    placement.put("b", "hdd");
    assertThatThrownBy(() -> migrator.apply(migrator.plan(placement), new Migrator.Listener() {}))
        .isInstanceOf(DeviceFullException.class)
        .hasMessageContaining(
            "migration of table noise stopped at column b; the table is at version "
                + (before.version() + 1))
        .hasMessageContaining("device 'hdd' is full: capacity 2.5 MB");
    Manifest after = table.latest();
    assertThat(after.segmentsOf("a").get(0).device()).isEqualTo("hdd");
    assertThat(after.segmentsOf("b").get(0).device()).isEqualTo("raid");
    assertThat(TableRoundTripTest.rows(table, after, alloc)).isEqualTo(expected);
    // Only column a's segment is on hdd: b's partial file was removed.
    assertThat(filesUnder(pool.device("hdd").root())).isEqualTo(1);

    // Asking for more than fits is refused before anything moves.
    assertThatThrownBy(
            () ->
                migrator.apply(
                    migrator.plan(Map.of("c", "hdd", "b", "hdd")), new Migrator.Listener() {}))
        .isInstanceOf(DeviceFullException.class)
        .hasMessageContaining("device 'hdd' would receive ~")
        .hasMessageContaining("Nothing was moved.");
    assertThat(table.latest()).isEqualTo(after);
    assertThat(after.segmentsOf("a").get(0).codec()).isEqualTo(Codec.ZSTD);
  }

  @Test
  void placementTextKeepsOrderAndNamesWhatIsMalformed() {
    assertThat(Migrator.parsePlacement(" l_comment = hdd,, l_shipdate=nvme ,"))
        .containsExactly(Map.entry("l_comment", "hdd"), Map.entry("l_shipdate", "nvme"));
    for (String bad : List.of("l_comment", "l_comment=", "=hdd", "a=b=c", "a=hdd, b:ssd")) {
      assertThatThrownBy(() -> Migrator.parsePlacement(bad))
          .isInstanceOf(MosaicException.class)
          .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.INVALID_ARGUMENT)
          .hasMessageContaining("must be COLUMN=DEVICE")
          .hasMessageContaining("'" + bad.substring(bad.lastIndexOf(',') + 1).strip() + "'");
    }
    assertThatThrownBy(() -> Migrator.parsePlacement(" , "))
        .hasMessageContaining("names no column");
    assertThatThrownBy(() -> Migrator.parsePlacement(null)).hasMessageContaining("names no column");
  }
}
