package io.mosaic.format;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * One version of a table (docs/format.md, "Manifest"): its schema, row groups and segments.
 * Immutable; a change is a new version published atomically by {@code MosaicTable.commit}. A
 * manifest read from disk has passed {@link #check} (the format's invariants); each segment is
 * checked against its file's footer before a scan uses it ({@link #checkSegmentFooter}).
 *
 * @param rowGroups row count of each row group, in order; all columns share these boundaries
 * @param segments every column covers every row group exactly once
 * @param deletions the deleted positions of row groups, by row group (docs/format.md, "Deletion
 *     vectors"); a row group with none has no entry. Scans skip these rows, and every operation
 *     that renumbers row groups applies them first.
 */
public record Manifest(
    String tableId,
    long version,
    String operation,
    Instant committedAt,
    TableSchema schema,
    Map<String, String> properties,
    List<Long> rowGroups,
    List<SegmentEntry> segments,
    SortedMap<Integer, DeletedRows> deletions) {

  static final int FORMAT_VERSION = 1;

  public Manifest {
    properties = Map.copyOf(properties);
    rowGroups = List.copyOf(rowGroups);
    segments = List.copyOf(segments);
    TreeMap<Integer, DeletedRows> nonEmpty = new TreeMap<>();
    deletions.forEach(
        (g, d) -> {
          if (!d.isEmpty()) {
            nonEmpty.put(g, d);
          }
        });
    deletions = Collections.unmodifiableSortedMap(nonEmpty);
  }

  /** Rows stored in the row groups, deleted ones included (they are still in the segments). */
  public long rowCount() {
    return rowGroups.stream().mapToLong(Long::longValue).sum();
  }

  /** Rows a scan returns: the stored ones less the deleted ones. */
  public long liveRowCount() {
    long deleted = 0;
    for (DeletedRows d : deletions.values()) {
      deleted += d.count();
    }
    return rowCount() - deleted;
  }

  /** Row group {@code g}'s deleted positions, or null when it has none. */
  public DeletedRows deletedRows(int g) {
    return deletions.get(g);
  }

  /** This version with other deleted rows (a DELETE, or an operation that applied them). */
  public Manifest withDeletions(Map<Integer, DeletedRows> next) {
    return new Manifest(
        tableId,
        version,
        operation,
        committedAt,
        schema,
        properties,
        rowGroups,
        segments,
        new TreeMap<>(next));
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
  public void validate() {
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
    new ManifestChecker(this, where).check();
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
      String table, SegmentEntry segment, String file, long fileSize, ParquetMetadata footer) {
    String problem = SegmentFooterCheck.problem(this, segment, fileSize, footer);
    if (problem != null) {
      throw new CorruptTableException(
          segment.describe(file, table) + " does not match manifest v" + version + ": " + problem);
    }
  }

  /**
   * The next version with these row groups and segments; segments that hold no row group (a writer
   * that was only given empty batches) are left out, as they hold no data. The deleted rows stay:
   * the caller keeps this version's row groups at their numbers, or clears them with {@link
   * #withDeletions} when it renumbers (the manifest check refuses a deletion past the row groups).
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
        segments.stream().filter(s -> s.rowGroupCount() > 0).toList(),
        deletions);
  }

  /** This version with another schema, properties and segments (an ALTER TABLE). */
  public Manifest withSchema(
      TableSchema next, Map<String, String> nextProperties, List<SegmentEntry> nextSegments) {
    return new Manifest(
        tableId,
        version,
        operation,
        committedAt,
        next,
        nextProperties,
        rowGroups,
        nextSegments,
        deletions);
  }

  /** This version with other table properties (a maintenance commit that records one). */
  public Manifest withProperties(Map<String, String> next) {
    return new Manifest(
        tableId, version, operation, committedAt, schema, next, rowGroups, segments, deletions);
  }
}
