package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.ManifestFile;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.Migrator;
import io.mosaic.warehouse.Warehouse;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: each a clear error naming table, file and device; committed data is never lost. */
class TableErrorsTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();
  private DevicePool pool;
  private MosaicTable table;
  private List<List<Object>> expected;

  @BeforeEach
  void writeOrders() throws IOException {
    pool = TestPool.fourDevices(dir);
    expected = new ArrayList<>();
    table = TableFixtures.orders(dir.resolve("orders"), pool, 0.01, expected);
  }

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private Path segmentFile(String column) {
    SegmentEntry s = table.latest().segmentsOf(column).get(0);
    return pool.device(s.device()).resolve(s.path());
  }

  @Test
  void unknownTableAndTableNamesThatEscape() {
    assertThatThrownBy(() -> MosaicTable.open(dir.resolve("nope"), pool))
        .isInstanceOf(TableNotFoundException.class)
        .hasMessage(
            "no Mosaic table at "
                + dir.resolve("nope")
                + " (no _manifests directory); check the"
                + " path, or create the table first");
    assertThatThrownBy(() -> Warehouse.checkName("table", "../etc"))
        .hasMessageStartingWith("table name '../etc' is not allowed: use letters, digits");
    assertThatThrownBy(() -> Warehouse.checkName("table", "a/b"))
        .hasMessageContaining("without '/' or '..'");
    Warehouse.checkName("table", "lineitem_2");
    assertThatThrownBy(
            () -> MosaicTable.create(dir.resolve("orders"), pool, TpchBatches.ORDERS, Map.of()))
        .hasMessage("a Mosaic table already exists at " + dir.resolve("orders"));
  }

  /** A per-column property for a column the table lacks would be kept and do nothing. */
  @Test
  void perColumnPropertiesMustNameAColumn() {
    Path root = dir.resolve("typo");
    for (String key : List.of("column.o_coment.device", "column.o_coment.codec")) {
      assertThatThrownBy(
              () ->
                  MosaicTable.create(
                      root,
                      pool,
                      TpchBatches.ORDERS,
                      Map.of(key, key.endsWith("codec") ? "lz4" : "hdd")))
          .isInstanceOf(io.mosaic.MosaicException.class)
          .hasMessageStartingWith(
              "table property " + key + " of the new table " + root + " names no column of it;")
          .hasMessageContaining("o_comment");
    }
    assertThat(MosaicTable.exists(root)).isFalse();
  }

  @Test
  void nestedAndUnsupportedTypesAreRefusedAtCreateTime() {
    Field list =
        new Field(
            "tags",
            FieldType.nullable(new ArrowType.List()),
            List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE)));
    assertThatThrownBy(() -> TableSchema.fromArrow(new Schema(List.of(list))))
        .hasMessageStartingWith("column 'tags' is nested (List); Mosaic stores flat columns only:");
    Field unsigned = Field.nullable("u", new ArrowType.Int(32, false));
    assertThatThrownBy(() -> TableSchema.fromArrow(new Schema(List.of(unsigned))))
        .hasMessageStartingWith("column 'u' has type Int(32, false), which Mosaic cannot store;");
  }

  @Test
  void schemaMismatchOnAppend() throws IOException {
    TableSchema other = TpchBatches.schema("o_orderkey int64", "o_comment string");
    try (TableWriter writer = table.newWriter();
        var batch = org.apache.arrow.vector.VectorSchemaRoot.create(other.arrowSchema(), alloc)) {
      batch.setRowCount(0);
      assertThatThrownBy(() -> writer.write(batch))
          .hasMessageStartingWith("schema mismatch writing to table orders: the batch has [");
    }
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);
  }

  @Test
  void missingSegmentAndMissingDeviceAreNamed() throws IOException {
    Path file = segmentFile("o_comment");
    Path moved = dir.resolve("aside.parquet");
    Files.move(file, moved);
    String device = table.latest().segmentsOf("o_comment").get(0).device();
    assertThatThrownBy(() -> TableRoundTripTest.rows(table, table.latest(), alloc))
        .isInstanceOf(CorruptTableException.class)
        .hasMessage(
            "segment of column 'o_comment' of table orders is missing: "
                + file
                + " on device '"
                + device
                + "'");
    Files.move(moved, file);
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);

    Path root = pool.device("ssd").root();
    Path aside = dir.resolve("ssd-unmounted");
    Files.move(root, aside);
    assertThatThrownBy(() -> TableRoundTripTest.rows(table, table.latest(), alloc))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("on device 'ssd' (the device directory itself is gone)");
    Files.move(aside, root);
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);
  }

  /**
   * A scan checks each chunk it reads against the manifest's chunk checksum, which covers what
   * Parquet's page checksums leave out: here a page header's first byte. Segments without chunk
   * checksums (older manifests) still read.
   */
  @Test
  void aScanChecksEachChunkItReads() throws IOException {
    SegmentEntry segment = table.latest().segmentsOf("o_comment").get(0);
    assertThat(segment.chunkChecksums()).hasSize(segment.rowGroupCount());
    Path file = pool.device(segment.device()).resolve(segment.path());
    byte[] original = Files.readAllBytes(file);
    try (io.mosaic.scan.Retriever retriever = new io.mosaic.scan.Retriever(pool, 1, 0)) {
      original[4] ^= 0x01; // the first page header of row group 0's chunk
      Files.write(file, original);
      assertThatThrownBy(
              () -> {
                try (io.mosaic.scan.Scan scan =
                    retriever.scan(
                        table,
                        io.mosaic.scan.ScanRequest.of(List.of("o_comment")).recorded(false))) {
                  while (scan.hasNext()) {
                    scan.next();
                  }
                }
              })
          .isInstanceOf(CorruptTableException.class)
          .hasMessageContaining("segment " + file + " of column 'o_comment'")
          .hasMessageContaining("the chunk of row group 0 fails its checksum");
      original[4] ^= 0x01;
      Files.write(file, original);
    }
    // The same table without chunk checksums (as written before they existed) reads as before.
    Path manifest =
        table
            .root()
            .resolve(MosaicTable.MANIFESTS)
            .resolve(String.format("v%020d.json", table.latest().version()));
    String text = Files.readString(manifest);
    String body =
        text.substring(text.indexOf("\"manifest\":") + 11, text.length() - 2)
            .replaceAll(",\\s*\"chunkChecksums\"\\s*:\\s*\\[[^\\]]*\\]", "");
    assertThat(body).doesNotContain("chunkChecksums");
    byte[] bodyBytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Files.writeString(
        manifest,
        "{\"format\":\"mosaic-manifest\",\"formatVersion\":1,\"crc32c\":\""
            + ManifestFile.crc(bodyBytes, 0, bodyBytes.length)
            + "\",\"manifest\":"
            + body
            + "}\n");
    assertThat(table.latest().segmentsOf("o_comment").get(0).chunkChecksums()).isEmpty();
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);
  }

  @Test
  void corruptSegmentFailsItsChecksum() throws IOException {
    Path file = segmentFile("o_comment");
    byte[] original = Files.readAllBytes(file);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(original.length / 3);
      raf.write(~original[original.length / 3]);
    }
    // A whole-segment reader checks the file's checksum before decoding anything.
    assertThatThrownBy(() -> TableRoundTripTest.rows(table, table.latest(), alloc))
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("segment " + file + " of column 'o_comment' on device '")
        .hasMessageContaining("fails its checksum");
    // A byte copy (nvme and hdd are both zstd) checks the whole file's checksum: nothing moves.
    Migrator migrator = new Migrator(table);
    assertThatThrownBy(
            () ->
                migrator.apply(
                    migrator.plan(Map.of("o_comment", "hdd")), new Migrator.Listener() {}))
        .hasMessageContaining("fails its checksum");
    assertThat(table.latest().segmentsOf("o_comment").get(0).device()).isEqualTo("nvme");
    Files.write(file, original);
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);
  }

  @Test
  void truncatedOrCorruptManifestIsNamedAndEarlierVersionsStayIntact() throws IOException {
    long version = table.latest().version();
    Path manifest = table.manifestFile(version);
    byte[] good = Files.readAllBytes(manifest);

    Files.write(manifest, java.util.Arrays.copyOf(good, good.length / 2));
    assertThatThrownBy(() -> MosaicTable.open(table.root(), pool).latest())
        .isInstanceOf(CorruptTableException.class)
        .hasMessage(
            "manifest v"
                + version
                + " of table orders ("
                + manifest
                + ") is not a complete Mosaic"
                + " manifest (truncated, or not written by Mosaic); the last good version is v"
                + (version - 1)
                + ": roll back to it (docs/format.md), which publishes its content as v"
                + (version + 1)
                + " and keeps the damaged file");

    byte[] flipped = good.clone();
    int at = good.length / 2;
    flipped[at] = (byte) (flipped[at] == '1' ? '2' : '1');
    Files.write(manifest, flipped);
    assertThatThrownBy(() -> table.latest())
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(manifest + ") is corrupt: checksum crc32c ");

    assertThat(table.version(version - 1).version()).isEqualTo(version - 1);
    Files.write(manifest, good);
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc)).isEqualTo(expected);
  }
}
