package io.mosaic.maintenance;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReader;
import io.mosaic.segment.ValueStats;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Adds the statistics writers collect (distinct-value sketches, data sizes of strings and binaries)
 * to row groups that lack them: tables written before the writers collected them, and chunks {@code
 * mosaic import} copied byte for byte. It reads those segments' values of a pinned version and
 * commits one new version ("analyze") whose segments are the same files with fuller statistics; no
 * published manifest is rewritten. Segments that already have them are not read, so analyzing an
 * analyzed table reads nothing and commits nothing.
 */
public final class TableAnalyzer {
  /** What an analysis did: segments read, and the version it committed (0 if none). */
  public record Result(int segmentsRead, long rowGroupsAnalyzed, long version) {}

  private TableAnalyzer() {}

  /** Whether a segment lacks statistics a writer would have given it. */
  static boolean lacksValueStats(ColumnSpec column, SegmentEntry s) {
    for (RowGroupStats st : s.stats()) {
      if (!st.hasDistinct() || (column.type().isVariableWidth() && st.dataBytes() < 0)) {
        return true;
      }
    }
    return false;
  }

  public static Result analyze(MosaicTable table) {
    Map<String, List<RowGroupStats>> computed = new HashMap<>();
    long groups = 0;
    try (TablePin pin = table.pin();
        BufferAllocator alloc = new RootAllocator()) {
      Manifest m = pin.manifest();
      for (SegmentEntry s : m.segments()) {
        ColumnSpec column = m.schema().column(s.column());
        if (!lacksValueStats(column, s)) {
          continue;
        }
        computed.put(key(s), read(table, m, column, s, alloc));
        groups += s.rowGroupCount();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (computed.isEmpty()) {
      return new Result(0, 0, 0);
    }
    // Applied to whatever version is latest at commit time: segments appended meanwhile keep
    // theirs, segments a migration replaced meanwhile got theirs from the migration's writer.
    Manifest committed =
        table.commit(
            "analyze",
            base -> {
              List<SegmentEntry> segments = new ArrayList<>();
              for (SegmentEntry s : base.segments()) {
                List<RowGroupStats> stats = computed.get(key(s));
                segments.add(stats == null ? s : s.withStats(stats));
              }
              return base.next("analyze", base.rowGroups(), segments);
            });
    return new Result(computed.size(), groups, committed.version());
  }

  private static String key(SegmentEntry s) {
    return s.device() + "/" + s.path() + "@" + s.firstRowGroup();
  }

  private static List<RowGroupStats> read(
      MosaicTable table, Manifest base, ColumnSpec column, SegmentEntry s, BufferAllocator alloc)
      throws IOException {
    List<RowGroupStats> stats = new ArrayList<>();
    ValueStats values = new ValueStats(column);
    try (SegmentReader reader = new SegmentReader(table.name(), table.pool(), base, s)) {
      for (int k = 0; k < s.rowGroupCount(); k++) {
        try (FieldVector vector = reader.read(s.firstRowGroup() + k, alloc)) {
          values.add(vector, 0, vector.getValueCount());
        }
        stats.add(values.endRowGroup().addTo(s.stats().get(k)));
      }
    }
    return stats;
  }
}
