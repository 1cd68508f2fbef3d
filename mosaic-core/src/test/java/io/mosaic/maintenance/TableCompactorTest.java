package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.SchemaChange;
import io.mosaic.table.TableConflictException;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TestPool;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction of the row groups many small appends leave (docs/operations.md, "Compaction"). */
class TableCompactorTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  /** Orders in row groups of 500 rows, then 40 appends of 7 rows: 40 small row groups. */
  private MosaicTable smallAppends(DevicePool pool, List<List<Object>> rows) throws IOException {
    try (BufferAllocator a = new RootAllocator()) {
      TpchBatches.orders(0.002, 8192, a, b -> rows.addAll(TableFixtures.values(b)));
    }
    Map<String, String> properties = new LinkedHashMap<>(TableFixtures.spread(TpchBatches.ORDERS));
    properties.put(TableProperties.ROW_GROUP_ROWS, "500");
    List<List<Object>> first = new ArrayList<>(rows.subList(0, 1200));
    MosaicTable table =
        TableFixtures.write(dir.resolve("orders"), pool, TpchBatches.ORDERS, first, properties);
    for (int i = 0; i < 40; i++) {
      TableFixtures.appendRows(
          table, TpchBatches.ORDERS, rows.subList(1200 + 7 * i, 1200 + 7 * (i + 1)));
    }
    rows.subList(1200 + 7 * 40, rows.size()).clear();
    return table;
  }

  @Test
  void smallRowGroupsAreMergedInOrderWithEveryColumnOnItsDevice() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> rows = new ArrayList<>();
    MosaicTable table = smallAppends(pool, rows);
    // A column added after the appends reads NULL in all of them, and is compacted too.
    table.alter(
        new SchemaChange.AddColumn(new ColumnSpec("note", ColumnType.parse("string"), true)));
    rows.replaceAll(
        r -> {
          List<Object> withNote = new ArrayList<>(r);
          withNote.add(null);
          return withNote;
        });
    Manifest before = table.latest();
    assertThat(before.rowGroups()).hasSize(3 + 40);
    List<String> read = new ArrayList<>();

    TableCompactor.Result result =
        new TableCompactor(table)
            .optimize(
                new TableCompactor.Listener() {
                  @Override
                  public void rowGroupRead(int done, int total, long bytes) {
                    read.add(done + "/" + total);
                  }
                });

    Manifest after = table.latest();
    assertThat(result.compacted()).isTrue();
    assertThat(result.version()).contains(after.version());
    assertThat(after.version()).isEqualTo(before.version() + 1);
    assertThat(after.operation()).isEqualTo("optimize");
    assertThat(result.rowGroupsBefore()).isEqualTo(43);
    // 1,480 rows in row groups of 500.
    assertThat(after.rowGroups()).containsExactly(500L, 500L, 480L);
    assertThat(result.rowGroupsAfter()).isEqualTo(3);
    assertThat(read).hasSize(43).endsWith("43/43");
    assertThat(TableRoundTripTest.rows(table, after, alloc)).isEqualTo(rows);
    assertThat(after.properties()).isEqualTo(before.properties());
    for (ColumnSpec c : after.schema().columns()) {
      List<SegmentEntry> old = before.segmentsOf(c.name());
      assertThat(after.segmentsOf(c.name()))
          .as(c.name())
          .allMatch(s -> s.device().equals(old.get(old.size() - 1).device()));
    }
    // The old segments were retired: one file per segment of the new version is left.
    try (var files = Files.walk(dir.resolve("devices"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".parquet")).count())
          .isEqualTo(after.segments().size());
    }

    // Compact already: nothing to do, no version.
    TableCompactor.Result again =
        new TableCompactor(table).optimize(new TableCompactor.Listener() {});
    assertThat(again.compacted()).isFalse();
    assertThat(again.rowGroupsAfter()).isEqualTo(3);
    assertThat(table.latest().version()).isEqualTo(after.version());
  }

  /** Runs {@code during} when the compaction has read its tenth row group. */
  private static TableCompactor.Listener atTenthRowGroup(IoAction during) {
    return new TableCompactor.Listener() {
      @Override
      public void rowGroupRead(int done, int total, long bytes) {
        if (done == 10) {
          try {
            during.run();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    };
  }

  private interface IoAction {
    void run() throws IOException;
  }

  @Test
  void anAppendDuringTheCompactionFollowsTheCompactedRowGroups() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> rows = new ArrayList<>();
    MosaicTable table = smallAppends(pool, rows);
    Manifest before = table.latest();
    List<List<Object>> late = rows.subList(0, 3);
    List<List<Object>> expected = new ArrayList<>(rows);
    expected.addAll(late);

    List<Manifest> appended = new ArrayList<>();
    TableCompactor.Result result =
        new TableCompactor(table)
            .optimize(
                atTenthRowGroup(
                    () -> appended.add(TableFixtures.appendRows(table, TpchBatches.ORDERS, late))));

    Manifest latest = table.latest();
    assertThat(result.version()).contains(before.version() + 2);
    assertThat(latest.operation()).isEqualTo("optimize");
    // The compacted rows of the version read, then the append's rows, rewritten: its files number
    // their row groups, which the compaction changed.
    assertThat(latest.rowGroups()).containsExactly(500L, 500L, 480L, 3L);
    assertThat(TableRoundTripTest.rows(table, latest, alloc)).isEqualTo(expected);
    assertThat(appended).hasSize(1);
    assertThat(latest.segments())
        .noneMatch(
            s -> appended.get(0).segments().stream().anyMatch(o -> o.path().equals(s.path())));
    // Every old file was retired: only the compacted version's are left.
    try (var files = Files.walk(dir.resolve("devices"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".parquet")).count())
          .isEqualTo(latest.segments().size());
    }
  }

  @Test
  void aRowChangeDuringTheCompactionIsKeptAndTheCompactionRefused() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    List<List<Object>> rows = new ArrayList<>();
    MosaicTable table = smallAppends(pool, rows);
    Manifest before = table.latest();

    assertThatThrownBy(
            () ->
                new TableCompactor(table)
                    .optimize(
                        atTenthRowGroup(
                            () ->
                                table.changeRows(
                                    "delete",
                                    before.version(),
                                    Map.of(0, DeletedRows.of(0, 1)),
                                    List.of()))))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("changed during optimize")
        .hasMessageContaining("by delete")
        .hasMessageContaining("run optimize again");

    Manifest latest = table.latest();
    assertThat(latest.version()).isEqualTo(before.version() + 1);
    assertThat(latest.operation()).isEqualTo("delete");
    assertThat(TableRoundTripTest.rows(table, latest, alloc))
        .isEqualTo(rows.subList(2, rows.size()));
  }
}
