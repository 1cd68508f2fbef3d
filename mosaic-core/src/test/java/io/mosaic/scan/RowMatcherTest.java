package io.mosaic.scan;

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
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableReader;
import io.mosaic.table.TableWriter;
import io.mosaic.table.TestPool;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RowMatcher}: the rows each comparison matches with SQL's NULL semantics, the engines'
 * order of each type, deleted rows left out; and {@link MosaicTable#replaceWhere} built on it.
 */
class RowMatcherTest {
  static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.of(ColumnType.Kind.INT64), false),
              new ColumnSpec("i", ColumnType.of(ColumnType.Kind.INT32), true),
              new ColumnSpec("s", ColumnType.of(ColumnType.Kind.STRING), true),
              new ColumnSpec("c", ColumnType.charOf(3), true),
              new ColumnSpec("d", ColumnType.of(ColumnType.Kind.DATE), true),
              new ColumnSpec("dec", ColumnType.decimal(10, 2), true),
              new ColumnSpec("x", ColumnType.of(ColumnType.Kind.DOUBLE), true),
              new ColumnSpec("ts", ColumnType.of(ColumnType.Kind.TIMESTAMP), true),
              new ColumnSpec("f", ColumnType.of(ColumnType.Kind.BOOLEAN), true)));

  static final double NAN = Double.NaN;

  /** Rows by id (the row's position in the table: row groups of 3 rows). */
  static final Object[][] ROWS = {
    {0L, 1, "a", "a", 100, "1.00", 0.0, 1000L, true},
    {1L, 2, "b", "a\t", 101, "2.50", -0.0, 2000L, false},
    {2L, null, null, null, null, null, null, null, null},
    {3L, 3, "é", "ab", 102, "3.00", NAN, 3000L, false},
    {4L, 1, "B", "b", 100, "10.00", 1.5, 4000L, true},
    {5L, 5, "a ", "a", 103, "-1.00", -1.5, 5000L, false},
    {6L, 7, "ab", "ab", 104, "1.00", Double.POSITIVE_INFINITY, 6000L, true},
    {7L, null, "a", "a", 100, null, NAN, null, false},
    {8L, 8, "z", "zz", 105, "99.99", 2.0, 8000L, true},
    {9L, 9, "c", "c", 106, "5.00", 3.0, 9000L, false},
    {10L, 10, "d", "d", 107, "6.00", 4.0, 10000L, true},
    {11L, 11, "e", "e", 108, "7.00", 5.0, 11000L, false},
  };

  @TempDir Path dir;
  BufferAllocator alloc;
  MosaicTable table;

  @BeforeEach
  void create() throws IOException {
    alloc = new RootAllocator();
    DevicePool pool = TestPool.fourDevices(dir);
    table =
        MosaicTable.create(
            dir.resolve("t"), pool, SCHEMA, Map.of(TableProperties.ROW_GROUP_ROWS, "3"));
    table.append(List.of(written(Arrays.asList(ROWS))));
  }

  @AfterEach
  void close() {
    alloc.close();
  }

  private WriteResult written(List<Object[]> rows) throws IOException {
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int r = 0; r < rows.size(); r++) {
        for (int c = 0; c < SCHEMA.columns().size(); c++) {
          set(batch.getVector(c), r, rows.get(r)[c]);
        }
      }
      batch.getFieldVectors().forEach(v -> v.setValueCount(rows.size()));
      batch.setRowCount(rows.size());
      writer.write(batch);
      return writer.finish();
    }
  }

  private static void set(FieldVector v, int r, Object value) {
    if (value == null) {
      v.setNull(r);
      return;
    }
    if (v instanceof BigIntVector b) {
      b.setSafe(r, (Long) value);
    } else if (v instanceof IntVector b) {
      b.setSafe(r, (Integer) value);
    } else if (v instanceof VarCharVector b) {
      b.setSafe(r, ((String) value).getBytes(StandardCharsets.UTF_8));
    } else if (v instanceof DateDayVector b) {
      b.setSafe(r, (Integer) value);
    } else if (v instanceof DecimalVector b) {
      b.setSafe(r, new BigDecimal((String) value));
    } else if (v instanceof Float8Vector b) {
      b.setSafe(r, (Double) value);
    } else if (v instanceof TimeStampMicroTZVector b) {
      b.setSafe(r, (Long) value);
    } else if (v instanceof BitVector b) {
      b.setSafe(r, (Boolean) value ? 1 : 0);
    } else {
      throw new AssertionError(v);
    }
  }

  /** The ids of the rows {@code terms} match in the latest version (id = row group * 3 + pos). */
  private Set<Long> matched(ColumnPredicate... terms) throws IOException {
    return ids(new RowMatcher(table, Predicate.of(terms)).matches(table.latest()));
  }

  private static Set<Long> ids(Map<Integer, DeletedRows> matches) {
    Set<Long> ids = new TreeSet<>();
    matches.forEach(
        (g, d) -> {
          for (int p = 0; p < 3; p++) {
            if (d.contains(p)) {
              ids.add(g * 3L + p);
            }
          }
        });
    return ids;
  }

  private static Set<Long> set(long... ids) {
    Set<Long> s = new TreeSet<>();
    for (long id : ids) {
      s.add(id);
    }
    return s;
  }

  private static Set<Long> allBut(long... ids) {
    Set<Long> s = new TreeSet<>();
    for (long id = 0; id < ROWS.length; id++) {
      s.add(id);
    }
    for (long id : ids) {
      s.remove(id);
    }
    return s;
  }

  /** The live ids of the latest version, read back. */
  private List<Long> liveIds() throws IOException {
    List<Long> ids = new ArrayList<>();
    Manifest m = table.latest();
    try (TableReader reader = new TableReader(table, m, List.of("id"))) {
      for (int g = 0; g < reader.rowGroupCount(); g++) {
        try (VectorSchemaRoot root = reader.read(g, alloc)) {
          BigIntVector v = (BigIntVector) root.getVector(0);
          for (int r = 0; r < root.getRowCount(); r++) {
            ids.add(v.get(r));
          }
        }
      }
    }
    return ids.stream().sorted().toList();
  }

  @Test
  void integersWithNulls() throws IOException {
    assertThat(matched(Predicate.eq("i", 1))).isEqualTo(set(0, 4));
    assertThat(matched(Predicate.lt("i", 3))).isEqualTo(set(0, 1, 4));
    assertThat(matched(Predicate.le("i", 3))).isEqualTo(set(0, 1, 3, 4));
    assertThat(matched(Predicate.gt("i", 8))).isEqualTo(set(9, 10, 11));
    assertThat(matched(Predicate.ge("i", 8))).isEqualTo(set(8, 9, 10, 11));
    assertThat(matched(Predicate.between("i", 2, 5))).isEqualTo(set(1, 3, 5));
    // NULL in an IN list equals nothing; NULL rows match no comparison, only IS NULL.
    assertThat(matched(Predicate.in("i", Arrays.asList(1, 5, null)))).isEqualTo(set(0, 4, 5));
    assertThat(matched(Predicate.in("i", Arrays.asList((Object) null)))).isEmpty();
    assertThat(matched(Predicate.isNull("i"))).isEqualTo(set(2, 7));
    assertThat(matched(Predicate.isNotNull("i"))).isEqualTo(allBut(2, 7));
    assertThat(matched(Predicate.eq("i", 42))).isEmpty();
    assertThat(matched()).isEqualTo(allBut());
    assertThat(matched(Predicate.ge("i", 1), Predicate.eq("s", "a"))).isEqualTo(set(0));
  }

  @Test
  void stringsByBytesAndCharPadded() throws IOException {
    assertThat(matched(Predicate.eq("s", "a"))).isEqualTo(set(0, 7));
    // By UTF-8 bytes: 'B' < 'a' < 'a ' < 'ab' < 'b' < ... < 'z' < 'é'.
    assertThat(matched(Predicate.lt("s", "b"))).isEqualTo(set(0, 4, 5, 6, 7));
    assertThat(matched(Predicate.gt("s", "z"))).isEqualTo(set(3));
    assertThat(matched(Predicate.in("s", List.of("B", "a ")))).isEqualTo(set(4, 5));
    // char(3): 'a', 'a ' and 'a  ' are one value; 'a\t' sorts below 'a' as if padded.
    assertThat(matched(Predicate.eq("c", "a"))).isEqualTo(set(0, 5, 7));
    assertThat(matched(Predicate.eq("c", "a  "))).isEqualTo(set(0, 5, 7));
    assertThat(matched(Predicate.lt("c", "a"))).isEqualTo(set(1));
    assertThat(matched(Predicate.le("c", "a"))).isEqualTo(set(0, 1, 5, 7));
    assertThat(matched(Predicate.gt("c", "e"))).isEqualTo(set(8));
  }

  @Test
  void datesDecimalsTimestampsAndBooleans() throws IOException {
    assertThat(matched(Predicate.eq("d", LocalDate.ofEpochDay(100)))).isEqualTo(set(0, 4, 7));
    assertThat(matched(Predicate.gt("d", LocalDate.ofEpochDay(105)))).isEqualTo(set(9, 10, 11));
    // Decimals by value, whatever the scale the value is written with.
    assertThat(matched(Predicate.eq("dec", new BigDecimal("1.0")))).isEqualTo(set(0, 6));
    assertThat(matched(Predicate.gt("dec", new BigDecimal("9.999")))).isEqualTo(set(4, 8));
    assertThat(matched(Predicate.lt("dec", BigDecimal.ZERO))).isEqualTo(set(5));
    assertThat(matched(Predicate.ge("ts", 8000L))).isEqualTo(set(8, 9, 10, 11));
    assertThat(matched(Predicate.eq("ts", java.time.Instant.EPOCH.plusNanos(1_000_000))))
        .isEqualTo(set(0));
    assertThat(matched(Predicate.eq("f", true))).isEqualTo(set(0, 4, 6, 8, 10));
  }

  @Test
  void doublesAsSparkComparesThem() throws IOException {
    // -0.0 = 0.0; NaN = NaN and above every other value, infinity included.
    assertThat(matched(Predicate.eq("x", 0.0))).isEqualTo(set(0, 1));
    assertThat(matched(Predicate.eq("x", -0.0))).isEqualTo(set(0, 1));
    assertThat(matched(Predicate.eq("x", NAN))).isEqualTo(set(3, 7));
    assertThat(matched(Predicate.gt("x", 4.0))).isEqualTo(set(3, 6, 7, 11));
    assertThat(matched(Predicate.lt("x", -1.0))).isEqualTo(set(5));
    assertThat(matched(Predicate.isNull("x"))).isEqualTo(set(2));
  }

  @Test
  void deletedRowsAreNotMatchedAgain() throws IOException {
    long base = table.latest().version();
    table.changeRows("delete", base, Map.of(0, DeletedRows.of(0), 3, DeletedRows.of(0)), List.of());
    assertThat(matched(Predicate.eq("i", 1))).isEqualTo(set(4));
    assertThat(matched()).isEqualTo(allBut(0, 9));
    // A row group whose rows are all deleted is not read.
    table.changeRows(
        "delete", table.latest().version(), Map.of(1, DeletedRows.of(0, 1, 2)), List.of());
    assertThat(matched(Predicate.isNotNull("id"))).isEqualTo(allBut(0, 3, 4, 5, 9));
  }

  @Test
  void badTermsAreRefused() {
    assertThatThrownBy(() -> matched(Predicate.eq("nope", 1)))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("unknown column 'nope'");
    assertThatThrownBy(() -> matched(Predicate.eq("i", "one")))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("does not fit column i");
  }

  @Test
  void replaceWhereCommitsOneVersionAndReplacesRowsAppendedMeanwhile() throws IOException {
    long base = table.latest().version();
    Object[] hundred = {100L, 1, "new", "n", 100, "0.00", 0.5, 0L, true};
    Manifest replaced =
        table.replaceWhere(
            new RowMatcher(table, Predicate.of(Predicate.eq("i", 1))),
            base,
            List.of(written(List.<Object[]>of(hundred))));
    assertThat(replaced.version()).isEqualTo(base + 1);
    assertThat(replaced.operation()).isEqualTo(MosaicTable.REPLACE_WHERE);
    assertThat(replaced.segments()).containsAll(table.version(base).segments());
    List<Long> expected = new ArrayList<>(allBut(0, 4));
    expected.add(100L);
    assertThat(liveIds()).isEqualTo(expected);

    // Another writer appends rows after the replace-where read its base: the rows it appended that
    // the condition matches are replaced too (the replace-where applies as if committed after).
    base = table.latest().version();
    Object[] twoHundred = {200L, 5, "x", "x", 1, "0.00", 0.0, 0L, true};
    Object[] twoHundredOne = {201L, 6, "x", "x", 1, "0.00", 0.0, 0L, true};
    table.append(List.of(written(List.of(twoHundred, twoHundredOne))));
    Object[] threeHundred = {300L, 5, "y", "y", 1, "0.00", 0.0, 0L, true};
    table.replaceWhere(
        new RowMatcher(table, Predicate.of(Predicate.eq("i", 5))),
        base,
        List.of(written(List.<Object[]>of(threeHundred))));
    expected.removeAll(List.of(5L));
    expected.addAll(List.of(201L, 300L));
    assertThat(liveIds()).isEqualTo(expected.stream().sorted().toList());
    assertThat(table.latest().version()).isEqualTo(base + 2);
  }

  @Test
  void replaceWhereConflictsWithAChangeToTheSameRowGroups() throws IOException {
    long base = table.latest().version();
    // Another statement deletes id 1, in row group 0, where the replace-where deletes id 0.
    table.changeRows("delete", base, Map.of(0, DeletedRows.of(1)), List.of());
    long before = table.latest().version();
    assertThatThrownBy(
            () ->
                table.replaceWhere(
                    new RowMatcher(table, Predicate.of(Predicate.eq("i", 1))), base, List.of()))
        .isInstanceOf(MosaicException.class)
        .satisfies(
            e -> assertThat(((MosaicException) e).kind()).isEqualTo(MosaicException.Kind.CONFLICT))
        .hasMessageContaining("REPLACE WHERE on table")
        .hasMessageContaining("nothing was committed");
    assertThat(table.latest().version()).isEqualTo(before);
    // An overwrite (renumbering every row group) since the base conflicts too.
    long again = table.latest().version();
    table.overwrite(List.of(written(Arrays.asList(ROWS))));
    assertThatThrownBy(
            () ->
                table.replaceWhere(
                    new RowMatcher(table, Predicate.of(Predicate.eq("i", 7))), again, List.of()))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("rewrote its rows");
    // Rows appended, then the condition's column renamed: the appended rows cannot be matched by
    // the condition's column any more, so the replace-where is refused.
    long renamedBase = table.latest().version();
    table.append(List.of(written(Arrays.asList(ROWS))));
    table.alter(new io.mosaic.table.SchemaChange.RenameColumn("i", "j"));
    assertThatThrownBy(
            () ->
                table.replaceWhere(
                    new RowMatcher(table, Predicate.of(Predicate.eq("i", 7))),
                    renamedBase,
                    List.of()))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("an ALTER TABLE renamed or dropped one");
  }
}
