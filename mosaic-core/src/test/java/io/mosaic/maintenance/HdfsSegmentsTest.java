package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Checksums;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.SegmentStamp;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanPlan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.scan.SegmentHosts;
import io.mosaic.scan.SplitTarget;
import io.mosaic.segment.DeviceInputFile;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose root and metadata are on a local metadata device and whose segments are on HDFS
 * devices with the storage policies ALL_SSD, HOT and COLD (docs/format.md, "Storage backends"):
 * written, appended to, read whole and scanned, migrated from SSD to ARCHIVE with every block
 * checked from HDFS's block locations, collected, and cloned to a local and an HDFS root, all
 * through the devices' storages by key; scans planned on it give each split the hosts of the blocks
 * it reads (docs/distributed-storage.md, "Locality").
 */
class HdfsSegmentsTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  private static DistributedFileSystem fs;
  private static String nn;

  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @BeforeAll
  static void connect() throws IOException {
    fs = HDFS.fileSystem();
    nn = HDFS.uri().toString().replaceAll("/$", "");
  }

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private DevicePool pool(String prefix) throws IOException {
    Files.createDirectories(dir.resolve("meta"));
    String toml =
        "[[device]]\nid = \"meta\"\npath = \""
            + dir.resolve("meta")
            + "\"\nmetadata = true\ncapacity = \"1 GB\"\nthreads = 1\ncodec = \"zstd\"\n"
            + "cost_per_gb = \"50 ct\"\n\n"
            + hdfs("ssd", prefix, "ALL_SSD", "zstd", 100)
            + hdfs("hot", prefix, "HOT", "lz4", 20)
            + hdfs("cold", prefix, "COLD", "zstd", 1);
    Path file = dir.resolve("devices.toml");
    Files.writeString(file, toml);
    return DevicePool.load(file, HDFS.conf());
  }

  private static String hdfs(String id, String prefix, String policy, String codec, int cents) {
    return "[[device]]\nid = \""
        + id
        + "\"\nuri = \""
        + nn
        + prefix
        + "/"
        + id
        + "\"\nstorage_policy = \""
        + policy
        + "\"\ncapacity = \"1 GB\"\nthreads = 2\ncodec = \""
        + codec
        + "\"\ncost_per_gb = \""
        + cents
        + " ct\"\n\n";
  }

  /** The storage types of every replica of every block of a segment, from HDFS itself. */
  private static Set<StorageType> blockTypes(Device device, SegmentEntry s) throws IOException {
    org.apache.hadoop.fs.Path file =
        new org.apache.hadoop.fs.Path(device.storage().root().resolve(s.path()));
    FileStatus status = fs.getFileStatus(file);
    BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertThat(blocks).as("blocks of " + file).isNotEmpty();
    return Arrays.stream(blocks)
        .flatMap(b -> Arrays.stream(b.getStorageTypes()))
        .collect(Collectors.toSet());
  }

  private static Map<String, String> footerRecord(Device device, SegmentEntry s)
      throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(DeviceInputFile.direct(device, s.path()))) {
      return reader.getFooter().getFileMetaData().getKeyValueMetaData();
    }
  }

  private static List<List<Object>> scan(DevicePool pool, MosaicTable table) {
    List<List<Object>> rows = new ArrayList<>();
    try (Retriever retriever = new Retriever(pool);
        Scan scan = retriever.scan(table, ScanRequest.of(table.latest().schema().names()))) {
      while (scan.hasNext()) {
        rows.addAll(TableFixtures.values(scan.next()));
      }
    }
    return rows;
  }

  @Test
  void segmentsOnHdfsDevicesAreWrittenReadMigratedToArchiveAndCollected() throws IOException {
    DevicePool pool = pool("/seg");
    TableSchema schema = TpchBatches.ORDERS;
    List<String> ids = List.of("ssd", "hot", "cold");
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, "20000");
    for (int i = 0; i < schema.columns().size(); i++) {
      props.put("column." + schema.columns().get(i).name() + ".device", ids.get(i % 3));
    }
    List<List<Object>> rows = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator()) {
      TpchBatches.orders(0.05, 8192, a, b -> rows.addAll(TableFixtures.values(b)));
    }
    List<List<Object>> first = rows.subList(0, rows.size() / 2);
    List<List<Object>> second = rows.subList(rows.size() / 2, rows.size());
    MosaicTable table =
        TableFixtures.write(dir.resolve("orders"), pool, schema, new ArrayList<>(first), props);
    // The second commit's segments start after the first's row groups: a writer learns that only
    // at commit, which HDFS cannot rewrite in place.
    Manifest written = TableFixtures.appendRows(table, schema, new ArrayList<>(second));
    assertThat(written.segments()).allMatch(s -> !s.device().equals("meta"));
    assertThat(written.segments().stream().map(SegmentEntry::device).distinct())
        .containsExactlyInAnyOrderElementsOf(ids);
    for (SegmentEntry s : written.segments()) {
      Device device = pool.device(s.device());
      assertThat(device.storage().stat(s.path())).as(s.path()).isPresent();
      // Left out where the commit could not correct it; the rest of the record is checked.
      assertThat(footerRecord(device, s))
          .doesNotContainKey(SegmentStamp.FIRST_ROW_GROUP)
          .containsEntry(SegmentStamp.TABLE, written.tableId())
          .containsEntry(SegmentStamp.COLUMN, s.column());
    }
    // Owner files name the local root on every HDFS device the table wrote to.
    for (String id : ids) {
      String owner;
      try (var in =
          fs.open(
              new org.apache.hadoop.fs.Path("/seg/" + id + "/" + written.tableId() + "/_owner"))) {
        owner = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
      assertThat(owner).startsWith(table.root().toRealPath() + "\n");
    }
    assertThat(TableRoundTripTest.rows(table, written, alloc)).isEqualTo(rows);
    assertThat(scan(pool, table)).isEqualTo(rows);

    // o_orderkey (column 0) moves from the SSD device to the COLD one, byte for byte (both zstd);
    // o_custkey (column 1) from HOT (lz4) to COLD, re-encoded.
    String copied = schema.columns().get(0).name();
    String reencoded = schema.columns().get(1).name();
    List<SegmentEntry> old =
        written.segments().stream()
            .filter(s -> s.column().equals(copied) || s.column().equals(reencoded))
            .toList();
    for (SegmentEntry s : old) {
      assertThat(blockTypes(pool.device(s.device()), s))
          .containsOnly(s.device().equals("ssd") ? StorageType.SSD : StorageType.DISK);
    }
    Manifest moved;
    try (TablePin pin = table.pin()) { // keeps the old segments for gc to delete
      Migrator migrator = new Migrator(table);
      moved =
          migrator.apply(
              migrator.plan(Map.of(copied, "cold", reencoded, "cold")), new Migrator.Listener() {});
      for (SegmentEntry s : old) {
        assertThat(pool.device(s.device()).storage().stat(s.path())).isPresent();
      }
    }
    List<SegmentEntry> fresh =
        moved.segments().stream()
            .filter(s -> s.column().equals(copied) || s.column().equals(reencoded))
            .toList();
    assertThat(fresh).isNotEmpty().allMatch(s -> s.device().equals("cold"));
    for (SegmentEntry s : fresh) {
      assertThat(blockTypes(pool.device("cold"), s)).as(s.path()).containsOnly(StorageType.ARCHIVE);
    }
    assertThat(TableRoundTripTest.rows(table, moved, alloc)).isEqualTo(rows);
    assertThat(scan(pool, table)).isEqualTo(rows);

    GarbageCollector.Report report = new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(report.files()).isGreaterThanOrEqualTo(old.size());
    for (SegmentEntry s : old) {
      assertThat(pool.device(s.device()).storage().stat(s.path())).as(s.path()).isEmpty();
    }
    for (SegmentEntry s : table.latest().segments()) {
      assertThat(pool.device(s.device()).storage().stat(s.path())).as(s.path()).isPresent();
    }
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(rows);

    // Space accounting on HDFS devices comes from listing the device's storage.
    long onCold =
        table.latest().segments().stream()
            .filter(s -> s.device().equals("cold"))
            .mapToLong(SegmentEntry::fileBytes)
            .sum();
    assertThat(pool.device("cold").usedBytes()).isGreaterThanOrEqualTo(onCold);

    // Dropping the table deletes its folders on the HDFS devices.
    new GarbageCollector(table).drop();
    for (String id : ids) {
      assertThat(pool.device(id).isFolder(written.tableId())).as(id).isFalse();
    }
  }

  @Test
  void eachSplitCarriesTheHostsOfTheBlocksItReadsFromOneLookupPerFile() throws IOException {
    DevicePool pool = pool("/loc");
    TableSchema schema = TpchBatches.ORDERS;
    List<String> ids = List.of("ssd", "hot", "cold", "meta");
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, "2500");
    for (int i = 0; i < schema.columns().size(); i++) {
      props.put("column." + schema.columns().get(i).name() + ".device", ids.get(i % 4));
    }
    List<List<Object>> rows = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator()) {
      TpchBatches.orders(0.02, 8192, a, b -> rows.addAll(TableFixtures.values(b)));
    }
    MosaicTable table =
        TableFixtures.write(
            dir.resolve("orders"), pool, schema, new ArrayList<>(rows.subList(0, 15000)), props);
    Manifest manifest =
        TableFixtures.appendRows(table, schema, new ArrayList<>(rows.subList(15000, rows.size())));
    List<String> columns = schema.names();
    List<SegmentEntry> onHdfs =
        manifest.segments().stream().filter(s -> !s.device().equals("meta")).toList();
    assertThat(onHdfs.size()).isGreaterThan(schema.columns().size());

    List<ScanPlan> plans = new ArrayList<>();
    Map<String, Long> ops =
        MiniHdfs.operationsOf(
            () ->
                plans.add(
                    ScanPlan.of(
                        table,
                        manifest,
                        columns,
                        Predicate.ALL,
                        "q-loc",
                        SplitTarget.fixed(
                            manifest.segments().stream()
                                    .mapToLong(SegmentEntry::compressedBytes)
                                    .sum()
                                / 5))));
    ScanPlan plan = plans.get(0);
    assertThat(plan.splits()).hasSizeGreaterThan(2);
    // One block lookup per segment file on HDFS, however many splits read it.
    assertThat(ops).isEqualTo(Map.of("op_get_file_block_locations", (long) onHdfs.size()));
    for (ScanPlan.Split split : plan.splits()) {
      assertThat(split.hosts())
          .as("hosts of rows groups [%d, %d)", split.fromRowGroup(), split.toRowGroup())
          .isNotEmpty()
          .hasSizeLessThanOrEqualTo(3)
          .doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(
              SegmentHosts.of(
                  fs, pool, manifest, columns, split.fromRowGroup(), split.toRowGroup()));
    }
    // Columns on the local device alone: no hosts.
    List<String> local =
        manifest.segments().stream()
            .filter(s -> s.device().equals("meta"))
            .map(SegmentEntry::column)
            .distinct()
            .toList();
    assertThat(local).isNotEmpty();
    assertThat(
            ScanPlan.of(table, manifest, local, Predicate.ALL, "q-local", SplitTarget.fixed(1))
                .splits())
        .hasSizeGreaterThan(1)
        .allSatisfy(s -> assertThat(s.hosts()).isEmpty());
  }

  /**
   * {@code mosaic clone} of a table whose segments are on an HDFS device (docs/format.md,
   * "Layout"): the copies record the clone's table id as they are written, since HDFS cannot
   * correct them in place; to a local root and to a root on HDFS, which then uses the lock-free
   * protocol. A clone that fails leaves nothing on the new root or the devices, and the source
   * reads as before.
   */
  @Test
  void aTableOnHdfsDevicesClonesToALocalAndAnHdfsRoot() throws IOException {
    DevicePool pool = pool("/clone");
    TableSchema schema = TpchBatches.ORDERS;
    Map<String, String> props = new HashMap<>();
    for (int i = 0; i < schema.columns().size(); i++) {
      props.put(
          "column." + schema.columns().get(i).name() + ".device", i % 2 == 0 ? "hot" : "meta");
    }
    List<List<Object>> rows = new ArrayList<>();
    try (BufferAllocator a = new RootAllocator()) {
      TpchBatches.orders(0.01, 8192, a, b -> rows.addAll(TableFixtures.values(b)));
    }
    MosaicTable table = TableFixtures.write(dir.resolve("src"), pool, schema, rows, props);
    String sourceId = table.latest().tableId();

    TableCloner.Result local =
        TableCloner.cloneTable(table, dir.resolve("copy"), new TableCloner.Listener() {});
    String remote = nn + "/clone/tables/orders";
    TableCloner.Result onHdfs =
        TableCloner.cloneTable(local.table(), remote, new TableCloner.Listener() {});
    assertThat(onHdfs.table().lockFree()).isTrue();
    MosaicTable reopened = MosaicTable.open(remote, pool);
    for (TableCloner.Result r : List.of(local, onHdfs)) {
      Manifest m = r.manifest();
      assertThat(m.tableId()).isNotIn(sourceId, table.latest().tableId());
      assertThat(m.segments())
          .hasSameSizeAs(table.latest().segments())
          .allSatisfy(
              s -> {
                assertThat(footerRecord(pool.device(s.device()), s))
                    .containsEntry(SegmentStamp.TABLE, m.tableId());
                assertThat(Checksums.ofFile(pool.device(s.device()), s.path()))
                    .isEqualTo(s.checksum());
              });
      assertThat(m.segments()).extracting(SegmentEntry::device).contains("hot", "meta");
    }
    assertThat(local.manifest().tableId()).isNotEqualTo(onHdfs.manifest().tableId());
    assertThat(TableRoundTripTest.rows(reopened, reopened.latest(), alloc)).isEqualTo(rows);
    assertThat(TableRoundTripTest.rows(local.table(), local.manifest(), alloc)).isEqualTo(rows);
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/clone/tables/orders/_manifests")))
        .isTrue();

    // A clone stopped mid-way, without its undo, as a kill stops it: the source is as it was, the
    // new root holds no rows (its one commit never happened), and dropping it removes the copies
    // (gc would too, once the clone's writer lease has expired).
    String stopped = nn + "/clone/tables/stopped";
    class Stop extends Error {}
    assertThatThrownBy(
            () ->
                TableCloner.cloneTable(
                    table,
                    stopped,
                    new TableCloner.Listener() {
                      @Override
                      public void copied(SegmentEntry segment, long bytes) {
                        if (segment.device().equals("hot")) {
                          throw new Stop();
                        }
                      }
                    }))
        .isInstanceOf(Stop.class);
    MosaicTable half = MosaicTable.open(stopped, pool);
    assertThat(half.latest().rowCount()).isZero();
    assertThat(half.latest().segments()).isEmpty();
    String halfId = half.latest().tableId();
    assertThat(pool.device("hot").files(halfId)).hasSizeGreaterThan(1); // _owner and a copy
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(rows);
    new GarbageCollector(half).drop();
    assertThat(pool.device("hot").isFolder(halfId)).isFalse();
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/clone/tables/stopped"))).isFalse();

    // A damaged source segment: the clone fails its checksum and leaves nothing behind.
    SegmentEntry victim =
        table.latest().segments().stream()
            .filter(s -> s.device().equals("hot"))
            .findFirst()
            .orElseThrow();
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/clone/hot/" + victim.path());
    byte[] bytes;
    try (var in = fs.open(file)) {
      bytes = in.readAllBytes();
    }
    bytes[4] ^= 1;
    try (var out = fs.create(file, true)) {
      out.write(bytes);
    }
    String failed = nn + "/clone/tables/failed";
    assertThatThrownBy(() -> TableCloner.cloneTable(table, failed, new TableCloner.Listener() {}))
        .hasMessageContaining("fails its checksum")
        .hasMessageContaining("nothing was cloned");
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/clone/tables/failed"))).isFalse();
    assertThat(pool.device("hot").storage().list(""))
        .extracting(s -> s.name())
        .containsExactlyInAnyOrder(
            ".mosaic-device", sourceId, local.manifest().tableId(), onHdfs.manifest().tableId());
    // A non-empty folder is refused before anything is made.
    assertThatThrownBy(
            () -> TableCloner.cloneTable(table, nn + "/clone", new TableCloner.Listener() {}))
        .hasMessageContaining("not empty");
  }
}
