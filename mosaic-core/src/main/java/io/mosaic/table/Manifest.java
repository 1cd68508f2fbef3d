package io.mosaic.table;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One version of a table (DESIGN section 3): its schema, row groups and segments. Immutable; a
 * change is a new version published atomically by {@link MosaicTable#commit}.
 *
 * @param rowGroups row count of each row group, in order; all columns share these boundaries
 * @param segments every column covers every row group exactly once
 */
public record Manifest(
    String tableId,
    long version,
    String operation,
    Instant committedAt,
    TableSchema schema,
    Map<String, String> properties,
    List<Long> rowGroups,
    List<SegmentEntry> segments) {

  public static final int FORMAT_VERSION = 1;

  public Manifest {
    properties = Map.copyOf(properties);
    rowGroups = List.copyOf(rowGroups);
    segments = List.copyOf(segments);
  }

  public long rowCount() {
    return rowGroups.stream().mapToLong(Long::longValue).sum();
  }

  /** The segments of {@code column}, in row group order. */
  public List<SegmentEntry> segmentsOf(String column) {
    String name = schema.column(column).name();
    List<SegmentEntry> result = new ArrayList<>();
    for (SegmentEntry s : segments) {
      if (s.column().equals(name)) {
        result.add(s);
      }
    }
    result.sort(Comparator.comparingInt(SegmentEntry::firstRowGroup));
    return result;
  }

  /**
   * Where the columns are: one entry per column, device and codec, in the schema's column order
   * and, within a column, in the order its row groups reach each device.
   */
  public List<StoredColumn> storedColumns() {
    List<StoredColumn> result = new ArrayList<>();
    for (ColumnSpec c : schema.columns()) {
      Map<List<Object>, StoredColumn> parts = new LinkedHashMap<>();
      for (SegmentEntry s : segmentsOf(c.name())) {
        parts.merge(List.of(s.device(), s.codec()), StoredColumn.of(s), StoredColumn::plus);
      }
      result.addAll(parts.values());
    }
    return result;
  }

  /** The segment holding row group {@code rowGroup} of {@code column}. */
  public SegmentEntry segmentFor(String column, int rowGroup) {
    for (SegmentEntry s : segmentsOf(column)) {
      if (s.covers(rowGroup)) {
        return s;
      }
    }
    throw new IllegalStateException(
        "manifest v" + version + " has no segment for column " + column + " row group " + rowGroup);
  }

  /** Checks the invariant that every column covers every row group exactly once. */
  void validate() {
    for (ColumnSpec c : schema.columns()) {
      int next = 0;
      for (SegmentEntry s : segmentsOf(c.name())) {
        if (s.firstRowGroup() != next) {
          throw new IllegalStateException(
              "manifest v"
                  + version
                  + ": column "
                  + c.name()
                  + " has a gap or overlap at row group "
                  + next);
        }
        next += s.rowGroupCount();
      }
      if (next != rowGroups.size()) {
        throw new IllegalStateException(
            "manifest v"
                + version
                + ": column "
                + c.name()
                + " covers "
                + next
                + " of "
                + rowGroups.size()
                + " row groups");
      }
    }
  }

  public Manifest next(String operation, List<Long> rowGroups, List<SegmentEntry> segments) {
    return new Manifest(
        tableId, version + 1, operation, Instant.now(), schema, properties, rowGroups, segments);
  }
}
