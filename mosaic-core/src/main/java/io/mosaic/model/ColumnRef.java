package io.mosaic.model;

import io.mosaic.MosaicException;
import java.util.Comparator;
import java.util.Objects;

/**
 * One column of one table: the unit the planner places (paper Section 4.1, "columns are atomic").
 */
public record ColumnRef(String table, String column) implements Comparable<ColumnRef> {
  private static final Comparator<ColumnRef> ORDER =
      Comparator.comparing(ColumnRef::table).thenComparing(ColumnRef::column);

  public ColumnRef {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(column, "column");
    if (table.isBlank() || column.isBlank()) {
      throw MosaicException.invalid(
          "a column needs a table and a column name, got '" + table + "." + column + "'");
    }
  }

  /** Parses {@code table.column}; the column name is everything after the first dot. */
  public static ColumnRef parse(String qualified) {
    int dot = qualified.indexOf('.');
    if (dot <= 0 || dot == qualified.length() - 1) {
      throw MosaicException.invalid(
          "expected table.column, like \"lineitem.l_quantity\", not \"" + qualified + "\"");
    }
    return new ColumnRef(qualified.substring(0, dot), qualified.substring(dot + 1));
  }

  @Override
  public int compareTo(ColumnRef o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    return table + "." + column;
  }
}
