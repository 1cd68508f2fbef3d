package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.MosaicException;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceMarker;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestMutations;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.CrashWorkload;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gc deletes only what it can prove is its own (docs/format.md, "Devices, owners and what gc
 * refuses"): renamed or aliased devices, crafted table ids and segment paths, and copied table
 * roots never make it delete another device's, another table's or a live version's files. Each test
 * is one of the reported defects; {@code clone} is the proper way to copy a table.
 */
class GcIdentityTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private List<List<Object>> rows(MosaicTable table) throws IOException {
    return TableRoundTripTest.rows(table, table.latest(), alloc);
  }

  private static List<Path> files(DevicePool pool, Manifest m) {
    return m.segments().stream().map(s -> pool.device(s.device()).resolve(s.path())).toList();
  }

  /** {@code cp -a from to}: a copy of a table root as a person makes it. */
  private static void copyWithCp(Path from, Path to) throws Exception {
    Process cp =
        new ProcessBuilder("cp", "-a", from.toString(), to.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(cp.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(cp.exitValue()).isZero();
  }

  /** A file gc would take for garbage: old enough for any grace. */
  private static Path oldFile(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, "not Mosaic's");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
    return file;
  }

  /**
   * Publishes version {@code latest + 1} with the latest version's body edited as {@code edit}
   * says, with a valid checksum (the format of docs/format.md), as a crafted manifest would be.
   */
  static Path craft(MosaicTable table, UnaryOperator<String> edit) throws IOException {
    long version = table.latest().version();
    String text = Files.readString(table.manifestFile(version), StandardCharsets.UTF_8);
    int at = text.indexOf(",\"manifest\":") + ",\"manifest\":".length();
    String body = text.substring(at, text.length() - 2);
    body =
        edit.apply(
            body.replaceFirst(
                "\"version\"\\s*:\\s*" + version + ",", "\"version\" : " + (version + 1) + ","));
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    String file =
        "{\"format\":\"mosaic-manifest\",\"formatVersion\":1,\"crc32c\":\""
            + String.format(Locale.ROOT, "%08x", crc.getValue())
            + "\",\"manifest\":"
            + body
            + "}\n";
    Path path = table.manifestFile(version + 1);
    Files.writeString(path, file, StandardCharsets.UTF_8);
    return path;
  }

  /** {@link #craft} with no edit makes a valid next version: the crafted ones differ only so. */
  private static void checkCraft(MosaicTable table) throws IOException {
    long version = table.latest().version();
    Path same = craft(table, body -> body);
    assertThat(table.latest().version()).isEqualTo(version + 1);
    Files.delete(same);
  }

  private static Path devicesToml(Path dir) {
    return dir.resolve("devices.toml");
  }

  @Test
  void aRenamedDeviceIsRefusedAndGcNeverTakesItsSegmentsForGarbage() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest latest = table.latest();
    assertThat(latest.segments()).anyMatch(s -> s.device().equals("ssd"));
    Path config = devicesToml(dir);
    Files.writeString(config, Files.readString(config).replace("id = \"ssd\"", "id = \"fast\""));

    assertThatThrownBy(() -> DevicePool.load(config))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("device 'fast' field 'id': bad value \"fast\": directory \"")
        .hasMessageContaining("devices/ssd\" is device 'ssd' (its marker ")
        .hasMessageContaining("set id = \"ssd\" again");

    // A directory set up before devices had markers: the renamed pool loads, but gc refuses to
    // run, since the latest version stores columns on a device ('ssd') the pool does not have.
    Files.delete(DeviceMarker.file(pool.device("ssd").root()));
    DevicePool renamed = DevicePool.load(config);
    MosaicTable same = MosaicTable.open(table.root(), renamed);
    Throwable refused = catchThrowable(() -> new GarbageCollector(same).collect(Duration.ZERO));
    assertThat(files(pool, latest)).allMatch(Files::exists);
    assertThat(refused)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("gc of table t refused: version v" + latest.version())
        .hasMessageContaining("on device 'ssd', which " + config + " does not define")
        .hasMessageContaining("nothing was deleted");
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 1));
  }

  @Test
  void devicesOnOneDirectoryThroughASymlinkOrNestedAreRefused() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Path config = devicesToml(dir);
    String four = Files.readString(config);
    Files.createSymbolicLink(dir.resolve("devices/alias"), dir.resolve("devices/ssd"));
    String alias =
        "[[device]]\nid = \"alias\"\npath = \"devices/alias\"\ncapacity = \"1 GB\"\nthreads = 1\n"
            + "codec = \"lz4\"\ncost_per_gb = \"1 ct\"\nemulate = { read = \"1 GB/s\" }\n";
    Files.writeString(config, four + alias);
    assertThatThrownBy(() -> DevicePool.load(config))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining(
            "device 'alias' field 'path': bad value \""
                + dir.resolve("devices/alias")
                + "\": the same directory as device 'ssd' (\""
                + dir.resolve("devices/ssd")
                + "\") once symlinks are followed")
        .hasMessageContaining("give each device its own directory");

    Files.writeString(config, four + alias.replace("devices/alias", "devices/nvme/inner"));
    assertThatThrownBy(() -> DevicePool.load(config))
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("device 'alias' field 'path'")
        .hasMessageContaining("inside the directory of device 'nvme'");
    assertThat(files(pool, table.latest())).allMatch(Files::exists);
  }

  @Test
  void gcRefusesADeviceWhoseDirectoryChangedSinceThePoolWasLoaded() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    String id = table.latest().tableId();
    Path garbage = oldFile(pool.device("hdd").root().resolve(id + "/3/w0-0.parquet"));
    // Another directory now sits at the device's path (a remount): its marker is another one.
    Path marker = DeviceMarker.file(pool.device("hdd").root());
    Files.writeString(
        marker, Files.readString(marker).replaceFirst("uuid = .*", "uuid = " + UUID.randomUUID()));
    Throwable refused = catchThrowable(() -> new GarbageCollector(table).collect(Duration.ZERO));
    assertThat(garbage).exists();
    assertThat(refused)
        .isInstanceOf(DeviceConfigException.class)
        .hasMessageContaining("device 'hdd' field 'path'")
        .hasMessageContaining("is not the directory loaded as this device")
        .hasMessageContaining("Nothing was deleted there");
    assertThat(DevicePool.load(devicesToml(dir)).device("hdd").identity())
        .isNotEqualTo(pool.device("hdd").identity());
  }

  @Test
  void craftedTableIdsNeverLeadGcOutOfTheTable() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest good = table.latest();
    Path outside = oldFile(dir.resolve("outside.txt"));
    Path besideDevices = oldFile(dir.resolve("devices/victim.bin"));
    Path mid = oldFile(dir.resolve("devices/mid/victim.parquet"));
    Path config = oldFile(dir.resolve("devices.toml.bak"));
    checkCraft(table);
    for (String id : List.of("..", "../mid", "../..", "")) {
      Path crafted = craft(table, body -> body.replace(good.tableId(), id));
      Throwable refused = catchThrowable(() -> new GarbageCollector(table).collect(Duration.ZERO));
      assertThat(List.of(outside, besideDevices, mid, config)).allMatch(Files::exists);
      assertThat(files(pool, good)).as("table id '%s'", id).allMatch(Files::exists);
      assertThat(refused).as("table id '%s'", id).isInstanceOf(CorruptTableException.class);
      Files.delete(crafted);
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 1));
  }

  @Test
  void nonCanonicalSegmentPathsMakeGcRefuseInsteadOfDeletingLiveFiles() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest good = table.latest();
    String path = good.segments().get(0).path(); // <id>/0/<writer>-0.parquet
    String id = good.tableId();
    String rest = path.substring(id.length() + 1);
    checkCraft(table);
    for (String crafted :
        List.of("./" + path, id + "//" + rest, id + "/0/../" + rest, id + "/./" + rest)) {
      Path file = craft(table, body -> body.replace("\"" + path + "\"", "\"" + crafted + "\""));
      Throwable refused = catchThrowable(() -> new GarbageCollector(table).collect(Duration.ZERO));
      assertThat(files(pool, good)).as("path '%s'", crafted).allMatch(Files::exists);
      assertThat(refused).as("path '%s'", crafted).isInstanceOf(CorruptTableException.class);
      Files.delete(file);
    }
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 1));
  }

  @Test
  void aMigrationNeverDeletesAnOldSegmentOutsideTheTable() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    Manifest good = table.latest();
    SegmentEntry s = good.segmentsOf("s").get(0);
    Device raid = pool.device(s.device());
    // Another table's file, with the same bytes, reached through '..' from the table's folder.
    Path victim = raid.root().resolve("other/victim.parquet");
    Files.createDirectories(victim.getParent());
    Files.copy(raid.resolve(s.path()), victim);
    String crafted = good.tableId() + "/../other/victim.parquet";
    checkCraft(table);
    craft(table, body -> body.replace("\"" + s.path() + "\"", "\"" + crafted + "\""));
    Migrator migrator = new Migrator(table);
    try {
      migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {});
    } catch (CorruptTableException e) {
      // a manifest checked on load is refused before anything moves: as good
    }
    assertThat(victim).exists();
    assertThat(raid.resolve(s.path())).exists();
  }

  @Test
  void gcNeverDeletesThroughSymlinksOutOfTheTableFolder() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    String id = table.latest().tableId();
    Device nvme = pool.device("nvme");
    Path outside = oldFile(dir.resolve("outside/w1-0.parquet"));
    Files.createSymbolicLink(nvme.root().resolve(id + "/7"), outside.getParent());
    Files.createSymbolicLink(nvme.root().resolve(id + "/w2-0.parquet"), outside);
    String fake = UUID.randomUUID().toString();
    Files.createSymbolicLink(nvme.root().resolve(fake), outside.getParent());

    assertThat(TableFolders.deletable(nvme, id, id + "/7/w1-0.parquet")).isFalse();
    assertThat(TableFolders.deletable(nvme, fake, fake + "/w1-0.parquet")).isFalse();
    assertThat(TableFolders.deletable(nvme, id, id + "/" + TableFolders.OWNER)).isFalse();
    assertThat(TableFolders.deletable(nvme, id, "/" + outside)).isFalse();
    Path garbage = oldFile(nvme.root().resolve(id + "/0/w3-0.parquet"));
    assertThat(TableFolders.deletable(nvme, id, id + "/0/w3-0.parquet")).isTrue();
    assertThat(garbage).exists();

    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(outside).exists();
    assertThat(garbage).doesNotExist();
    assertThat(nvme.root().resolve(id).resolve(TableFolders.OWNER)).exists();
  }

  @Test
  void aCopiedTableRootIsRefusedAndTheOriginalKeepsItsFiles() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Path tables = dir.resolve("tables");
    MosaicTable orders = CrashWorkload.table(tables.resolve("orders"), pool, 2);
    Path backupRoot = tables.resolve("orders_backup");
    copyWithCp(orders.root(), backupRoot);
    // The original goes on: its newest version refers to segments the copy knows nothing of.
    CrashWorkload.append(orders, 2);
    Manifest newest = orders.latest();

    MosaicTable backup = MosaicTable.open(backupRoot, pool);
    Throwable refused = catchThrowable(() -> new GarbageCollector(backup).collect(Duration.ZERO));
    assertThat(files(pool, newest)).allMatch(Files::exists);
    assertThat(refused)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(
            "table root "
                + backupRoot.toRealPath()
                + " and table root "
                + orders.root().toRealPath()
                + " are the same table (id "
                + newest.tableId()
                + ")")
        .hasMessageContaining("looks like a copy of")
        .hasMessageContaining("clone " + orders.root().toRealPath() + " (docs/format.md)");
    assertThatThrownBy(() -> CrashWorkload.append(backup, 3))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("looks like a copy of");
    Migrator migrator = new Migrator(backup);
    assertThatThrownBy(
            () -> migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {}))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("looks like a copy of");
    assertThat(rows(orders)).isEqualTo(CrashWorkload.rows(0, 1, 2));
    new GarbageCollector(orders).collect(Duration.ZERO);
    assertThat(rows(orders)).isEqualTo(CrashWorkload.rows(0, 1, 2));

    // A moved root adopts its folders (mosaic adopt), and is then the table in full; the copy is
    // still refused, now as a copy of the moved root.
    Path moved = tables.resolve("orders_moved");
    Files.move(orders.root(), moved);
    MosaicTable renamed = MosaicTable.open(moved, pool);
    assertThat(TableFolders.adopt(renamed, previous -> true).adopted()).isNotEmpty();
    assertThatThrownBy(() -> CrashWorkload.append(backup, 3))
        .hasMessageContaining("looks like a copy of " + moved.toRealPath());
    CrashWorkload.append(renamed, 3);
    new GarbageCollector(renamed).collect(Duration.ZERO);
    assertThat(rows(renamed)).isEqualTo(CrashWorkload.rows(0, 1, 2, 3));
    assertThat(
            Files.readString(
                pool.device("nvme").root().resolve(newest.tableId()).resolve(TableFolders.OWNER)))
        .isEqualTo(
            moved.toRealPath()
                + "\ninode="
                + Files.getAttribute(moved.toRealPath(), "unix:ino")
                + "\n");
  }

  /**
   * {@code mv t t2; cp -a t2 t3}: the owner files name t, which is gone, so neither root can show
   * it is the table, and a copy taking the folders over would delete the segments t2's newest
   * version names. Every write and deletion through either is refused, naming adopt and clone,
   * until the moved root adopts its folders; the copy stays refused after that.
   */
  @Test
  void aCopyOfAMovedRootIsRefusedUntilTheMovedRootAdoptsItsFolders() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Path tables = dir.resolve("tables");
    MosaicTable t = CrashWorkload.table(tables.resolve("t"), pool, 2);
    Path originalRoot = t.root().toRealPath();
    Path t2 = tables.resolve("t2");
    Files.move(t.root(), t2);
    Path t3 = tables.resolve("t3");
    copyWithCp(t2, t3);
    MosaicTable moved = MosaicTable.open(t2, pool);
    MosaicTable copy = MosaicTable.open(t3, pool);
    Manifest newest = moved.latest();

    for (MosaicTable root : List.of(copy, moved)) {
      Migrator migrator = new Migrator(root);
      List<ThrowingCallable> writes =
          List.of(
              () -> migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {}),
              () -> new GarbageCollector(root).collect(Duration.ZERO),
              () -> CrashWorkload.append(root, 2),
              () -> new GarbageCollector(root).drop());
      for (ThrowingCallable write : writes) {
        assertThatThrownBy(write)
            .isInstanceOf(CorruptTableException.class)
            .hasMessageContaining("does not own its segment folder")
            .hasMessageContaining("names " + originalRoot + ", and no table is there any more")
            .hasMessageContaining("mosaic adopt --devices D --table " + root.root().toRealPath())
            .hasMessageContaining("mosaic clone");
      }
      assertThat(files(pool, newest)).allMatch(Files::exists);
      assertThat(rows(root)).isEqualTo(CrashWorkload.rows(0, 1)); // reads are not refused
    }

    TableFolders.Adoption adoption = TableFolders.adopt(moved, previous -> true);
    assertThat(adoption.from()).containsExactly(originalRoot.toString());
    assertThat(adoption.adopted()).isNotEmpty();
    assertThatThrownBy(() -> TableFolders.adopt(copy, previous -> true))
        .hasMessageContaining("looks like a copy of " + t2.toRealPath());
    Migrator migrator = new Migrator(copy);
    assertThatThrownBy(
            () -> migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {}))
        .hasMessageContaining("looks like a copy of " + t2.toRealPath());
    assertThat(files(pool, newest)).allMatch(Files::exists);

    // The moved table is whole again: it migrates, collects and takes writes.
    Migrator own = new Migrator(moved);
    own.apply(own.plan(Map.of("s", "hdd")), new Migrator.Listener() {});
    CrashWorkload.append(moved, 2);
    new GarbageCollector(moved).collect(Duration.ZERO);
    assertThat(rows(moved)).isEqualTo(CrashWorkload.rows(0, 1, 2));
    new GarbageCollector(copy).drop(); // a copy of a live table loses only its root
    assertThat(t3).doesNotExist();
    assertThat(rows(moved)).isEqualTo(CrashWorkload.rows(0, 1, 2));
  }

  /**
   * {@code mv t t2; cp -a t2 t}: the copy stands at the path the owner files name, but it is not
   * the directory they recorded (its inode differs), so it is refused like any copy of a moved
   * root, and so is t2 until it adopts its folders.
   */
  @Test
  void aCopyPutAtTheMovedRootsOldPathIsNotTakenForTheOwner() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Path tables = dir.resolve("tables");
    MosaicTable t = CrashWorkload.table(tables.resolve("t"), pool, 2);
    Path t2 = tables.resolve("t2");
    Files.move(t.root(), t2);
    copyWithCp(t2, t.root());
    MosaicTable moved = MosaicTable.open(t2, pool);
    MosaicTable copy = MosaicTable.open(t.root(), pool);
    Manifest newest = moved.latest();
    for (MosaicTable root : List.of(copy, moved)) {
      Migrator migrator = new Migrator(root);
      assertThatThrownBy(
              () -> migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {}))
          .isInstanceOf(CorruptTableException.class)
          .hasMessageContaining("does not own its segment folder")
          .hasMessageContaining("the directory there is not the one recorded (inode");
    }
    assertThat(files(pool, newest)).allMatch(Files::exists);

    TableFolders.adopt(moved, previous -> true);
    Migrator migrator = new Migrator(copy);
    assertThatThrownBy(
            () -> migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {}))
        .hasMessageContaining("looks like a copy of " + t2.toRealPath());
    new GarbageCollector(moved).collect(Duration.ZERO);
    assertThat(rows(moved)).isEqualTo(CrashWorkload.rows(0, 1));
  }

  /**
   * DROP TABLE (Spark's catalog, Trino's metadata) goes through {@link MosaicTable#drop}: in a
   * long-lived JVM the devices' free space comes back, and dropping a cp copy of a table root
   * leaves the original's segments alone.
   */
  @Test
  void dropReleasesDeviceSpaceAndDroppingACopyKeepsTheOriginal() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Path tables = dir.resolve("tables");
    MosaicTable orders = CrashWorkload.table(tables.resolve("orders"), pool, 2);
    MosaicTable other = CrashWorkload.table(tables.resolve("other"), pool, 1);
    java.util.Map<String, Long> before = new java.util.HashMap<>();
    pool.devices().forEach(d -> before.put(d.id(), d.usedBytes()));
    java.util.Map<String, Long> held = new java.util.HashMap<>();
    other.latest().segments().forEach(s -> held.merge(s.device(), s.fileBytes(), Long::sum));

    String otherId = other.latest().tableId();
    new GarbageCollector(other).drop();
    assertThat(MosaicTable.exists(other.root())).isFalse();
    assertThat(Files.exists(other.root())).isFalse();
    for (io.mosaic.device.Device d : pool.devices()) {
      assertThat(d.root().resolve(otherId)).doesNotExist();
      assertThat(d.usedBytes())
          .as("device %s after the drop", d.id())
          .isEqualTo(before.get(d.id()) - held.getOrDefault(d.id(), 0L));
    }
    assertThat(held.values().stream().mapToLong(Long::longValue).sum()).isPositive();

    Path backupRoot = tables.resolve("orders_backup");
    copyWithCp(orders.root(), backupRoot);
    new GarbageCollector(MosaicTable.open(backupRoot, pool)).drop();
    assertThat(Files.exists(backupRoot)).isFalse();
    assertThat(files(pool, orders.latest())).allMatch(Files::exists);
    assertThat(rows(orders)).isEqualTo(CrashWorkload.rows(0, 1));
  }

  @Test
  void aCloneHasItsOwnIdAndSegmentsAndGcOfEitherLeavesTheOtherReadable() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable orders = CrashWorkload.table(dir.resolve("orders"), pool, 3);
    Manifest source = orders.latest();
    TableCloner.Result result =
        TableCloner.cloneTable(orders, dir.resolve("orders_clone"), new TableCloner.Listener() {});
    MosaicTable clone = result.table();
    Manifest copied = clone.latest();
    assertThat(copied).isEqualTo(result.manifest());
    assertThat(copied.tableId()).isNotEqualTo(source.tableId());
    assertThat(copied.operation()).isEqualTo("clone");
    assertThat(copied.version()).isEqualTo(2);
    assertThat(result.bytes())
        .isEqualTo(source.segments().stream().mapToLong(SegmentEntry::fileBytes).sum());
    assertThat(copied.rowGroups()).isEqualTo(source.rowGroups());
    for (int i = 0; i < source.segments().size(); i++) {
      SegmentEntry from = source.segments().get(i);
      SegmentEntry to = copied.segments().get(i);
      assertThat(to.device()).isEqualTo(from.device());
      assertThat(to.path()).startsWith(copied.tableId() + "/");
      // A byte-for-byte copy but for the table id the copy records (SegmentStamp).
      byte[] copy = Files.readAllBytes(pool.device(to.device()).resolve(to.path()));
      assertThat(to.checksum()).isEqualTo(crc(copy));
      assertThat(new String(copy, StandardCharsets.ISO_8859_1))
          .isEqualTo(
              new String(
                      Files.readAllBytes(pool.device(from.device()).resolve(from.path())),
                      StandardCharsets.ISO_8859_1)
                  .replace(source.tableId(), copied.tableId()));
    }
    assertThat(rows(clone)).isEqualTo(CrashWorkload.rows(0, 1, 2));

    // Each one changes and collects with no grace; the other reads what it had.
    Migrator migrator = new Migrator(orders);
    migrator.apply(migrator.plan(Map.of("s", "hdd", "k", "raid")), new Migrator.Listener() {});
    CrashWorkload.append(orders, 3);
    new GarbageCollector(orders).collect(Duration.ZERO);
    assertThat(rows(clone)).isEqualTo(CrashWorkload.rows(0, 1, 2));
    CrashWorkload.append(clone, 4);
    new GarbageCollector(clone).collect(Duration.ZERO);
    assertThat(rows(orders)).isEqualTo(CrashWorkload.rows(0, 1, 2, 3));
    assertThat(rows(clone)).isEqualTo(CrashWorkload.rows(0, 1, 2, 4));

    assertThatThrownBy(
            () -> TableCloner.cloneTable(clone, orders.root(), new TableCloner.Listener() {}))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.INVALID_ARGUMENT)
        .hasMessageContaining("a Mosaic table already exists there");
  }

  private static String crc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return String.format(Locale.ROOT, "crc32c:%08x", crc.getValue());
  }

  @Test
  void aKeptVersionNamingASegmentOnTheWrongDeviceStopsGcBeforeItDeletesTheRealFile()
      throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest good = table.latest();
    SegmentEntry s = good.segments().get(0);
    String wrong =
        List.of(TestPool.IDS).stream().filter(d -> !d.equals(s.device())).findFirst().get();
    Path real = pool.device(s.device()).resolve(s.path());
    Manifest bad =
        ManifestMutations.publishNext(
            table, m -> ((ObjectNode) m.get("segments").get(0)).put("device", wrong));

    Throwable refused = catchThrowable(() -> new GarbageCollector(table).collect(Duration.ZERO));
    assertThat(real).exists();
    assertThat(table.versions()).contains(good.version()); // the way back is kept
    assertThat(refused)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(
            "gc of table t refused: version v"
                + bad.version()
                + ", which is kept, names segment "
                + s.path()
                + " of column "
                + s.column())
        .hasMessageContaining(
            "on device '"
                + wrong
                + "' as "
                + pool.device(wrong).resolve(s.path())
                + ", which is not there (a file of that path is on device '"
                + s.device()
                + "')")
        .hasMessageContaining("Nothing was deleted: correct the manifest, or roll back");
    assertThat(MosaicException.Kind.CORRUPT).isEqualTo(((MosaicException) refused).kind());

    // The fix the message gives: roll back; gc then runs and every row is there.
    table.rollback(good.version());
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(real).exists();
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 1));
  }

  @Test
  void aKeptVersionWhoseSegmentsAreNotTheFilesItNamesStopsGc() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest good = table.latest();
    List<SegmentEntry> v = good.segmentsOf("v");
    // The two segments of v exchange their row groups; each keeps its own file's statistics.
    Manifest bad =
        ManifestMutations.publishNext(
            table,
            m -> {
              for (var node : m.get("segments")) {
                if (node.get("column").textValue().equals("v")) {
                  int first = node.get("firstRowGroup").intValue();
                  ((ObjectNode) node)
                      .put(
                          "firstRowGroup",
                          first == v.get(0).firstRowGroup()
                              ? v.get(1).firstRowGroup()
                              : v.get(0).firstRowGroup());
                }
              }
            });
    Throwable refused = catchThrowable(() -> new GarbageCollector(table).collect(Duration.ZERO));
    assertThat(table.versions()).contains(good.version());
    assertThat(refused)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("gc of table t refused: version v" + bad.version())
        .hasMessageContaining("which is not the file the manifest describes")
        .hasMessageContaining("its own metadata says it holds table row groups")
        .hasMessageContaining("Nothing was deleted");

    // A size the file does not have is refused too.
    table.rollback(good.version());
    Manifest sized =
        ManifestMutations.publishNext(
            table,
            m ->
                ((ObjectNode) m.get("segments").get(1))
                    .put("fileBytes", good.segments().get(1).fileBytes() + 1));
    assertThat(catchThrowable(() -> new GarbageCollector(table).collect(Duration.ZERO)))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("gc of table t refused: version v" + sized.version())
        .hasMessageContaining(
            "the file is "
                + good.segments().get(1).fileBytes()
                + " bytes, the manifest says "
                + (good.segments().get(1).fileBytes() + 1));
    table.rollback(good.version());
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(files(pool, table.latest())).allMatch(Files::exists);
    assertThat(rows(table)).isEqualTo(CrashWorkload.rows(0, 1));
  }
}
