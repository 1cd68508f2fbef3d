package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestMutations;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.SegmentStamp;
import io.mosaic.maintenance.TableCloner;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each segment file records which table, column and table row groups it holds ({@link
 * SegmentStamp}, docs/format.md "Segment files"), and every read path checks it against the
 * manifest: a manifest whose segments exchange their row groups passes every other check (each
 * entry's statistics are its own file's) and would return a column's halves exchanged.
 */
class SegmentStampTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    alloc.close();
  }

  private static ObjectNode segment(ObjectNode m, SegmentEntry s) {
    for (var node : m.get("segments")) {
      if (node.get("path").textValue().equals(s.path())) {
        return (ObjectNode) node;
      }
    }
    throw new AssertionError(s.path());
  }

  private static Map<String, String> stamp(DevicePool pool, SegmentEntry s) throws IOException {
    try (ParquetFileReader r =
        ParquetFileReader.open(new LocalInputFile(pool.device(s.device()).resolve(s.path())))) {
      return r.getFooter().getFileMetaData().getKeyValueMetaData();
    }
  }

  private Retriever retriever(DevicePool pool) {
    Retriever r = new Retriever(pool, 2, 0);
    open.add(r);
    return r;
  }

  /** Column v's two segments (row groups 0-1 and 2-3, the same shape) exchange places. */
  private static void exchangeV(ObjectNode m, Manifest good) {
    List<SegmentEntry> v = good.segmentsOf("v");
    segment(m, v.get(0)).put("firstRowGroup", v.get(1).firstRowGroup());
    segment(m, v.get(1)).put("firstRowGroup", v.get(0).firstRowGroup());
  }

  @Test
  void segmentsExchangingRowGroupsAreRefusedByEveryReadPath() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest good = table.latest();
    List<SegmentEntry> v = good.segmentsOf("v");
    assertThat(v).hasSize(2);
    assertThat(v.get(0).rowGroupCount()).isEqualTo(v.get(1).rowGroupCount());
    Manifest bad = ManifestMutations.publishNext(table, m -> exchangeV(m, good));
    String problem =
        "does not match manifest v"
            + bad.version()
            + ": its own metadata says it holds table row groups 2 to 3, the manifest places it"
            + " at row groups 0 to 1 (segments exchanged or renumbered)";
    Path second = pool.device(v.get(1).device()).resolve(v.get(1).path());

    // The vector path (Spark, the CLI's scans): row group 0 of v is now the second file's.
    Retriever retriever = retriever(pool);
    Throwable vectors =
        assertTimeoutPreemptively(
            LIMIT,
            () -> {
              try (Scan scan =
                  retriever.scan(
                      table, ScanRequest.of(List.of("v")).rowGroups(0, 1).recorded(false))) {
                while (scan.hasNext()) {
                  scan.next();
                }
                return null;
              } catch (CorruptTableException e) {
                return e;
              }
            });
    assertThat(vectors)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(second.toString())
        .hasMessageContaining(problem);

    // The chunk path (Trino), with its own retriever so that no footer is cached.
    Throwable chunks;
    try (TablePin pin = table.pin();
        Scan scan =
            retriever(pool)
                .chunks(table, pin, ScanRequest.of(List.of("v")).rowGroups(0, 1).recorded(false))) {
      chunks =
          assertTimeoutPreemptively(
              LIMIT,
              () -> {
                try {
                  scan.ready().get(60, TimeUnit.SECONDS);
                  scan.nextChunks();
                  return null;
                } catch (CorruptTableException e) {
                  return e;
                }
              });
    }
    assertThat(chunks)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(second.toString())
        .hasMessageContaining(problem);

    // The whole-segment path (TableReader: table dumps, migration, sort, analyze).
    Throwable whole = null;
    try {
      TableRoundTripTest.rows(table, bad, alloc);
    } catch (CorruptTableException e) {
      whole = e;
    }
    assertThat(whole)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(second.toString())
        .hasMessageContaining(problem);

    // The fix the message points to: the previous version reads right.
    table.rollback(good.version());
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc))
        .isEqualTo(CrashWorkload.rows(0, 1));
  }

  @Test
  void aTasksSegmentsAreStampedWithTheRowGroupsTheCommitGivesThem() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1);
    // Two writers on the same base, committed in one append: the second's row groups start at 4,
    // after the first's, though both wrote their files expecting row group 2.
    List<WriteResult> results = new ArrayList<>();
    for (int b = 1; b <= 2; b++) {
      try (TableWriter writer = table.newWriter();
          VectorSchemaRoot batch =
              VectorSchemaRoot.create(CrashWorkload.SCHEMA.arrowSchema(), alloc)) {
        CrashWorkload.fill(batch, b);
        writer.write(batch);
        results.add(writer.finish());
        batch.clear();
      }
    }
    Manifest m = table.append(results);
    for (SegmentEntry s : m.segments()) {
      Map<String, String> kv = stamp(pool, s);
      assertThat(kv.get(SegmentStamp.FIRST_ROW_GROUP))
          .as(s.path())
          .isEqualTo(String.format(Locale.ROOT, "%010d", s.firstRowGroup()));
      assertThat(kv)
          .containsEntry(SegmentStamp.TABLE, m.tableId())
          .containsEntry(SegmentStamp.COLUMN, s.column())
          .containsEntry(SegmentStamp.ROW_GROUPS, "2")
          .containsEntry(SegmentStamp.ROWS, Integer.toString(CrashWorkload.ROWS));
    }
    assertThat(m.segments()).extracting(SegmentEntry::firstRowGroup).contains(0, 2, 4);
    // TableReader checks each file's whole checksum: the restamped files' are the manifest's.
    assertThat(TableRoundTripTest.rows(table, m, alloc)).isEqualTo(CrashWorkload.rows(0, 1, 2));

    // A clone's copies are stamped with the clone's table id.
    TableCloner.Result clone =
        TableCloner.cloneTable(table, dir.resolve("t2"), new TableCloner.Listener() {});
    for (SegmentEntry s : clone.manifest().segments()) {
      assertThat(stamp(pool, s)).containsEntry(SegmentStamp.TABLE, clone.manifest().tableId());
    }
    assertThat(clone.manifest().tableId()).isNotEqualTo(m.tableId());
    assertThat(TableRoundTripTest.rows(clone.table(), clone.manifest(), alloc))
        .isEqualTo(CrashWorkload.rows(0, 1, 2));
  }

  @Test
  void aSegmentWithoutTheRecordStillReads() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 2);
    Manifest good = table.latest();
    // Segments written before the record existed carry only mosaic.column: hide the rest.
    SegmentEntry s = good.segmentsOf("v").get(1);
    Path file = pool.device(s.device()).resolve(s.path());
    byte[] bytes = Files.readAllBytes(file);
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    for (String key :
        List.of(
            SegmentStamp.TABLE,
            SegmentStamp.FIRST_ROW_GROUP,
            SegmentStamp.ROW_GROUPS,
            SegmentStamp.ROWS)) {
      text = text.replace(key, key.replace("mosaic.", "legacy."));
    }
    bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    Files.write(file, bytes);
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    String checksum = String.format(Locale.ROOT, "crc32c:%08x", crc.getValue());
    assertThat(stamp(pool, s)).doesNotContainKey(SegmentStamp.FIRST_ROW_GROUP);
    Manifest m = ManifestMutations.publishNext(table, n -> segment(n, s).put("checksum", checksum));
    assertThat(TableRoundTripTest.rows(table, m, alloc)).isEqualTo(CrashWorkload.rows(0, 1));
    try (Scan scan = retriever(pool).scan(table, ScanRequest.of(List.of("v")).recorded(false))) {
      int rows = 0;
      while (scan.hasNext()) {
        rows += scan.next().getRowCount();
      }
      assertThat(rows).isEqualTo(2 * CrashWorkload.ROWS);
    }
  }
}
