package io.mosaic.table;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * One version of a table (DESIGN section 3): its schema, row groups and segments. Immutable; a
 * change is a new version published atomically by {@link MosaicTable#commit}. A manifest read from
 * disk has passed {@link #check} (the format's invariants); each segment is checked against its
 * file's footer before a scan uses it ({@link #checkSegmentFooter}).
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

  /**
   * Checks a proposed version before it is published: the same checks as on load ({@link #check}),
   * thrown as an {@link IllegalStateException}, since a commit that builds an invalid version is a
   * bug in the committer, not a corrupt table.
   */
  void validate() {
    try {
      check("proposed manifest v" + version + " of table id " + tableId);
    } catch (CorruptTableException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /**
   * Checks every invariant of the format (docs/format.md, "Invariants checked on load"): a
   * manifest's checksum proves that its bytes are what a writer wrote, not that they make sense.
   * {@code where} names the manifest in the message.
   *
   * @throws CorruptTableException naming {@code where} and the broken invariant
   */
  public void check(String where) {
    new Checker(where).check();
  }

  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern CHECKSUM = Pattern.compile("crc32c:[0-9a-f]{8}");

  /** The checks of {@link #check}, with the manifest's name for messages. */
  private final class Checker {
    private final String where;
    // Column positions by exact name, and each column's segments (indexes into segments).
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, List<Integer>> byColumn = new HashMap<>();

    Checker(String where) {
      this.where = where;
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
      String rows = properties.get(MosaicTable.ROW_GROUP_ROWS);
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
                  + MosaicTable.ROW_GROUP_ROWS
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
      checkPath(at, s.path(), tableId + "/" + position + "/");
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
                + "' (<table id>/<column index>/, relative to the device root, without '.', '..' or"
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
  }

  /**
   * Checks a segment's Parquet footer against this manifest before its data is used
   * (docs/format.md, "Checked before use"): one column, named and typed as the schema says
   * (physical type, annotation, repetition); as many row groups as the segment holds, each with the
   * manifest's row count and codec; the file's size and the chunks' byte sums as recorded. Cheap:
   * the footer is already in memory.
   *
   * @param table the table's name, for messages
   * @param fileSize the segment file's size on its device
   * @throws CorruptTableException naming table, column, device, file and what differs
   */
  public void checkSegmentFooter(
      String table, SegmentEntry segment, Path file, long fileSize, ParquetMetadata footer) {
    String problem = footerProblem(segment, fileSize, footer);
    if (problem != null) {
      throw new CorruptTableException(
          segment.describe(file, table) + " does not match manifest v" + version + ": " + problem);
    }
  }

  private String footerProblem(SegmentEntry segment, long fileSize, ParquetMetadata footer) {
    if (fileSize != segment.fileBytes()) {
      return "the file is " + fileSize + " bytes, the manifest says " + segment.fileBytes();
    }
    ColumnSpec column = schema.column(segment.column());
    MessageType fileSchema = footer.getFileMetaData().getSchema();
    if (fileSchema.getFieldCount() != 1 || !fileSchema.getType(0).isPrimitive()) {
      return "it holds " + fileSchema.getFields() + ", not one flat column";
    }
    PrimitiveType have = fileSchema.getType(0).asPrimitiveType();
    PrimitiveType want =
        column.type().parquetType(column.name(), column.nullable()).asPrimitiveType();
    if (!have.getName().equals(want.getName())) {
      return "it holds column '" + have.getName() + "', not '" + want.getName() + "'";
    }
    if (have.getPrimitiveTypeName() != want.getPrimitiveTypeName()
        || have.getRepetition() != want.getRepetition()
        || have.getTypeLength() != want.getTypeLength()
        || !Objects.equals(have.getLogicalTypeAnnotation(), want.getLogicalTypeAnnotation())) {
      return "it holds Parquet type '"
          + have
          + "', but column '"
          + column.name()
          + "' ("
          + column.type()
          + (column.nullable() ? "" : " not null")
          + ") is stored as '"
          + want
          + "'";
    }
    List<BlockMetaData> blocks = footer.getBlocks();
    if (blocks.size() != segment.rowGroupCount()) {
      return "it has "
          + blocks.size()
          + " row groups, the manifest says "
          + segment.rowGroupCount()
          + " (table row groups "
          + segment.firstRowGroup()
          + " to "
          + (segment.firstRowGroup() + segment.rowGroupCount() - 1)
          + ")";
    }
    CompressionCodecName codec = segment.codec().parquetCodec();
    long compressed = 0;
    long uncompressed = 0;
    for (int k = 0; k < blocks.size(); k++) {
      BlockMetaData block = blocks.get(k);
      int group = segment.firstRowGroup() + k;
      String at = "its row group " + k + " (table row group " + group + ")";
      long rows = rowGroups.get(group);
      if (block.getRowCount() != rows) {
        return at + " has " + block.getRowCount() + " rows, the manifest says " + rows;
      }
      if (block.getColumns().size() != 1) {
        return at + " has " + block.getColumns().size() + " column chunks, not one";
      }
      ColumnChunkMetaData chunk = block.getColumns().get(0);
      if (chunk.getValueCount() != rows) {
        return at + " holds " + chunk.getValueCount() + " values for " + rows + " rows";
      }
      if (chunk.getCodec() != codec) {
        return at
            + " is compressed with "
            + chunk.getCodec()
            + ", but the manifest says "
            + segment.codec().configName()
            + " ("
            + codec
            + ")";
      }
      if (chunk.getStartingPos() < 4
          || chunk.getTotalSize() <= 0
          || chunk.getTotalSize() > Integer.MAX_VALUE
          || chunk.getStartingPos() + chunk.getTotalSize() > fileSize) {
        return at
            + " claims bytes "
            + chunk.getStartingPos()
            + " + "
            + chunk.getTotalSize()
            + " of a "
            + fileSize
            + "-byte file";
      }
      String stats = statsProblem(column.type(), chunk.getStatistics(), segment.stats().get(k));
      if (stats != null) {
        return at + " " + stats;
      }
      compressed += chunk.getTotalSize();
      uncompressed += chunk.getTotalUncompressedSize();
    }
    if (compressed != segment.compressedBytes() || uncompressed != segment.uncompressedBytes()) {
      return "its column chunks are "
          + compressed
          + " bytes ("
          + uncompressed
          + " uncompressed), the manifest says "
          + segment.compressedBytes()
          + " ("
          + segment.uncompressedBytes()
          + ")";
    }
    return null;
  }

  /**
   * How a row group's statistics in the footer differ from the manifest's, or null. Both come from
   * the same writer, so they differ only if the manifest names another file (another segment of the
   * column with the same shape) or was edited. Compared only where the footer has them.
   */
  private static String statsProblem(
      ColumnType type, Statistics<?> footer, RowGroupStats manifest) {
    if (footer == null || footer.isEmpty()) {
      return null;
    }
    if (footer.isNumNullsSet() && footer.getNumNulls() != manifest.nulls()) {
      return "counts " + footer.getNumNulls() + " nulls, the manifest says " + manifest.nulls();
    }
    if (!footer.hasNonNullValue() || manifest.min() == null) {
      return null;
    }
    RowGroupStats have = ValueCodec.fromParquet(type, footer);
    if (have.min() == null
        || have.max() == null
        || (ValueCodec.same(type, have.min(), manifest.min())
            && ValueCodec.same(type, have.max(), manifest.max()))) {
      return null;
    }
    return "has min "
        + ValueCodec.show(have.min())
        + " and max "
        + ValueCodec.show(have.max())
        + ", the manifest says "
        + ValueCodec.show(manifest.min())
        + " and "
        + ValueCodec.show(manifest.max());
  }

  private static String quote(String s) {
    return s == null ? "null" : "'" + s + "'";
  }

  /**
   * The next version with these row groups and segments; segments that hold no row group (a writer
   * that was only given empty batches) are left out, as they hold no data.
   */
  public Manifest next(String operation, List<Long> rowGroups, List<SegmentEntry> segments) {
    return new Manifest(
        tableId,
        version + 1,
        operation,
        Instant.now(),
        schema,
        properties,
        rowGroups,
        segments.stream().filter(s -> s.rowGroupCount() > 0).toList());
  }
}
