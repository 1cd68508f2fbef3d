package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnSummary;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code char(n)} columns: stored without trailing spaces with n in the schema, so that statistics,
 * sketches and = / in pruning treat {@code 'ab'} and {@code 'ab '} as the one value they are.
 */
class CharColumnTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();
  private int tables;

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private static final TableSchema SCHEMA =
      new TableSchema(List.of(new ColumnSpec("c", ColumnType.charOf(5), true)));

  private MosaicTable write(String... values) throws Exception {
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t" + tables++),
            TestPool.fourDevices(dir),
            SCHEMA,
            Map.of(TableProperties.ROW_GROUP_ROWS, "3"));
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
      VarCharVector c = (VarCharVector) root.getVector(0);
      for (int i = 0; i < values.length; i++) {
        if (values[i] == null) {
          c.setNull(i);
        } else {
          c.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(values.length);
      writer.write(root);
      table.append(List.of(writer.finish()));
    }
    return table;
  }

  @Test
  void theTypeIsSpelledCharNInTheManifestAndParsesBack() {
    assertThat(ColumnType.charOf(16).toString()).isEqualTo("char(16)");
    assertThat(ColumnType.parse("char(16)")).isEqualTo(ColumnType.charOf(16));
    assertThat(ColumnType.parse("CHAR(1)")).isEqualTo(ColumnType.charOf(1));
    assertThat(ColumnType.parse("string")).isEqualTo(ColumnType.of(ColumnType.Kind.STRING));
    assertThatThrownBy(() -> ColumnType.parse("char(0)"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("char(0) is not supported: need 1 <= n <= 65536");
    assertThatThrownBy(() -> ColumnType.of(ColumnType.Kind.CHAR))
        .hasMessageContaining("need 1 <= n");
  }

  @Test
  void valuesAreStoredTrimmedAndStatisticsAreOverTrimmedValues() throws Exception {
    MosaicTable table = write("ab   ", "Books", "ab", "a\t", null, "  x  ", "ab ");
    Manifest m = MosaicTable.open(table.root(), table.pool()).latest();
    assertThat(m.schema().column("c").type()).isEqualTo(ColumnType.charOf(5));
    assertThat(Files.readString(table.manifestFile(m.version()))).contains("\"char(5)\"");

    assertThat(TableRoundTripTest.rows(table, m, alloc))
        .extracting(r -> r.get(0))
        .containsExactly("ab", "Books", "ab", "a\t", null, "  x", "ab");
    List<RowGroupStats> stats = m.segmentsOf("c").get(0).stats();
    assertThat(stats.get(0).min()).isEqualTo("Books");
    assertThat(stats.get(0).max()).isEqualTo("ab");
    assertThat(stats.get(2).min()).isEqualTo("ab");
    // 'ab', 'ab   ' and 'ab ' are one value; 'a\t' is another (a tab is no padding).
    ColumnSummary summary = ColumnSummary.of(m, "c");
    assertThat(summary.distinct()).hasValue(4);
    assertThat(summary.dataBytes()).hasValue(2 + 5 + 2 + 2 + 3 + 2);
  }

  @Test
  void equalityPrunesWithTheTrimmedValueAndRangesNeverPrune() throws Exception {
    MosaicTable table = write("ab", "ab", "ab", "a\t", "a\t", "a\t");
    Manifest m = table.latest();
    assertThat(select(table, m, Predicate.eq("c", "ab   "))).containsExactly(0);
    assertThat(select(table, m, Predicate.in("c", List.of("a\t  ", "zz")))).containsExactly(1);
    // As char(5), 'a\t' < 'ab' < 'a': a byte-ordered min of 'a\t' cannot rule out c < 'a'.
    assertThat(select(table, m, Predicate.lt("c", "a"))).containsExactly(0, 1);
    assertThat(select(table, m, Predicate.between("c", "b", "c"))).containsExactly(0, 1);
  }

  @Test
  void aValueLongerThanNIsRefusedNamingTheColumn() {
    assertThatThrownBy(() -> write("abcdef"))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("column 'c' is char(5), but a value has 6 characters");
  }

  @Test
  void nCountsCharactersNotBytes() throws Exception {
    MosaicTable table = write("ééééé  ");
    assertThat(TableRoundTripTest.rows(table, table.latest(), alloc))
        .extracting(r -> r.get(0))
        .containsExactly("ééééé");
  }

  private static List<Integer> select(MosaicTable table, Manifest m, ColumnPredicate term) {
    return RowGroupFilter.bind(table.name(), m, Predicate.of(term)).select(0, m.rowGroups().size());
  }
}
