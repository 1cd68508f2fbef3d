package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shortcuts that cut a scan's fixed cost (issue 21, docs/architecture.md "What is cached
 * where") never serve what the files no longer say: a cached manifest is not served after its file
 * was damaged, replaced, removed or rolled back from; a trace append follows a new epoch; a pin
 * recreates its directory.
 */
class ScanFixedCostTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();
  private DevicePool pool;
  private MosaicTable table;

  @BeforeEach
  void threeVersions() throws IOException {
    pool = TestPool.fourDevices(dir);
    table =
        MosaicTable.create(
            dir.resolve("t"), pool, CrashWorkload.SCHEMA, CrashWorkload.properties());
    CrashWorkload.append(table, 0); // v2
    CrashWorkload.append(table, 1); // v3
  }

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private List<List<Object>> rows() throws IOException {
    return TableRoundTripTest.rows(table, table.latest(), alloc);
  }

  @Test
  void aVersionIsDecodedOncePerContentOfItsFile() {
    Manifest first = table.latest();
    try (TablePin pin = table.pin()) {
      assertThat(pin.manifest()).isSameAs(first);
    }
    // Another instance of the table (an engine resolving it again) shares the decoded manifest.
    assertThat(MosaicTable.open(table.root(), pool).version(3)).isSameAs(first);
  }

  @Test
  void aCachedVersionDamagedInPlaceIsRefusedAsBefore() throws IOException {
    Path v3 = table.manifestFile(3);
    assertThat(table.latest().version()).isEqualTo(3); // cached
    byte[] good = Files.readAllBytes(v3);
    FileTime mtime = Files.getLastModifiedTime(v3);
    byte[] flipped = good.clone();
    flipped[good.length / 2] ^= 0x20; // same size, and the time set back: only the bytes differ
    Files.write(v3, flipped);
    Files.setLastModifiedTime(v3, mtime);

    assertThatThrownBy(table::latest)
        .isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("manifest v3 of table t")
        .hasMessageContaining("is corrupt: checksum crc32c")
        .hasMessageContaining("the last good version is v2");
    assertThatThrownBy(table::pin).isInstanceOf(CorruptTableException.class);
    try (Retriever retriever = new Retriever(pool)) {
      assertThatThrownBy(() -> retriever.scan(table, ScanRequest.of(List.of("k"))))
          .isInstanceOf(CorruptTableException.class);
    }

    Files.write(v3, good); // repaired: served again
    assertThat(table.latest().version()).isEqualTo(3);
  }

  @Test
  void aReplacedOrRemovedVersionIsNeverServedFromTheCache() throws IOException {
    Manifest v2 = table.version(2);
    Manifest v3 = table.latest();
    // v3's file replaced by a valid manifest of other content (v2's rows, numbered 3).
    Manifest other =
        new Manifest(
            v2.tableId(),
            3,
            "replaced",
            v2.committedAt(),
            v2.schema(),
            v2.properties(),
            v2.rowGroups(),
            v2.segments(),
            v2.deletions());
    Files.write(table.manifestFile(3), ManifestFile.encode(other));
    Manifest now = table.latest();
    assertThat(now).isNotSameAs(v3).isEqualTo(other);
    assertThat(now.rowCount()).isEqualTo(v2.rowCount()).isNotEqualTo(v3.rowCount());
    assertThat(rows()).isEqualTo(CrashWorkload.rows(0));

    Files.delete(table.manifestFile(3));
    assertThatThrownBy(() -> table.version(3)).isInstanceOf(TableNotFoundException.class);
    assertThatThrownBy(() -> table.pin(3))
        .hasMessageContaining("has no version 3 to read")
        .extracting(e -> ((io.mosaic.MosaicException) e).kind())
        .isEqualTo(io.mosaic.MosaicException.Kind.NOT_FOUND);
    assertThat(table.latest()).isSameAs(v2);
  }

  @Test
  void rollbackFromADamagedCachedVersionServesTheRolledBackContent() throws IOException {
    try (Retriever retriever = new Retriever(pool)) {
      assertThat(scanRows(retriever)).isEqualTo(2L * CrashWorkload.ROWS); // v3 cached
      Files.write(table.manifestFile(3), new byte[] {'{'});
      assertThatThrownBy(() -> scanRows(retriever)).isInstanceOf(CorruptTableException.class);

      Manifest v4 = table.rollback(2);
      assertThat(table.latest()).isEqualTo(v4);
      assertThat(scanRows(retriever)).isEqualTo(CrashWorkload.ROWS);
      assertThat(rows()).isEqualTo(CrashWorkload.rows(0));
      assertThatThrownBy(() -> table.pin(3)).isInstanceOf(CorruptTableException.class);
    }
  }

  private long scanRows(Retriever retriever) {
    long rows = 0;
    try (Scan s = retriever.scan(table, ScanRequest.of(List.of("k", "s")).recorded(false))) {
      while (s.hasNext()) {
        rows += s.next().getRowCount();
      }
    }
    return rows;
  }

  @Test
  void theCacheKeepsAtMostItsBytes() throws IOException {
    byte[] a = ManifestFile.encode(table.version(2));
    byte[] b = ManifestFile.encode(table.version(3));
    ManifestCache cache = new ManifestCache(a.length + b.length - 1);
    int[] decoded = {0};
    java.util.function.Supplier<Manifest> count =
        () -> {
          decoded[0]++;
          return table.version(2);
        };
    cache.get(Path.of("a"), a, count);
    cache.get(Path.of("a"), a, count);
    assertThat(decoded[0]).isEqualTo(1);
    cache.get(Path.of("b"), b, count); // evicts a
    assertThat(cache.size()).isEqualTo(1);
    cache.get(Path.of("a"), a, count);
    assertThat(decoded[0]).isEqualTo(3);
    // A file larger than the whole cache is decoded every time, never kept.
    ManifestCache tiny = new ManifestCache(10);
    tiny.get(Path.of("a"), a, count);
    assertThat(tiny.size()).isZero();
  }

  @Test
  void scansAreRecordedInTheEpochCurrentAtTheirEndEvenWhenAnotherStartedIt() throws IOException {
    try (Retriever retriever = new Retriever(pool)) {
      scanRecorded(retriever, "q1");
      TraceLog log = new TraceLog(table.root());
      assertThat(log.epoch()).isEqualTo(1);
      // Another process starts epoch 2 (a placement): the next scan goes there.
      Files.createDirectories(table.root().resolve("_trace/epoch-2"));
      scanRecorded(retriever, "q2");
      assertThat(log.read(1)).extracting(TraceRecord::queryId).containsExactly("q1");
      assertThat(log.read(2)).extracting(TraceRecord::queryId).containsExactly("q2");
      // The whole trace moved away (by a person): the next scan starts epoch 1 again.
      MosaicTable.deleteTree(table.root().resolve("_trace"));
      scanRecorded(retriever, "q3");
      assertThat(log.epoch()).isEqualTo(1);
      assertThat(log.read(1)).extracting(TraceRecord::queryId).containsExactly("q3");
    }
  }

  private void scanRecorded(Retriever retriever, String queryId) {
    try (Scan s = retriever.scan(table, ScanRequest.of(List.of("k")).queryId(queryId))) {
      while (s.hasNext()) {
        s.next();
      }
    }
  }

  @Test
  void aPinRecreatesItsDirectoryAndIsSeenByGc() throws IOException {
    try (TablePin pin = table.pin()) {
      assertThat(table.pinnedVersions()).containsExactly(3L);
    }
    MosaicTable.deleteTree(table.root().resolve(MosaicTable.PINS));
    try (TablePin pin = table.pin(2)) {
      assertThat(table.pinnedVersions()).containsExactly(2L);
    }
    assertThat(table.pinnedVersions()).isEmpty();
  }
}
