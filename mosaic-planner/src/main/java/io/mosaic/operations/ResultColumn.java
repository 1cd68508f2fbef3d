package io.mosaic.operations;

import java.util.List;

/**
 * One column of a maintenance operation's result set. Spark's procedures and Trino's tables build
 * their schemas from these lists, so the names and types are the same in both (docs/operations.md).
 *
 * @param nullable whether the value may be null (e.g. a trace epoch when nothing was applied)
 */
public record ResultColumn(String name, Type type, boolean nullable) {
  /** The value types a result holds; each engine maps them to its own. */
  public enum Type {
    /** {@code String} */
    STRING,
    /** {@code Boolean} */
    BOOLEAN,
    /** {@code Integer} */
    INT,
    /** {@code Long} */
    LONG,
    /** {@code Double} */
    DOUBLE,
    /** {@code java.time.Instant} */
    TIMESTAMP
  }

  static ResultColumn of(String name, Type type) {
    return new ResultColumn(name, type, false);
  }

  static ResultColumn nullable(String name, Type type) {
    return new ResultColumn(name, type, true);
  }

  /** The names, in order. */
  public static List<String> names(List<ResultColumn> columns) {
    return columns.stream().map(ResultColumn::name).toList();
  }
}
