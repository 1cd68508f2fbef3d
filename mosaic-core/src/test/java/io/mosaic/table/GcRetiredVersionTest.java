package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.maintenance.Migrator;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retired version never comes back (docs/format.md, "Pins, writer locks and gc"): a commit whose
 * base is older than the newest version rebases, instead of publishing its version number again
 * after gc retired it. The concurrency harness once met it (seed 15607339147828): a reader that had
 * read a version as the latest before gc retired it pinned that version after a stale commit had
 * published it anew, and found a segment of the stale base deleted.
 */
class GcRetiredVersionTest {
  @TempDir Path dir;

  private static final List<String> COLUMNS =
      CrashWorkload.SCHEMA.columns().stream().map(ColumnSpec::name).toList();

  @Test
  void aCommitOnABaseOthersReplacedAndGcRetiredRebasesInsteadOfReusingAVersion() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = CrashWorkload.table(dir.resolve("t"), pool, 1); // v2: batch 0
    SegmentEntry old = table.latest().segmentsOf("s").get(0);
    assertThat(old.device()).isEqualTo("raid");
    Path oldFile = pool.device(old.device()).resolve(old.path());
    List<Long> bases = new ArrayList<>();
    Manifest committed;
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch =
            VectorSchemaRoot.create(CrashWorkload.SCHEMA.arrowSchema(), alloc)) {
      CrashWorkload.fill(batch, 1);
      writer.write(batch);
      WriteResult result = writer.finish();
      committed =
          table.commit(
              "append",
              base -> {
                bases.add(base.version());
                if (bases.size() == 1) {
                  // After this commit read its base (v2), before it publishes v3: column s moves
                  // off raid (v3; the migration deletes v2 and v2's segment of s), batch 2 is
                  // appended (v4) and gc retires v3, which a reader may have read as the latest.
                  othersCommitAndGcRuns(table);
                  assertThat(table.versions()).containsExactly(4L);
                  assertThat(oldFile).doesNotExist();
                }
                return withResult(base, result);
              });
    }
    // The reader that read v3 as the latest pins it now, and must find it gone (then it pins the
    // latest), not a new v3 naming the deleted segment.
    assertThatThrownBy(() -> table.pin(3))
        .hasMessageContaining("has no version 3 to read")
        .extracting(e -> ((io.mosaic.MosaicException) e).kind())
        .isEqualTo(io.mosaic.MosaicException.Kind.NOT_FOUND);
    assertThat(bases).as("bases the commit was built on").containsExactly(2L, 4L);
    assertThat(committed.version()).isEqualTo(5);
    assertThat(table.latest().version()).isEqualTo(committed.version());
    for (SegmentEntry s : committed.segments()) {
      assertThat(pool.device(s.device()).resolve(s.path())).exists();
    }
    try (Retriever retriever = new Retriever(pool, 1, 0);
        Scan scan = retriever.scan(table, ScanRequest.of(COLUMNS).recorded(false))) {
      assertThat(TableProcess.check(scan, scan.manifest().rowCount())).isNull();
      assertThat(TableProcess.lastBatches()).containsExactly(0, 1, 2);
    }
  }

  private static void othersCommitAndGcRuns(MosaicTable table) {
    try {
      Migrator migrator = new Migrator(table);
      migrator.apply(migrator.plan(Map.of("s", "hdd")), new Migrator.Listener() {});
      CrashWorkload.append(table, 2);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThat(Files.exists(table.manifestFile(3))).isFalse();
  }

  /** What {@link MosaicTable#append} commits for one result. */
  private static Manifest withResult(Manifest base, WriteResult result) {
    List<Long> groups = new ArrayList<>(base.rowGroups());
    List<SegmentEntry> segments = new ArrayList<>(base.segments());
    int first = groups.size();
    groups.addAll(result.rowGroups());
    result.segments().forEach(s -> segments.add(s.startingAt(first + s.firstRowGroup())));
    return base.next("append", groups, segments);
  }
}
