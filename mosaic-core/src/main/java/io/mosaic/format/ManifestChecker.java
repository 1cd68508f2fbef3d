package io.mosaic.format;

import io.mosaic.MosaicException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The checks of {@link Manifest#check}: every invariant of the format (docs/format.md). */
final class ManifestChecker {
  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern CHECKSUM = Pattern.compile("crc32c:[0-9a-f]{8}");

  private final String where;
  private final String tableId;
  private final long version;
  private final String operation;
  private final java.time.Instant committedAt;
  private final TableSchema schema;
  private final Map<String, String> properties;
  private final List<Long> rowGroups;
  private final Map<Integer, DeletedRows> deletions;
  private final List<SegmentEntry> segments;
  // Column positions by exact name, and each column's segments (indexes into segments).
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, List<Integer>> byColumn = new HashMap<>();

  ManifestChecker(Manifest m, String where) {
    this.where = where;
    this.tableId = m.tableId();
    this.version = m.version();
    this.operation = m.operation();
    this.committedAt = m.committedAt();
    this.schema = m.schema();
    this.properties = m.properties();
    this.rowGroups = m.rowGroups();
    this.segments = m.segments();
    this.deletions = m.deletions();
  }

  private CorruptTableException fail(String problem) {
    return new CorruptTableException(where + ": " + problem);
  }

  void check() {
    if (tableId == null || !UUID_SHAPE.matcher(tableId).matches()) {
      throw fail(
          "table id "
              + quote(tableId)
              + " is not a UUID (8-4-4-4-12 hex digits); segment paths start with it");
    }
    if (version < 1) {
      throw fail("version " + version + " is not a version number (1 or more)");
    }
    if (operation == null || operation.isEmpty()) {
      throw fail("the operation is empty");
    }
    if (committedAt == null || schema == null || properties == null) {
      throw fail("the commit time, schema or properties are missing");
    }
    checkProperties();
    for (int g = 0; g < rowGroups.size(); g++) {
      long rows = rowGroups.get(g);
      if (rows < 1 || rows > Integer.MAX_VALUE) {
        throw fail(
            "rowGroups["
                + g
                + "] is "
                + rows
                + " rows; a row group holds 1 to "
                + Integer.MAX_VALUE
                + " rows");
      }
    }
    deletions.forEach(
        (g, d) -> {
          if (g < 0 || g >= rowGroups.size() || d.last() >= rowGroups.get(g)) {
            throw fail(
                "deletions of row group "
                    + g
                    + " reach position "
                    + d.last()
                    + ", past the "
                    + (g < 0 || g >= rowGroups.size()
                        ? rowGroups.size() + " row groups"
                        : rowGroups.get(g) + " rows of that row group"));
          }
        });
    for (int c = 0; c < schema.columns().size(); c++) {
      index.put(schema.columns().get(c).name(), c);
      byColumn.put(schema.columns().get(c).name(), new ArrayList<>());
    }
    Set<String> files = new HashSet<>();
    for (int i = 0; i < segments.size(); i++) {
      checkSegment(i, segments.get(i), files);
      byColumn.get(segments.get(i).column()).add(i);
    }
    for (ColumnSpec c : schema.columns()) {
      checkCoverage(c.name(), byColumn.get(c.name()));
    }
  }

  private void checkProperties() {
    String sortedBy = properties.get(TableProperties.SORTED_BY);
    String sortProblem =
        sortedBy == null ? null : TableProperties.sortedByProblem(schema, sortedBy);
    if (sortProblem != null) {
      throw fail("table property " + sortProblem);
    }
    String rows = properties.get(TableProperties.ROW_GROUP_ROWS);
    if (rows != null) {
      boolean positive;
      try {
        positive = Long.parseLong(rows.trim()) > 0;
      } catch (NumberFormatException e) {
        positive = false;
      }
      if (!positive) {
        throw fail(
            "table property "
                + TableProperties.ROW_GROUP_ROWS
                + " = "
                + quote(rows)
                + " is not a positive whole number of rows");
      }
    }
  }

  private void checkSegment(int i, SegmentEntry s, Set<String> files) {
    Integer position = s.column() == null ? null : index.get(s.column());
    if (position == null) {
      throw fail(
          "segments["
              + i
              + "] is of column "
              + quote(s.column())
              + ", which the schema does not have (it has "
              + String.join(", ", schema.names())
              + ")");
    }
    ColumnSpec column = schema.columns().get(position);
    String at = "segments[" + i + "] (column '" + column.name() + "')";
    if (s.device() == null || s.device().isEmpty()) {
      throw fail(at + " has no device");
    }
    checkPath(at, s.path(), tableId + "/" + schema.ids().get(position) + "/");
    if (!files.add(s.device() + "/" + s.path())) {
      throw fail(
          at
              + " refers to file "
              + s.path()
              + " on device '"
              + s.device()
              + "', as an earlier segment does");
    }
    if (s.codec() == null) {
      throw fail(at + " has no codec");
    }
    int groups = rowGroups.size();
    if (s.firstRowGroup() < 0
        || s.rowGroupCount() < 1
        || (long) s.firstRowGroup() + s.rowGroupCount() > groups) {
      throw fail(
          at
              + " holds "
              + s.rowGroupCount()
              + " row groups from row group "
              + s.firstRowGroup()
              + ", but "
              + (s.rowGroupCount() < 1
                  ? "a segment holds at least one"
                  : "the table's row groups are "
                      + (groups == 0 ? "none" : "0 to " + (groups - 1))));
    }
    if (s.fileBytes() < 0
        || s.compressedBytes() < 0
        || s.uncompressedBytes() < 0
        || s.compressedBytes() > s.fileBytes()) {
      throw fail(
          at
              + " has byte counts fileBytes "
              + s.fileBytes()
              + ", compressedBytes "
              + s.compressedBytes()
              + ", uncompressedBytes "
              + s.uncompressedBytes()
              + ": they cannot be negative, and the column chunks cannot exceed the file");
    }
    if (s.checksum() == null || !CHECKSUM.matcher(s.checksum()).matches()) {
      throw fail(
          at + " has checksum " + quote(s.checksum()) + ", not crc32c:<8 lowercase hex digits>");
    }
    if (!s.chunkChecksums().isEmpty() && s.chunkChecksums().size() != s.rowGroupCount()) {
      throw fail(
          at
              + " has "
              + s.chunkChecksums().size()
              + " chunk checksums for "
              + s.rowGroupCount()
              + " row groups");
    }
    for (int k = 0; k < s.chunkChecksums().size(); k++) {
      if (!CHECKSUM.matcher(s.chunkChecksums().get(k)).matches()) {
        throw fail(
            at
                + " has chunk checksum "
                + quote(s.chunkChecksums().get(k))
                + " for its row group "
                + k
                + ", not crc32c:<8 lowercase hex digits>");
      }
    }
    if (s.stats().size() != s.rowGroupCount()) {
      throw fail(
          at + " has " + s.stats().size() + " stats for " + s.rowGroupCount() + " row groups");
    }
    for (int k = 0; k < s.rowGroupCount(); k++) {
      checkStats(at + ".stats[" + k + "]", column, s.stats().get(k), s.firstRowGroup() + k);
    }
  }

  private void checkPath(String at, String path, String folder) {
    String problem = null;
    if (path == null || path.isEmpty()) {
      problem = "is empty";
    } else if (path.startsWith("/")) {
      problem = "is absolute";
    } else if (path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0) {
      problem = "contains a backslash or NUL";
    } else {
      for (String part : path.split("/", -1)) {
        if (part.isEmpty() || part.equals(".") || part.equals("..")) {
          problem = "has " + (part.isEmpty() ? "an empty" : "a '" + part + "'") + " component";
          break;
        }
      }
    }
    if (problem == null && !path.startsWith(folder)) {
      problem = "is outside the column's folder on the device";
    }
    if (problem != null) {
      throw fail(
          at
              + " has path "
              + quote(path)
              + ", which "
              + problem
              + "; a segment of this column lies under '"
              + folder
              + "' (<table id>/<column id>/, relative to the device root, without '.', '..' or"
              + " empty components)");
    }
  }

  private void checkStats(String at, ColumnSpec column, RowGroupStats st, int group) {
    if (st == null) {
      throw fail(at + " is missing");
    }
    long rows = rowGroups.get(group);
    if (st.nulls() < 0 || st.nulls() > rows) {
      throw fail(
          at
              + " counts "
              + st.nulls()
              + " nulls in row group "
              + group
              + ", which has "
              + rows
              + " rows");
    }
    if (!column.nullable() && st.nulls() != 0) {
      throw fail(at + " counts " + st.nulls() + " nulls in a column declared not nullable");
    }
    String min = ValueCodec.invalid(column.type(), st.min());
    String max = ValueCodec.invalid(column.type(), st.max());
    if (min != null || max != null) {
      throw fail(at + (min != null ? ": min " + min : ": max " + max));
    }
    if ((st.min() == null) != (st.max() == null)) {
      throw fail(at + " has a min or a max without the other");
    }
    if (st.min() != null && !ValueCodec.ordered(column.type(), st.min(), st.max())) {
      throw fail(at + " has min " + st.min() + " greater than max " + st.max());
    }
    boolean allNull = st.nulls() == rows;
    if (st.dataBytes() != -1) {
      if (!column.type().isVariableWidth()) {
        throw fail(at + " has dataBytes, which only strings and binaries keep");
      }
      if (st.dataBytes() < 0 || (allNull && st.dataBytes() != 0)) {
        throw fail(
            at
                + " has dataBytes "
                + st.dataBytes()
                + ", not a byte count"
                + (allNull ? " of 0 for a row group whose values are all null" : ""));
      }
    }
    if (st.distinct() != null) {
      DistinctSketch sketch;
      try {
        sketch = DistinctSketch.fromBase64(st.distinct());
      } catch (MosaicException e) {
        throw fail(at + ".distinct " + e.getMessage());
      }
      // A sketch saw exactly the non-null values: none when all are null, some otherwise.
      if (sketch.isEmpty() != allNull) {
        throw fail(
            at
                + ".distinct is "
                + (allNull ? "not empty, but all values are null" : "empty, but")
                + (allNull
                    ? ""
                    : " the row group has " + (rows - st.nulls()) + " non-null values"));
      }
    }
  }

  /** Every row group exactly once, in order: no gap, no overlap, nothing beyond the end. */
  private void checkCoverage(String column, List<Integer> order) {
    int next = 0;
    int previous = -1;
    order.sort(Comparator.comparingInt(i -> segments.get(i).firstRowGroup()));
    for (int i : order) {
      SegmentEntry s = segments.get(i);
      if (s.firstRowGroup() != next) {
        String after =
            previous < 0
                ? "the column's first segment"
                : "the column's previous segment, segments["
                    + previous
                    + "], ends at row group "
                    + (next - 1);
        throw fail(
            "segments["
                + i
                + "] (column '"
                + column
                + "') starts at row group "
                + s.firstRowGroup()
                + (previous < 0 ? " but is " + after : " but " + after)
                + (s.firstRowGroup() > next
                    ? ": row group " + next + " is in no segment"
                    : ": row group " + s.firstRowGroup() + " is in two segments"));
      }
      next += s.rowGroupCount();
      previous = i;
    }
    if (next != rowGroups.size()) {
      throw fail(
          "column '"
              + column
              + "' has segments for "
              + next
              + " of the table's "
              + rowGroups.size()
              + " row groups"
              + (next == 0 ? " (it has no segment)" : ""));
    }
  }

  private static String quote(String s) {
    return s == null ? "null" : "'" + s + "'";
  }
}
