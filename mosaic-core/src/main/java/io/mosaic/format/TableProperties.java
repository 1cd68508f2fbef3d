package io.mosaic.format;

/**
 * The keys of a manifest's {@code properties} that Mosaic itself reads (docs/format.md): how a
 * table cuts row groups, where its columns go before they have data, and how its rows are ordered.
 * They belong to the format, since the manifest checker and readers of every layer interpret them.
 */
public final class TableProperties {
  /** Table property: rows per row group (default 2^20). */
  public static final String ROW_GROUP_ROWS = "row_group_rows";

  /** Table property: device for columns that have no placement yet (default: the first device). */
  public static final String DEFAULT_DEVICE = "default_device";

  /** Table property prefix: {@code column.<name>.device} places a column before it has data. */
  public static final String COLUMN_DEVICE_PREFIX = "column.";

  /**
   * Table property suffix: {@code column.<name>.codec} stores a column with another codec than its
   * device's (a codec change); appends and the column's segments follow it until a move to another
   * device drops it.
   */
  public static final String COLUMN_CODEC_SUFFIX = ".codec";

  /**
   * Table property: the column the table's rows were last sorted by ({@code mosaic maintain}'s
   * re-sort), so that min/max skipping prunes row groups on it. Rows appended after the re-sort are
   * not in that order.
   */
  public static final String CLUSTERING = "clustering";

  private TableProperties() {}
}
