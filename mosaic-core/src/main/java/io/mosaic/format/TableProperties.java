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

  /**
   * Table property: the column every writer sorts each row group's rows by before it writes them
   * (ascending, nulls first; docs/format.md, "Sort order on write"), so that each row group's pages
   * hold ranges of it and, when the engine also orders the rows it hands the writers, row groups do
   * too.
   */
  public static final String SORTED_BY = "sorted_by";

  /**
   * Prefixes of properties named {@code <prefix><column name>} that belong to one column: an ALTER
   * TABLE renames them with the column and drops them with it (docs/format.md, "Column ids"), as it
   * does {@code column.<name>.*}. Trino records a varchar's declared length so.
   */
  public static final java.util.List<String> COLUMN_NAMED_PREFIXES =
      java.util.List.of("trino.varchar_length.");

  /**
   * The key {@code key} has when column {@code from} is named {@code to} ({@code to} null: the
   * column is dropped, and so is the key), or {@code key} itself if it is not the column's.
   */
  public static String renamedKey(String key, String from, String to) {
    String own = COLUMN_DEVICE_PREFIX + from + ".";
    if (key.startsWith(own) && key.indexOf('.', own.length()) < 0) {
      return to == null ? null : COLUMN_DEVICE_PREFIX + to + "." + key.substring(own.length());
    }
    for (String prefix : COLUMN_NAMED_PREFIXES) {
      if (key.equals(prefix + from)) {
        return to == null ? null : prefix + to;
      }
    }
    return key;
  }

  /**
   * What is wrong with {@value #SORTED_BY} {@code = column} for {@code schema}, or null: it must
   * name a column whose values have an order ({@link ValueOrder#orderable}).
   */
  public static String sortedByProblem(TableSchema schema, String column) {
    ColumnSpec key =
        schema.columns().stream().filter(c -> c.name().equals(column)).findFirst().orElse(null);
    if (key == null) {
      return SORTED_BY
          + " = '"
          + column
          + "' names no column of the table; name one of "
          + String.join(", ", schema.names());
    }
    if (!ValueOrder.orderable(key.type())) {
      return SORTED_BY
          + " = '"
          + column
          + "' names a "
          + key.type()
          + " column, whose values have no order to sort by; name a column of a number, date,"
          + " time, timestamp or string type";
    }
    return null;
  }

  private TableProperties() {}
}
