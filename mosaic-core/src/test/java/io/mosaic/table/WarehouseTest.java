package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.MosaicException.Kind;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceMarker;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.warehouse.Warehouse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Namespaces, tables, names, rename and drop of a {@link Warehouse}, as both engines use them. */
class WarehouseTest {
  @TempDir Path dir;
  private DevicePool pool;
  private Warehouse warehouse;

  @BeforeEach
  void setUp() {
    pool = TestPool.fourDevices(dir);
    warehouse = Warehouse.open(dir.resolve("warehouse"), pool);
  }

  private static void assertKind(ThrowingCallable call, Kind kind, String message) {
    assertThatThrownBy(call)
        .isInstanceOf(MosaicException.class)
        .satisfies(e -> assertThat(((MosaicException) e).kind()).isEqualTo(kind))
        .hasMessageContaining(message);
  }

  /** A table with data in the warehouse: CrashWorkload's schema, one column per device. */
  private MosaicTable tableWithData(String namespace, String name, int batches) throws IOException {
    MosaicTable table =
        warehouse.create(namespace, name, CrashWorkload.SCHEMA, CrashWorkload.properties());
    for (int b = 0; b < batches; b++) {
      CrashWorkload.append(table, b);
    }
    return table;
  }

  @Test
  void namespacesAreCreatedListedAndDroppedWhenEmpty() throws IOException {
    assertThat(warehouse.namespaces()).isEmpty();
    warehouse.createNamespace("tpch");
    warehouse.createNamespace("b_2");
    // Neither a directory with a name Mosaic refuses nor a file is a namespace.
    Files.createDirectory(warehouse.root().resolve("lost+found"));
    Files.writeString(warehouse.root().resolve("notes.txt"), "x");
    assertThat(warehouse.namespaces()).containsExactly("b_2", "tpch");
    assertThat(warehouse.namespaceExists("tpch")).isTrue();
    assertThat(warehouse.namespaceExists("nope")).isFalse();
    assertKind(() -> warehouse.createNamespace("tpch"), Kind.CONFLICT, "already exists");

    tableWithData("tpch", "orders", 1);
    assertKind(
        () -> warehouse.dropNamespace("tpch", false),
        Kind.CONFLICT,
        "namespace 'tpch' still has tables [orders]");
    assertThat(warehouse.exists("tpch", "orders")).isTrue();
    warehouse.dropNamespace("b_2", false);
    assertThat(warehouse.namespaces()).containsExactly("tpch");
    assertKind(() -> warehouse.dropNamespace("b_2", false), Kind.NOT_FOUND, "no namespace 'b_2'");
    assertKind(() -> warehouse.tables("b_2"), Kind.NOT_FOUND, "no namespace 'b_2'");
  }

  @Test
  void tablesAreCreatedListedOpenedAndDropped() throws IOException {
    warehouse.createNamespace("tpch");
    assertThat(warehouse.tables("tpch")).isEmpty();
    tableWithData("tpch", "orders", 2);
    warehouse.create("tpch", "lineitem", CrashWorkload.SCHEMA, Map.of("row_group_rows", "100"));
    // An interrupted creation (no version) is no table, and a namespace is no table either.
    Files.createDirectories(warehouse.root().resolve("tpch/half/_manifests"));
    assertThat(warehouse.tables("tpch")).containsExactly("lineitem", "orders");
    assertThat(warehouse.exists("tpch", "orders")).isTrue();
    assertThat(warehouse.exists("tpch", "half")).isFalse();
    assertThat(warehouse.exists("nope", "orders")).isFalse();
    assertThat(warehouse.open("tpch", "orders").latest().rowGroups()).hasSize(2 * 2);
    assertThat(warehouse.open("tpch", "lineitem").latest().properties())
        .containsEntry("row_group_rows", "100");

    assertKind(
        () -> warehouse.create("tpch", "orders", CrashWorkload.SCHEMA, Map.of()),
        Kind.CONFLICT,
        "table 'tpch.orders' already exists");
    assertKind(
        () -> warehouse.create("nope", "t", CrashWorkload.SCHEMA, Map.of()),
        Kind.NOT_FOUND,
        "no namespace 'nope'");
    assertThatThrownBy(() -> warehouse.open("tpch", "missing"))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessageContaining("no table 'tpch.missing'");
    assertKind(() -> warehouse.drop("tpch", "missing"), Kind.NOT_FOUND, "no table 'tpch.missing'");

    String id = warehouse.open("tpch", "orders").latest().tableId();
    warehouse.drop("tpch", "orders");
    assertThat(warehouse.tables("tpch")).containsExactly("lineitem");
    for (Device d : pool.devices()) {
      assertThat(d.root().resolve(id)).doesNotExist();
    }
    // Cascade drops what is left, tables first (through drop), then the directory.
    warehouse.dropNamespace("tpch", true);
    assertThat(warehouse.namespaces()).isEmpty();
  }

  @Test
  void bothEnginesGetTheSameNamesAndMessages() {
    warehouse.createNamespace("a.b-c_1");
    for (String bad : new String[] {"a/b", "..", "..evil", "../tiny", ".hidden", "-x", "", "a b"}) {
      assertKind(
          () -> warehouse.createNamespace(bad),
          Kind.INVALID_ARGUMENT,
          "namespace name '" + bad + "' is not allowed: use letters, digits");
      assertKind(
          () -> warehouse.create("a.b-c_1", bad, CrashWorkload.SCHEMA, Map.of()),
          Kind.INVALID_ARGUMENT,
          "table name '" + bad + "' is not allowed");
      // A lookup of a name with a refused character is an error too, not "no such table".
      assertKind(() -> warehouse.exists("a.b-c_1", bad), Kind.INVALID_ARGUMENT, "is not allowed");
    }
    String longest = "t".repeat(Warehouse.MAX_NAME_LENGTH);
    warehouse.create("a.b-c_1", longest, CrashWorkload.SCHEMA, Map.of());
    assertThat(warehouse.exists("a.b-c_1", longest)).isTrue();
    assertKind(
        () -> warehouse.create("a.b-c_1", longest + "t", CrashWorkload.SCHEMA, Map.of()),
        Kind.INVALID_ARGUMENT,
        "table name '" + longest + "t' is too long: 256 characters, Mosaic allows 255");
    assertKind(
        () -> warehouse.createNamespace("s".repeat(256)),
        Kind.INVALID_ARGUMENT,
        "namespace name '" + "s".repeat(256) + "' is too long");
    // Too long names nothing (it could never have been created): a lookup says so, no error.
    assertThat(warehouse.exists("a.b-c_1", longest + "t")).isFalse();
    assertThat(warehouse.namespaceExists("s".repeat(256))).isFalse();
  }

  /**
   * A table's identity is its id, which names its segment folders; its name is only its root's
   * directory. So rename moves the root, no segment moves, and the folders' owner files follow.
   */
  @Test
  void renameMovesTheRootAndTheSegmentFoldersFollow() throws IOException {
    warehouse.createNamespace("tpch");
    warehouse.createNamespace("archive");
    MosaicTable orders = tableWithData("tpch", "orders", 2);
    Manifest before = orders.latest();
    Map<String, Long> filesBefore = segmentFiles(before);

    warehouse.rename("tpch", "orders", "archive", "orders_2025");
    assertThat(warehouse.exists("tpch", "orders")).isFalse();
    assertThat(warehouse.tables("archive")).containsExactly("orders_2025");
    MosaicTable renamed = warehouse.open("archive", "orders_2025");
    Manifest after = renamed.latest();
    assertThat(after).isEqualTo(before);
    assertThat(segmentFiles(after)).isEqualTo(filesBefore);
    for (String device : filesBefore.keySet()) {
      Path owner = pool.device(device).root().resolve(after.tableId()).resolve(TableFolders.OWNER);
      assertThat(Files.readAllLines(owner, StandardCharsets.UTF_8).get(0))
          .isEqualTo(renamed.root().toRealPath().toString());
    }
    // The renamed table is fully usable: writes, gc and a new table under the old name.
    CrashWorkload.append(renamed, 2);
    new GarbageCollector(renamed).collect(Duration.ZERO);
    MosaicTable again = tableWithData("tpch", "orders", 1);
    assertThat(again.latest().tableId()).isNotEqualTo(after.tableId());
    assertThat(renamed.latest().rowGroups()).hasSize(3 * 2);

    assertKind(
        () -> warehouse.rename("archive", "orders_2025", "tpch", "orders"),
        Kind.CONFLICT,
        "table 'tpch.orders' already exists");
    assertKind(
        () -> warehouse.rename("tpch", "nope", "tpch", "x"),
        Kind.NOT_FOUND,
        "no table 'tpch.nope'");
    assertKind(
        () -> warehouse.rename("tpch", "orders", "nope", "x"), Kind.NOT_FOUND, "no namespace");
    assertKind(
        () -> warehouse.rename("tpch", "orders", "tpch", "a/b"),
        Kind.INVALID_ARGUMENT,
        "table name 'a/b' is not allowed");
  }

  private Map<String, Long> segmentFiles(Manifest m) throws IOException {
    Map<String, Long> bytes = new HashMap<>();
    for (SegmentEntry s : m.segments()) {
      bytes.merge(s.device(), Files.size(pool.device(s.device()).resolve(s.path())), Long::sum);
    }
    return bytes;
  }

  /**
   * In one long-lived JVM (this one, with one pool), dropping tables gives the devices their space
   * back: the bytes the writes booked are released, not only deleted from disk. Fails if a drop
   * deletes the segment folders without {@link Device#release}.
   */
  @Test
  void droppingTablesReturnsTheirDeviceSpaceInTheSameJvm() throws IOException {
    Map<String, Long> used = new HashMap<>();
    Map<String, Long> free = new HashMap<>();
    for (Device d : pool.devices()) {
      used.put(d.id(), d.usedBytes());
      free.put(d.id(), d.freeBytes());
    }
    warehouse.createNamespace("tpch");
    tableWithData("tpch", "orders", 3);
    tableWithData("tpch", "lineitem", 2);
    for (Device d : pool.devices()) {
      assertThat(d.usedBytes())
          .as("device %s after the writes", d.id())
          .isGreaterThan(used.get(d.id()));
      assertThat(d.freeBytes()).isLessThan(free.get(d.id()));
    }

    warehouse.drop("tpch", "orders");
    assertThat(pool.devices())
        .allSatisfy(d -> assertThat(d.usedBytes()).isGreaterThan(used.get(d.id())));
    warehouse.dropNamespace("tpch", true);
    for (Device d : pool.devices()) {
      assertThat(d.usedBytes()).as("device %s after the drops", d.id()).isEqualTo(used.get(d.id()));
      assertThat(d.freeBytes()).as("device %s after the drops", d.id()).isEqualTo(free.get(d.id()));
    }
  }

  /**
   * Two pools of one JVM over the same devices (a Trino coordinator's and a worker's connector, the
   * CLI's and Spark's) keep one count per device: a table written through one and dropped through
   * the other leaves both where they started. With a count per pool, the dropping pool would
   * release bytes it never booked and the writing one would keep them booked.
   */
  @Test
  void poolsOfOneJvmShareTheDevicesCount() throws IOException {
    DevicePool other = DevicePool.load(pool.configFile());
    Map<String, Long> used = new HashMap<>();
    for (Device d : pool.devices()) {
      used.put(d.id(), d.usedBytes());
      assertThat(other.device(d.id()).usedBytes()).isEqualTo(used.get(d.id()));
    }
    warehouse.createNamespace("tpch");
    tableWithData("tpch", "orders", 2);
    for (Device d : pool.devices()) {
      assertThat(other.device(d.id()).usedBytes())
          .as("device %s seen through the other pool", d.id())
          .isEqualTo(d.usedBytes())
          .isGreaterThan(used.get(d.id()));
    }
    Warehouse.open(warehouse.root(), other).drop("tpch", "orders");
    for (Device d : pool.devices()) {
      assertThat(d.usedBytes()).as("device %s", d.id()).isEqualTo(used.get(d.id()));
      assertThat(other.device(d.id()).usedBytes()).isEqualTo(used.get(d.id()));
    }
  }

  /** Drop deletes as gc does: a device directory that is not the one loaded stops it first. */
  @Test
  void dropChecksEveryDevicesMarkerBeforeDeletingAnything() throws IOException {
    warehouse.createNamespace("tpch");
    MosaicTable orders = tableWithData("tpch", "orders", 1);
    Path marker = DeviceMarker.file(pool.device("hdd").root());
    String original = Files.readString(marker);
    Files.writeString(marker, original.replaceFirst("uuid = .*", "uuid = " + UUID.randomUUID()));
    assertThatThrownBy(() -> warehouse.drop("tpch", "orders"))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("is not the directory loaded as this device");
    assertThat(warehouse.exists("tpch", "orders")).isTrue();
    assertThat(segmentFiles(orders.latest())).containsOnlyKeys(TestPool.IDS);
    Files.writeString(marker, original);
    warehouse.drop("tpch", "orders");
    assertThat(warehouse.tables("tpch")).isEmpty();
  }

  @Test
  void aWarehouseIsADirectory() throws IOException {
    Path file = Files.writeString(dir.resolve("file"), "x");
    assertKind(() -> Warehouse.open(file, pool), Kind.INVALID_ARGUMENT, "is a file");
    assertThat(Warehouse.open(dir.resolve("new/wh"), pool).namespaces()).isEmpty();
    warehouse.createNamespace("n");
    tableWithData("n", "t", 1);
    assertKind(
        () -> Warehouse.open(warehouse.root().resolve("n/t"), pool),
        Kind.INVALID_ARGUMENT,
        "is a table root");
    assertThat(warehouse.tables("n")).containsExactly("t");
  }
}
