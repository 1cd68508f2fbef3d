package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.storage.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ALTER TABLE ADD / DROP / RENAME COLUMN (docs/format.md, "Column ids"), locked and lock-free. */
class SchemaChangeTest {
  static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.of(ColumnType.Kind.INT64), false),
              new ColumnSpec("s", ColumnType.of(ColumnType.Kind.STRING), true)));
  static final ColumnSpec C = new ColumnSpec("c", ColumnType.of(ColumnType.Kind.INT32), true);

  @TempDir Path dir;
  final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void close() {
    alloc.close();
  }

  private MosaicTable create(boolean lockFree, String name) throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, "100");
    props.put("column.s.device", TestPool.IDS[1]);
    if (!lockFree) {
      return MosaicTable.create(dir.resolve(name), pool, SCHEMA, props);
    }
    LocalStorage storage =
        new LocalStorage(Files.createDirectories(dir.resolve("lf").resolve(name)));
    VersionLog log = new VersionLog(storage, "", name, Retention.defaults(), new ShiftedClock());
    return MosaicTable.create(log, pool, SCHEMA, props);
  }

  /** Rows {@code from..to-1}: id, "s<id>", and for a third column id % 7 (null for odd ids). */
  private static List<List<Object>> rows(long from, long to, int columns) {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      List<Object> row = new ArrayList<>(Arrays.asList(i, "s" + i));
      if (columns == 3) {
        row.add(i % 2 == 1 ? null : (int) (i % 7));
      }
      rows.add(row);
    }
    return rows;
  }

  private WriteResult written(MosaicTable table, List<List<Object>> rows) throws Exception {
    TableSchema schema = table.latest().schema();
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int c = 0; c < schema.columns().size(); c++) {
        FieldVector v = batch.getVector(c);
        for (int i = 0; i < rows.size(); i++) {
          Object value = rows.get(i).get(c);
          if (value == null) {
            v.setNull(i);
          } else if (v instanceof BigIntVector b) {
            b.setSafe(i, (Long) value);
          } else if (v instanceof IntVector n) {
            n.setSafe(i, (Integer) value);
          } else {
            ((VarCharVector) v).setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
          }
        }
      }
      batch.setRowCount(rows.size());
      writer.write(batch);
      return writer.finish();
    }
  }

  private List<List<Object>> read(MosaicTable table) throws Exception {
    Manifest m = table.latest();
    return TableRoundTripTest.rows(table, m, alloc);
  }

  private MosaicTable reopen(MosaicTable table, boolean lockFree) {
    // Reading the manifests from disk runs Manifest#check on them.
    return lockFree
        ? MosaicTable.open(table.log(), table.pool())
        : MosaicTable.open(table.root(), table.pool());
  }

  private static List<List<Object>> concat(List<List<Object>> a, List<List<Object>> b) {
    List<List<Object>> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static List<List<Object>> withNulls(List<List<Object>> rows) {
    return rows.stream()
        .map(
            r -> {
              List<Object> row = new ArrayList<>(r);
              row.add(null);
              return row;
            })
        .toList();
  }

  @ParameterizedTest(name = "lockFree={0}")
  @ValueSource(booleans = {false, true})
  void addedColumnReadsNullInOldRowGroupsAndValuesInNewOnes(boolean lockFree) throws Exception {
    MosaicTable table = create(lockFree, "t");
    List<List<Object>> before = rows(0, 250, 2);
    table.append(List.of(written(table, before)));
    Manifest old = table.latest();

    Manifest added = table.alter(new SchemaChange.AddColumn(C));
    assertThat(added.schema().names()).containsExactly("id", "s", "c");
    assertThat(added.schema().ids()).containsExactly(0, 1, 2);
    assertThat(added.operation()).isEqualTo("alter table");
    // The old segments are the same entries; the new column has one segment of NULLs.
    assertThat(added.segmentsOf("id")).isEqualTo(old.segmentsOf("id"));
    List<SegmentEntry> nulls = added.segmentsOf("c");
    assertThat(nulls).hasSize(1);
    assertThat(nulls.get(0).rowGroupCount()).isEqualTo(3);
    assertThat(nulls.get(0).stats()).allSatisfy(st -> assertThat(st.nulls()).isPositive());
    assertThat(nulls.get(0).path()).startsWith(added.tableId() + "/2/");

    List<List<Object>> after = rows(250, 320, 3);
    table.append(List.of(written(table, after)));
    MosaicTable reopened = reopen(table, lockFree);
    assertThat(read(reopened)).isEqualTo(concat(withNulls(before), after));
    // Time travel still reads the version before the column.
    assertThat(TableRoundTripTest.rows(reopened, reopened.version(old.version()), alloc))
        .isEqualTo(before);
  }

  @ParameterizedTest(name = "lockFree={0}")
  @ValueSource(booleans = {false, true})
  void renameKeepsSegmentsPlacementAndId(boolean lockFree) throws Exception {
    MosaicTable table = create(lockFree, "t");
    List<List<Object>> before = rows(0, 150, 2);
    table.append(List.of(written(table, before)));
    Manifest old = table.latest();

    Manifest renamed = table.alter(new SchemaChange.RenameColumn("S", "label"));
    assertThat(renamed.schema().names()).containsExactly("id", "label");
    assertThat(renamed.schema().idOf("label")).isEqualTo(1);
    assertThat(renamed.segmentsOf("label").stream().map(SegmentEntry::path).toList())
        .isEqualTo(old.segmentsOf("s").stream().map(SegmentEntry::path).toList());
    // The column's placement property follows it: new rows go where the column lives.
    assertThat(renamed.properties())
        .containsEntry("column.label.device", TestPool.IDS[1])
        .doesNotContainKey("column.s.device");

    List<List<Object>> after = rows(150, 260, 2);
    table.append(List.of(written(table, after)));
    MosaicTable reopened = reopen(table, lockFree);
    assertThat(reopened.latest().segmentsOf("label"))
        .allSatisfy(s -> assertThat(s.device()).isEqualTo(TestPool.IDS[1]));
    assertThat(read(reopened)).isEqualTo(concat(before, after));
    assertThatThrownBy(() -> table.alter(new SchemaChange.RenameColumn("label", "ID")))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("already has a column of that name");
  }

  @ParameterizedTest(name = "lockFree={0}")
  @ValueSource(booleans = {false, true})
  void droppedColumnIsGoneAndAddedAgainIsANewColumn(boolean lockFree) throws Exception {
    MosaicTable table = create(lockFree, "t");
    List<List<Object>> before = rows(0, 120, 2);
    table.append(List.of(written(table, before)));

    Manifest dropped = table.alter(new SchemaChange.DropColumn("s"));
    assertThat(dropped.schema().names()).containsExactly("id");
    assertThat(dropped.segments()).allSatisfy(s -> assertThat(s.column()).isEqualTo("id"));
    assertThat(dropped.properties()).doesNotContainKey("column.s.device");
    assertThatThrownBy(() -> table.alter(new SchemaChange.DropColumn("id")))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("only column");

    Manifest again =
        table.alter(
            new SchemaChange.AddColumn(
                new ColumnSpec("s", ColumnType.of(ColumnType.Kind.STRING), true)));
    // A new id, never the dropped column's: its old values do not come back.
    assertThat(again.schema().ids()).containsExactly(0, 2);
    assertThat(again.schema().nextColumnId()).isEqualTo(3);
    MosaicTable reopened = reopen(table, lockFree);
    assertThat(read(reopened))
        .isEqualTo(before.stream().map(r -> Arrays.<Object>asList(r.get(0), null)).toList());
  }

  @Test
  void addNotNullNeedsAnEmptyTable() throws Exception {
    MosaicTable empty = create(false, "empty");
    ColumnSpec notNull = new ColumnSpec("n", ColumnType.of(ColumnType.Kind.INT32), false);
    assertThat(empty.alter(new SchemaChange.AddColumn(notNull)).schema().names())
        .containsExactly("id", "s", "n");

    MosaicTable table = create(false, "t");
    table.append(List.of(written(table, rows(0, 10, 2))));
    long version = table.latest().version();
    assertThatThrownBy(() -> table.alter(new SchemaChange.AddColumn(notNull)))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("NOT NULL column 'n'")
        .hasMessageContaining("add the column as nullable");
    assertThatThrownBy(
            () ->
                table.alter(
                    new SchemaChange.AddColumn(
                        new ColumnSpec("S", ColumnType.of(ColumnType.Kind.INT32), true))))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("already has a column");
    assertThat(table.latest().version()).isEqualTo(version);
  }

  @Test
  void manifestWithoutIdsReadsWithIdsByPosition() throws Exception {
    MosaicTable table = create(false, "t");
    table.append(List.of(written(table, rows(0, 120, 2))));
    byte[] plain = ManifestFile.encode(table.latest());
    // A table never altered is written as before ids: no id fields at all.
    String json = new String(plain, StandardCharsets.UTF_8);
    assertThat(json).doesNotContain("\"id\" :").doesNotContain("nextColumnId");
    Manifest decoded = ManifestFile.decode(plain, "fixture");
    assertThat(decoded.schema().ids()).containsExactly(0, 1);
    assertThat(decoded.schema().nextColumnId()).isEqualTo(2);

    table.alter(new SchemaChange.DropColumn("s"));
    Manifest altered = table.alter(new SchemaChange.AddColumn(C));
    byte[] withIds = ManifestFile.encode(altered);
    assertThat(new String(withIds, StandardCharsets.UTF_8))
        .contains("\"nextColumnId\" : 3", "\"id\" : 2");
    assertThat(ManifestFile.decode(withIds, "fixture")).isEqualTo(altered);
  }

  @Test
  void appendsStartedBeforeAnAlterAreRebasedOrRefused() throws Exception {
    MosaicTable table = create(false, "t");
    List<List<Object>> first = rows(0, 120, 2);
    table.append(List.of(written(table, first)));

    // A write started before a rename commits under the new name.
    WriteResult beforeRename = written(table, rows(120, 200, 2));
    table.alter(new SchemaChange.RenameColumn("s", "label"));
    Manifest m = table.append(List.of(beforeRename));
    assertThat(m.segments()).extracting(SegmentEntry::column).containsOnly("id", "label");
    assertThat(read(table)).isEqualTo(rows(0, 200, 2));

    // A write started before a drop commits without the dropped column.
    WriteResult beforeDrop = written(table, rows(200, 230, 2));
    table.alter(new SchemaChange.DropColumn("label"));
    table.append(List.of(beforeDrop));
    assertThat(read(table)).hasSize(230).allSatisfy(r -> assertThat(r).hasSize(1));

    // A write started before an add has no values for the new column: refused, nothing lost.
    WriteResult beforeAdd =
        written(table, rows(230, 240, 2).stream().map(r -> r.subList(0, 1)).toList());
    long rowsBefore = table.latest().rowCount();
    table.alter(new SchemaChange.AddColumn(C));
    assertThatThrownBy(() -> table.append(List.of(beforeAdd)))
        .isInstanceOf(TableConflictException.class)
        .hasMessageContaining("column 'c' was added")
        .hasMessageContaining("write the data again");
    assertThat(table.latest().rowCount()).isEqualTo(rowsBefore);
  }

  @ParameterizedTest(name = "lockFree={0}")
  @ValueSource(booleans = {false, true})
  void addColumnRacingAppendsLosesNoCommittedRow(boolean lockFree) throws Exception {
    MosaicTable table = create(lockFree, "t");
    table.append(List.of(written(table, rows(0, 100, 2))));
    AtomicLong committed = new AtomicLong(100);
    AtomicLong refused = new AtomicLong();
    ExecutorService threads = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writer = w;
        done.add(
            threads.submit(
                () -> {
                  MosaicTable mine =
                      lockFree
                          ? MosaicTable.open(table.log(), table.pool())
                          : MosaicTable.open(table.root(), table.pool());
                  for (int k = 0; k < 6; k++) {
                    long from = 1000L * (writer * 10 + k + 1);
                    int columns = mine.latest().schema().columns().size();
                    WriteResult r = written(mine, rows(from, from + 150, columns));
                    try {
                      mine.append(List.of(r));
                      committed.addAndGet(150);
                    } catch (TableConflictException e) {
                      refused.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      done.add(
          threads.submit(
              () -> {
                Thread.sleep(30);
                return table.alter(new SchemaChange.AddColumn(C));
              }));
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      threads.shutdownNow();
    }
    MosaicTable reopened = reopen(table, lockFree);
    Manifest latest = reopened.latest();
    assertThat(latest.schema().names()).containsExactly("id", "s", "c");
    assertThat(latest.rowCount()).isEqualTo(committed.get());
    assertThat(read(reopened)).hasSize((int) committed.get());
    // Every version checked on load: the new column covers every row group of each.
    for (long v : reopened.versions()) {
      reopened.version(v);
    }
    assertThat(refused.get()).isLessThanOrEqualTo(2);
  }

  @Test
  void traceNamesFollowRenamesAndDrops() throws Exception {
    MosaicTable table = create(false, "t");
    table.append(List.of(written(table, rows(0, 10, 2))));
    io.mosaic.trace.TraceLog log = io.mosaic.trace.TraceLog.of(table);
    java.time.Instant before = java.time.Instant.now();
    log.append(
        new io.mosaic.trace.TraceRecord(
            "q1", table.name(), List.of("id", "s"), List.of(0), Map.of(), 1, before));
    Thread.sleep(5);
    table.alter(new SchemaChange.RenameColumn("s", "label"));
    table.alter(new SchemaChange.AddColumn(C));
    Thread.sleep(5);
    log.append(
        new io.mosaic.trace.TraceRecord(
            "q2",
            table.name(),
            List.of("label", "c"),
            List.of(0),
            Map.of(),
            1,
            java.time.Instant.now()));
    Thread.sleep(5);
    table.alter(new SchemaChange.DropColumn("id"));

    List<io.mosaic.trace.TraceRecord> current =
        io.mosaic.trace.TraceColumns.current(table, log.read(log.epoch()));
    assertThat(current)
        .extracting(io.mosaic.trace.TraceRecord::columns)
        .containsExactlyInAnyOrder(List.of("label"), List.of("label", "c"));
  }

  @Test
  void gcDeletesADroppedColumnsFilesOnceNoVersionNamesThemAndARenamedColumnMigrates()
      throws Exception {
    MosaicTable table = create(false, "t");
    List<List<Object>> before = rows(0, 150, 2);
    table.append(List.of(written(table, before)));
    List<Path> files =
        table.latest().segmentsOf("s").stream()
            .map(seg -> table.pool().device(seg.device()).resolve(seg.path()))
            .toList();
    table.alter(new SchemaChange.RenameColumn("id", "key"));
    // The placement machinery works by today's name: moving the renamed column moves its files.
    io.mosaic.maintenance.Migrator migrator = new io.mosaic.maintenance.Migrator(table);
    migrator.apply(
        migrator.plan(Map.of("key", TestPool.IDS[3])),
        new io.mosaic.maintenance.Migrator.Listener() {});
    assertThat(table.latest().segmentsOf("key"))
        .allSatisfy(seg -> assertThat(seg.device()).isEqualTo(TestPool.IDS[3]));

    table.alter(new SchemaChange.DropColumn("s"));
    assertThat(files).allSatisfy(f -> assertThat(f).exists()); // older versions name them
    new io.mosaic.maintenance.GarbageCollector(table).collect(java.time.Duration.ZERO);
    assertThat(files).allSatisfy(f -> assertThat(f).doesNotExist());
    assertThat(read(table)).isEqualTo(before.stream().map(r -> r.subList(0, 1)).toList());
  }
}
