package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.DistinctSketch;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MixedTable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers collect a distinct-value sketch per column and row group, and the data size of strings
 * and binaries; a table whose manifest lacks them (written before, or imported) gets the same ones
 * from {@link TableAnalyzer}, in a new version.
 */
class TableAnalyzerTest {
  private static DistinctSketch union(Manifest m, String column) {
    DistinctSketch all = new DistinctSketch();
    for (SegmentEntry s : m.segmentsOf(column)) {
      for (RowGroupStats st : s.stats()) {
        all.merge(DistinctSketch.fromBase64(st.distinct()));
      }
    }
    return all;
  }

  /** Each segment's path with its row groups' sketches and data sizes. */
  private static List<String> values(Manifest m) {
    return m.segments().stream()
        .map(
            s ->
                s.path()
                    + s.stats().stream().map(st -> st.distinct() + "/" + st.dataBytes()).toList())
        .toList();
  }

  @Test
  void writersCollectSketchesAndAnalyzeRecomputesThemForAnOldManifest(@TempDir Path dir)
      throws Exception {
    MixedTable fixture = MixedTable.create(dir, "mixed");
    Manifest written = fixture.table.latest();
    List<ColumnSpec> columns = written.schema().columns();
    for (int c = 0; c < columns.size(); c++) {
      ColumnSpec column = columns.get(c);
      Set<Object> distinct = new HashSet<>();
      long bytes = 0;
      for (List<Object> row : fixture.rows) {
        Object v = row.get(c);
        if (v != null) {
          distinct.add(v); // strings as String, binaries as ByteBuffer: equal by content
          bytes +=
              v instanceof ByteBuffer b
                  ? b.remaining()
                  : v instanceof String s ? s.getBytes(StandardCharsets.UTF_8).length : 0;
        }
      }
      assertThat(union(written, column.name()).estimate())
          .as(column.name())
          .isCloseTo(distinct.size(), within(Math.max(0.5, distinct.size() * 0.05)));
      long dataBytes =
          written.segmentsOf(column.name()).stream()
              .flatMap(s -> s.stats().stream())
              .mapToLong(RowGroupStats::dataBytes)
              .sum();
      if (column.type().isVariableWidth()) {
        assertThat(dataBytes).as(column.name()).isEqualTo(bytes);
      }
    }

    // A manifest as written before sketches existed: same segments, statistics without them.
    fixture.table.commit(
        "strip",
        base -> {
          List<SegmentEntry> stripped = new ArrayList<>();
          for (SegmentEntry s : base.segments()) {
            stripped.add(
                s.withStats(
                    s.stats().stream()
                        .map(st -> new RowGroupStats(st.min(), st.max(), st.nulls()))
                        .toList()));
          }
          return base.next("strip", base.rowGroups(), stripped);
        });
    assertThat(fixture.table.latest().segments().get(0).stats().get(0).hasDistinct()).isFalse();

    TableAnalyzer.Result result = TableAnalyzer.analyze(fixture.table);
    Manifest analyzed = fixture.table.latest();
    assertThat(result.segmentsRead()).isEqualTo(written.segments().size());
    assertThat(result.version()).isEqualTo(analyzed.version()).isEqualTo(written.version() + 2);
    assertThat(analyzed.operation()).isEqualTo("analyze");
    // The same values hashed the same way: the writer's statistics, exactly.
    assertThat(values(analyzed)).isEqualTo(values(written));
    assertThat(TableAnalyzer.analyze(fixture.table).version()).isZero(); // nothing left to do
  }
}
