package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.format.CharValues;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.ValueCodec;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides from min/max/null statistics which row groups a predicate cannot rule out (DESIGN section
 * 5). It only ever skips a row group the statistics prove empty of matches, so results stay exact;
 * engines still apply the predicate to the rows.
 */
public final class RowGroupFilter {
  /** One term of the predicate bound to its column, its values in the statistics' types. */
  record Bound(ColumnPredicate predicate, ColumnSpec column, List<Object> values) {}

  private final Manifest manifest;
  private final List<Bound> terms = new ArrayList<>();

  /**
   * Binds {@code predicate} to the version's schema; unknown columns and bad types are errors. The
   * one place a predicate is bound: a plan binds its predicate, and a scan's state binds the
   * request's, and the request's with each new value of its narrowing predicate ({@link
   * ScanState}).
   */
  public static RowGroupFilter bind(String table, Manifest manifest, Predicate predicate) {
    return new RowGroupFilter(table, manifest, predicate);
  }

  private RowGroupFilter(String table, Manifest manifest, Predicate predicate) {
    this.manifest = manifest;
    for (Bound t : bindTerms(table, manifest, predicate)) {
      if (t.column().type().kind() == ColumnType.Kind.CHAR && ordered(t.predicate().op())) {
        // char(n) orders as if padded with spaces, so 'a\t' < 'a' although its stored (trimmed)
        // bytes sort after: byte-ordered statistics cannot rule a range out. = and in can.
        continue;
      }
      terms.add(t);
    }
  }

  /**
   * Every term of {@code predicate} bound to {@code manifest}'s schema, its values in the
   * statistics' types (a char(n) value trimmed); unknown columns and bad types are errors. {@link
   * RowMatcher} tests rows with them.
   */
  static List<Bound> bindTerms(String table, Manifest manifest, Predicate predicate) {
    List<Bound> bound = new ArrayList<>();
    for (ColumnPredicate p : predicate.terms()) {
      ColumnSpec column;
      try {
        column = manifest.schema().column(p.column());
      } catch (MosaicException e) {
        throw new MosaicException(
            e.kind(), "predicate on table " + table + ": " + e.getMessage(), e);
      }
      checkComparable(table, column, p);
      List<Object> values = new ArrayList<>();
      for (Object v : p.values()) {
        values.add(v == null ? null : coerce(table, column, p, v));
      }
      bound.add(new Bound(p, column, values));
    }
    return bound;
  }

  private static void checkComparable(String table, ColumnSpec column, ColumnPredicate p) {
    ColumnType.Kind kind = column.type().kind();
    boolean ordered = ordered(p.op());
    boolean nullTest =
        p.op() == ColumnPredicate.Op.IS_NULL || p.op() == ColumnPredicate.Op.IS_NOT_NULL;
    if (nullTest) {
      return;
    }
    if (kind == ColumnType.Kind.BINARY || (kind == ColumnType.Kind.BOOLEAN && ordered)) {
      throw MosaicException.invalid(
          "predicate '"
              + p
              + "' on table "
              + table
              + ": column "
              + column.name()
              + " is "
              + column.type()
              + ", which cannot be compared with "
              + p.op().sql
              + (kind == ColumnType.Kind.BOOLEAN ? "; use = or in" : "; only is null applies"));
    }
  }

  static boolean ordered(ColumnPredicate.Op op) {
    return switch (op) {
      case LT, LE, GT, GE, BETWEEN -> true;
      case EQ, IN, IS_NULL, IS_NOT_NULL -> false;
    };
  }

  /** Converts an engine's value to the type statistics are kept in (see RowGroupStats). */
  private static Object coerce(String table, ColumnSpec column, ColumnPredicate p, Object v) {
    try {
      return switch (column.type().kind()) {
        case BOOLEAN -> (Boolean) v;
        case INT8, INT16, INT32, INT64 -> exactLong(v);
        case DATE -> v instanceof LocalDate d ? d.toEpochDay() : exactLong(v);
        case TIMESTAMP, TIMESTAMP_TZ ->
            v instanceof Instant i
                ? i.getEpochSecond() * 1_000_000L + i.getNano() / 1000
                : v instanceof LocalDateTime t
                    ? coerce(table, column, p, t.toInstant(ZoneOffset.UTC))
                    : exactLong(v);
        case FLOAT, DOUBLE -> ((Number) v).doubleValue();
        case DECIMAL -> v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
        case STRING -> (String) v;
        // 'ab  ' equals the stored 'ab' in char(n) (engines may hand the value padded).
        case CHAR -> CharValues.trim((String) v);
        case TIME -> v instanceof LocalTime t ? t.toNanoOfDay() / 1000 : exactLong(v);
        // A UUID, or its canonical text (lowercase 8-4-4-4-12 hex digits, as Spark reads uuid
        // columns): such text sorts as the 16 bytes do, unsigned, the order of Parquet's
        // statistics. Other text (upper case, short groups) sorts otherwise: not usable.
        case UUID -> ValueCodec.uuidBytes(v instanceof java.util.UUID u ? u : canonicalUuid(v));
        case BINARY -> throw new ClassCastException();
      };
    } catch (ClassCastException | IllegalArgumentException | ArithmeticException e) {
      throw new MosaicException(
          MosaicException.Kind.INVALID_ARGUMENT,
          "predicate '"
              + p
              + "' on table "
              + table
              + ": value "
              + v
              + " ("
              + v.getClass().getSimpleName()
              + ") does not fit column "
              + column.name()
              + " of type "
              + column.type(),
          e);
    }
  }

  private static java.util.UUID canonicalUuid(Object v) {
    String text = (String) v;
    java.util.UUID u = java.util.UUID.fromString(text);
    if (!u.toString().equals(text)) {
      throw new IllegalArgumentException("not a UUID's canonical text: " + text);
    }
    return u;
  }

  private static long exactLong(Object v) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      return d.longValueExact();
    }
    throw new ClassCastException();
  }

  /** Row groups in {@code [from, to)} whose statistics do not rule the predicate out. */
  public List<Integer> select(int from, int to) {
    List<Integer> selected = new ArrayList<>();
    for (int g = from; g < to; g++) {
      if (mightMatch(g)) {
        selected.add(g);
      }
    }
    return selected;
  }

  boolean mightMatch(int rowGroup) {
    for (Bound t : terms) {
      RowGroupStats s = stats(t.column(), rowGroup);
      if (!mightMatch(t, s.min(), s.max(), s.nulls(), manifest.rowGroups().get(rowGroup))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The share of row group {@code rowGroup}'s rows that page statistics could rule out, estimated
   * from the manifest alone: for a term on a column sorted across the row groups (each row group's
   * minimum at or above the previous one's maximum), the part of the row group's range of values
   * the term excludes, taking values as spread evenly over it (strings: half where the term cuts
   * the range); the most selective term counts. Unsorted columns' pages each span about their row
   * group's range, so a range on them rules none out; null tests are not counted (whether pages are
   * all null or free of nulls is not in the manifest).
   */
  double prunableShare(int rowGroup) {
    double kept = 1;
    for (Bound t : terms) {
      ColumnPredicate.Op op = t.predicate().op();
      if (op == ColumnPredicate.Op.IS_NULL
          || op == ColumnPredicate.Op.IS_NOT_NULL
          || !sorted(t.column())) {
        continue;
      }
      RowGroupStats s = stats(t.column(), rowGroup);
      kept = Math.min(kept, keptShare(t, s.min(), s.max()));
    }
    return 1 - kept;
  }

  // The share of [min, max] where term t may hold, values spread evenly.
  private static double keptShare(Bound t, Object min, Object max) {
    if (min == null || max == null) {
      return 1;
    }
    List<Object> v = t.values();
    Object lo;
    Object hi;
    switch (t.predicate().op()) {
      case EQ -> {
        lo = v.get(0);
        hi = v.get(0);
      }
      case LT, LE -> {
        lo = min;
        hi = v.get(0);
      }
      case GT, GE -> {
        lo = v.get(0);
        hi = max;
      }
      case BETWEEN -> {
        lo = v.get(0);
        hi = v.get(1);
      }
      case IN -> {
        // Each value inside the range keeps about the page holding it: a hundredth, as a guess.
        long inside =
            v.stream().filter(x -> x != null && cmp(x, min) >= 0 && cmp(x, max) <= 0).count();
        return cmp(min, max) == 0 ? (inside > 0 ? 1 : 0) : Math.min(1, inside * 0.01);
      }
      default -> {
        return 1;
      }
    }
    if (cmp(lo, min) < 0) {
      lo = min;
    }
    if (cmp(hi, max) > 0) {
      hi = max;
    }
    if (cmp(lo, hi) > 0) {
      return 0;
    }
    if (cmp(min, max) == 0 || (cmp(lo, min) == 0 && cmp(hi, max) == 0)) {
      return 1;
    }
    Double a = number(min);
    Double b = number(max);
    Double x = number(lo);
    Double y = number(hi);
    if (a == null || b == null || x == null || y == null) {
      return 0.5; // strings: the term cuts the range somewhere
    }
    return Math.max(0, Math.min(1, (y - x) / (b - a)));
  }

  private static Double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : null;
  }

  private final Map<String, Boolean> sorted = new HashMap<>();

  private boolean sorted(ColumnSpec column) {
    return sorted.computeIfAbsent(
        column.name(),
        c -> {
          Object last = null;
          for (int g = 0; g < manifest.rowGroups().size(); g++) {
            RowGroupStats s = stats(column, g);
            if (s.min() == null || s.max() == null) {
              continue; // all null, or no statistics: no order to break
            }
            if (last != null && cmp(s.min(), last) < 0) {
              return false;
            }
            last = s.max();
          }
          return true;
        });
  }

  /** The predicate's terms, bound (for {@link PageFilter}, which tests them on pages). */
  List<Bound> terms() {
    return terms;
  }

  private RowGroupStats stats(ColumnSpec column, int rowGroup) {
    var segment = manifest.segmentFor(column.name(), rowGroup);
    return segment.stats().get(rowGroup - segment.firstRowGroup());
  }

  /**
   * Whether values of {@code rows} rows with these statistics may satisfy term {@code t}: the one
   * comparison semantics of row groups (manifest statistics) and pages (column indexes).
   *
   * @param min the smallest value in the statistics' type, or null when unknown
   * @param max the largest, or null when unknown
   * @param nulls the null count, or -1 when unknown
   */
  static boolean mightMatch(Bound t, Object min, Object max, long nulls, long rows) {
    boolean allNull = nulls >= rows;
    switch (t.predicate().op()) {
      case IS_NULL:
        return nulls != 0;
      case IS_NOT_NULL:
        return !allNull;
      default:
        break;
    }
    if (allNull) {
      return false; // comparisons with null are never true
    }
    if (min == null || max == null) {
      return true; // no statistics: cannot rule out
    }
    List<Object> v = t.values();
    return switch (t.predicate().op()) {
      case EQ -> cmp(v.get(0), min) >= 0 && cmp(v.get(0), max) <= 0;
      case LT -> cmp(min, v.get(0)) < 0;
      case LE -> cmp(min, v.get(0)) <= 0;
      case GT -> cmp(max, v.get(0)) > 0;
      case GE -> cmp(max, v.get(0)) >= 0;
      case BETWEEN -> cmp(max, v.get(0)) >= 0 && cmp(min, v.get(1)) <= 0;
      case IN -> v.stream().anyMatch(x -> x != null && cmp(x, min) >= 0 && cmp(x, max) <= 0);
      default -> true;
    };
  }

  /** Compares like Parquet orders statistics: strings by unsigned UTF-8 bytes. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static int cmp(Object a, Object b) {
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
    if (a instanceof Number x
        && b instanceof Number y
        && (a instanceof Double || b instanceof Double)) {
      // -0.0 = 0.0 in SQL, and a Parquet writer may keep either zero as min or max. NaN stays
      // above all (Spark's order); statistics never hold it (ValueCodec), so a row group with NaN
      // has none and is kept.
      double u = x.doubleValue();
      double w = y.doubleValue();
      return u == w ? 0 : Double.compare(u, w);
    }
    return ((Comparable) a).compareTo(b);
  }
}
