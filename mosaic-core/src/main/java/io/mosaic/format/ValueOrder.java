package io.mosaic.format;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.arrow.vector.util.Text;

/**
 * The order of a column's values as Parquet's statistics order them (strings and binaries by
 * unsigned bytes, numbers by value), so rows sorted by it give row groups whose min/max ranges do
 * not overlap: what re-sorts and {@value TableProperties#SORTED_BY} writes rely on.
 */
public final class ValueOrder {
  private ValueOrder() {}

  /** Nulls first, then {@link #compare}, over values as Arrow's {@code getObject} gives them. */
  public static final Comparator<Object> NULLS_FIRST =
      Comparator.nullsFirst((a, b) -> compare(normalize(a), normalize(b)));

  /** Whether rows can be sorted by a column of this type (its statistics order its values). */
  public static boolean orderable(ColumnType type) {
    return type.kind() != ColumnType.Kind.BOOLEAN && type.kind() != ColumnType.Kind.BINARY;
  }

  /** An Arrow value as {@link #compare} takes it: strings as {@code String}. */
  public static Object normalize(Object value) {
    return value instanceof Text t ? t.toString() : value;
  }

  /** Orders like Parquet's statistics: strings and binaries by unsigned bytes, numbers by value. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compare(Object a, Object b) {
    if (a instanceof String x && b instanceof String y) {
      return Arrays.compareUnsigned(
          x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.compareUnsigned(x, y);
    }
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      return x.compareTo(y);
    }
    if (a instanceof Number x && b instanceof Number y) {
      return a instanceof Double || b instanceof Double || a instanceof Float || b instanceof Float
          ? Double.compare(x.doubleValue(), y.doubleValue())
          : Long.compare(x.longValue(), y.longValue());
    }
    if (a instanceof java.time.LocalDate x && b instanceof Number y) {
      return Long.compare(x.toEpochDay(), y.longValue());
    }
    if (a instanceof Number x && b instanceof java.time.LocalDate y) {
      return Long.compare(x.longValue(), y.toEpochDay());
    }
    return ((Comparable) a).compareTo(b);
  }
}
