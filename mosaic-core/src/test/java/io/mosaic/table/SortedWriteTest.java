package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.TableSorter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The table property sorted_by (docs/format.md, "Sort order on write"). */
class SortedWriteTest {
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

  private DevicePool pool;

  private MosaicTable create(String name, String sortedBy) {
    if (pool == null) {
      pool = TestPool.fourDevices(dir);
    }
    Map<String, String> props = new HashMap<>(TableFixtures.spread(SCHEMA));
    props.put(TableProperties.ROW_GROUP_ROWS, "100");
    props.put(TableProperties.SORTED_BY, sortedBy);
    return MosaicTable.create(dir.resolve(name), pool, SCHEMA, props);
  }

  private static List<List<Object>> rows(long from, long to) {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(List.of(i, "s" + i));
    }
    return rows;
  }

  @Test
  void eachRowGroupIsWrittenInTheColumnsOrder() throws Exception {
    MosaicTable table = create("t", "id");
    // 250 rows in descending order, by one writer: row groups of 100, 100 and 50, each sorted.
    List<List<Object>> descending = new ArrayList<>(rows(0, 250));
    descending.sort(Comparator.comparing(r -> -(Long) r.get(0)));
    Manifest m = TableFixtures.appendRows(table, SCHEMA, descending);

    assertThat(m.rowGroups()).containsExactly(100L, 100L, 50L);
    List<List<Object>> read = TableRoundTripTest.rows(table, m, alloc);
    List<List<Object>> expected = new ArrayList<>();
    expected.addAll(rows(150, 250));
    expected.addAll(rows(50, 150));
    expected.addAll(rows(0, 50));
    assertThat(read).isEqualTo(expected);
    SegmentEntry ids = m.segmentsOf("id").get(0);
    RowGroupStats first = ids.stats().get(0);
    assertThat(first.min()).isEqualTo(150L);
    assertThat(first.max()).isEqualTo(249L);
    // Sorted within row groups, not across them: the writer saw the rows in another order.
    assertThat(TableSorter.sortedBy(m, "id")).isFalse();
  }

  @Test
  void sortedByMustNameAColumnWithAnOrderAndFollowsItsRenames() throws Exception {
    assertThatThrownBy(() -> create("bad", "nope"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("sorted_by = 'nope' names no column of the table; name one of id, s")
        .extracting(e -> ((MosaicException) e).kind())
        .isEqualTo(MosaicException.Kind.INVALID_ARGUMENT);

    MosaicTable table = create("t", "s");
    TableFixtures.appendRows(table, SCHEMA, rows(0, 30));
    Manifest renamed = table.alter(new SchemaChange.RenameColumn("s", "label"));
    assertThat(renamed.properties()).containsEntry(TableProperties.SORTED_BY, "label");
    Manifest dropped = table.alter(new SchemaChange.DropColumn("label"));
    assertThat(dropped.properties()).doesNotContainKey(TableProperties.SORTED_BY);
    // Strings sort by their bytes: "s10" before "s2".
    MosaicTable strings = create("strings", "s");
    Manifest m = TableFixtures.appendRows(strings, SCHEMA, rows(0, 12));
    assertThat(TableRoundTripTest.rows(strings, m, alloc).stream().map(r -> r.get(1)).toList())
        .containsExactly("s0", "s1", "s10", "s11", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9");
  }
}
