package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.maintenance.TableSorter;
import io.mosaic.storage.LocalStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Deletion vectors (docs/format.md, "Deletion vectors"): commits, conflicts, and rewrites. */
class DeletedRowsTest {
  static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.of(ColumnType.Kind.INT64), false),
              new ColumnSpec("s", ColumnType.of(ColumnType.Kind.STRING), false)));

  @TempDir Path dir;
  final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void close() {
    alloc.close();
  }

  private MosaicTable create(boolean lockFree) throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Map<String, String> props = new HashMap<>(TableFixtures.spread(SCHEMA));
    props.put(TableProperties.ROW_GROUP_ROWS, "100");
    MosaicTable table;
    if (lockFree) {
      LocalStorage storage = new LocalStorage(Files.createDirectories(dir.resolve("lf")));
      VersionLog log = new VersionLog(storage, "", "t", Retention.defaults(), new ShiftedClock());
      table = MosaicTable.create(log, pool, SCHEMA, props);
    } else {
      table = MosaicTable.create(dir.resolve("t"), pool, SCHEMA, props);
    }
    TableFixtures.appendRows(table, SCHEMA, rows(0, 250));
    return table;
  }

  private static List<List<Object>> rows(long from, long to) {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(List.of(i, "s" + i));
    }
    return rows;
  }

  private static MosaicTable reopen(MosaicTable table) {
    // Reading the manifests from disk runs Manifest#check on them.
    return table.lockFree()
        ? MosaicTable.open(table.log(), table.pool())
        : MosaicTable.open(table.root(), table.pool());
  }

  private List<List<Object>> read(MosaicTable table) throws Exception {
    return TableRoundTripTest.rows(table, table.latest(), alloc);
  }

  private static List<List<Object>> without(List<List<Object>> rows, long... ids) {
    List<Long> gone = java.util.Arrays.stream(ids).boxed().toList();
    return rows.stream().filter(r -> !gone.contains((Long) r.get(0))).toList();
  }

  @org.junit.jupiter.api.Test
  void livePositionsAreTheRowsNotDeleted() {
    java.util.Random random = new java.util.Random(7);
    for (int round = 0; round < 50; round++) {
      int rows = random.nextInt(3000);
      org.roaringbitmap.RoaringBitmap bits = new org.roaringbitmap.RoaringBitmap();
      // Runs and single positions, some past the row count, as a vector of a longer group has.
      for (int i = random.nextInt(40); i > 0; i--) {
        int from = random.nextInt(rows + 10);
        bits.add((long) from, (long) from + 1 + random.nextInt(i % 3 == 0 ? 200 : 1));
      }
      List<Integer> expected = new ArrayList<>();
      for (int r = 0; r < rows; r++) {
        if (!bits.contains(r)) {
          expected.add(r);
        }
      }
      assertThat(DeletedRows.of(bits).livePositions(rows))
          .as("round %d", round)
          .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
      // A page of the rows at a time, as Trino's page source asks: offsets within the page.
      int from = rows == 0 ? 0 : random.nextInt(rows);
      int n = rows - from == 0 ? 0 : 1 + random.nextInt(rows - from);
      int[] page = new int[n];
      int kept = DeletedRows.of(bits).livePositions(from, n, page);
      assertThat(java.util.Arrays.copyOf(page, kept))
          .as("round %d, rows %d + %d", round, from, n)
          .containsExactly(
              expected.stream()
                  .filter(r -> r >= from && r < from + n)
                  .mapToInt(r -> r - from)
                  .toArray());
    }
  }

  @ParameterizedTest(name = "lockFree={0}")
  @ValueSource(booleans = {false, true})
  void deletedRowsAreSkippedKeptAcrossAppendsAndAppliedByRewrites(boolean lockFree)
      throws Exception {
    MosaicTable table = create(lockFree);
    long base = table.latest().version();
    // An UPDATE of ids 0 and 249: their old rows deleted, new ones inserted, in one version.
    Manifest changed =
        table.changeRows(
            "merge",
            base,
            Map.of(0, DeletedRows.of(0, 5), 2, DeletedRows.of(49)),
            List.of(TableFixtures.written(table, SCHEMA, List.of(List.of(1000L, "new")))));
    assertThat(changed.version()).isEqualTo(base + 1);
    assertThat(changed.liveRowCount()).isEqualTo(248);
    List<List<Object>> live = new ArrayList<>(without(rows(0, 250), 0, 5, 249));
    live.add(List.of(1000L, "new"));
    MosaicTable reopened = reopen(table);
    assertThat(reopened.latest().deletions()).isEqualTo(changed.deletions());
    assertThat(read(reopened)).isEqualTo(live);
    // The version before still has every row (time travel reads it).
    assertThat(TableRoundTripTest.rows(reopened, reopened.version(base), alloc))
        .isEqualTo(rows(0, 250));

    // An append keeps the row groups' numbers, so the deletions stay.
    TableFixtures.appendRows(table, SCHEMA, rows(2000, 2010));
    live.addAll(rows(2000, 2010));
    assertThat(table.latest().deletions()).containsOnlyKeys(0, 2);
    assertThat(read(table)).isEqualTo(live);

    // A change built on the old base is rebased when nothing touched its row groups since...
    table.changeRows("delete", base, Map.of(1, DeletedRows.of(0)), List.of());
    live = new ArrayList<>(without(live, 100));
    assertThat(read(table)).isEqualTo(live);
    // ...and refused when another change deleted rows of the same row group.
    assertThatThrownBy(
            () -> table.changeRows("delete", base, Map.of(0, DeletedRows.of(7)), List.of()))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("DELETE on table " + table.name() + " read v" + base)
        .hasMessageContaining("another change deleted rows of row group 0")
        .hasMessageContaining("run the statement again")
        .extracting(e -> ((MosaicException) e).kind())
        .isEqualTo(MosaicException.Kind.CONFLICT);

    // optimize rewrites only the live rows and leaves no deletions.
    long beforeOptimize = table.latest().version();
    TableCompactor.Result compacted =
        new TableCompactor(table).optimize(new TableCompactor.Listener() {});
    assertThat(compacted.compacted()).isTrue();
    assertThat(table.latest().deletions()).isEmpty();
    assertThat(table.latest().rowCount()).isEqualTo(live.size());
    assertThat(read(reopen(table))).isEqualTo(live);
    // A change read before the rewrite names rows by old numbers: refused.
    assertThatThrownBy(
            () ->
                table.changeRows("delete", beforeOptimize, Map.of(2, DeletedRows.of(1)), List.of()))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("read v" + beforeOptimize)
        // A locked table retires the versions a rewrite replaced at once; a lock-free one by time.
        .hasMessageContaining(
            lockFree
                ? "(optimize) rewrote its rows"
                : "v" + beforeOptimize + " is no longer readable");
  }

  @org.junit.jupiter.api.Test
  void rowIdsCollectedByTasksMeetInOneSetOfVectors() {
    // Two tasks' shares, sent as text and merged where the statement commits.
    DeletedRows.Collector task1 = new DeletedRows.Collector();
    task1.add(DeletedRows.rowId(0, 7));
    task1.add(DeletedRows.rowId(3, 0));
    DeletedRows.Collector task2 = new DeletedRows.Collector();
    task2.add(DeletedRows.rowId(3, Integer.MAX_VALUE - 1));
    task2.add(DeletedRows.rowId(0, 7));
    DeletedRows.Collector all = new DeletedRows.Collector();
    all.addAll(task1.encoded());
    all.addAll(task2.encoded());
    assertThat(all.deletions())
        .containsExactlyEntriesOf(
            new java.util.TreeMap<>(
                Map.of(0, DeletedRows.of(7), 3, DeletedRows.of(0, Integer.MAX_VALUE - 1))));
  }

  @ParameterizedTest(name = "lockFree={0}")
  @ValueSource(booleans = {false, true})
  void sortLeavesDeletedRowsOutAndOverwriteForgetsThem(boolean lockFree) throws Exception {
    MosaicTable table = create(lockFree);
    table.changeRows(
        "delete", table.latest().version(), Map.of(1, DeletedRows.of(10, 11)), List.of());
    Manifest sorted = new TableSorter(table).sort("s", new TableSorter.Listener() {});
    assertThat(sorted.deletions()).isEmpty();
    assertThat(sorted.rowCount()).isEqualTo(248);
    assertThat(read(table)).doesNotContain(List.of(110L, "s110"), List.of(111L, "s111"));

    table.changeRows("delete", table.latest().version(), Map.of(0, DeletedRows.of(0)), List.of());
    assertThat(table.latest().deletions()).isNotEmpty();
    Manifest overwritten =
        table.overwrite(List.of(TableFixtures.written(table, SCHEMA, rows(0, 5))));
    assertThat(overwritten.deletions()).isEmpty();
    assertThat(read(reopen(table))).isEqualTo(rows(0, 5));
  }
}
