package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.unsafe.types.UTF8String;

/** Spark's data source filters as Mosaic predicates, where they map; the rest stay with Spark. */
final class SparkFilters {
  private SparkFilters() {}

  /** The terms of {@code filter} Mosaic can skip row groups with (empty if none). */
  static List<ColumnPredicate> convert(Filter filter) {
    if (filter instanceof And and) {
      List<ColumnPredicate> terms = new ArrayList<>(convert(and.left()));
      terms.addAll(convert(and.right()));
      return terms;
    }
    return one(filter).map(List::of).orElse(List.of());
  }

  private static Optional<ColumnPredicate> one(Filter f) {
    if (f instanceof EqualTo e) {
      return Optional.of(Predicate.eq(e.attribute(), value(e.value())));
    } else if (f instanceof LessThan e) {
      return Optional.of(Predicate.lt(e.attribute(), value(e.value())));
    } else if (f instanceof LessThanOrEqual e) {
      return Optional.of(Predicate.le(e.attribute(), value(e.value())));
    } else if (f instanceof GreaterThan e) {
      return Optional.of(Predicate.gt(e.attribute(), value(e.value())));
    } else if (f instanceof GreaterThanOrEqual e) {
      return Optional.of(Predicate.ge(e.attribute(), value(e.value())));
    } else if (f instanceof In in) {
      return Optional.of(
          Predicate.in(
              in.attribute(), Arrays.stream(in.values()).map(SparkFilters::value).toList()));
    } else if (f instanceof IsNull n) {
      return Optional.of(Predicate.isNull(n.attribute()));
    } else if (f instanceof IsNotNull n) {
      return Optional.of(Predicate.isNotNull(n.attribute()));
    }
    return Optional.empty();
  }

  /** Spark's filter values (java.sql dates, Scala decimals, ...) as the retriever takes them. */
  private static Object value(Object v) {
    if (v instanceof Date d) {
      return d.toLocalDate();
    }
    if (v instanceof Timestamp t) {
      return t.toInstant();
    }
    if (v instanceof UTF8String s) {
      return s.toString();
    }
    if (v instanceof scala.math.BigDecimal d) {
      return d.bigDecimal();
    }
    if (v instanceof org.apache.spark.sql.types.Decimal d) {
      return d.toJavaBigDecimal();
    }
    return v;
  }

  /**
   * An overwrite's condition as Mosaic applies it: the conjunction {@link #predicate}, or no row at
   * all when {@link #never} (a term compares with NULL, or is false).
   */
  record Condition(Predicate predicate, boolean never) {}

  /**
   * Spark's V2 predicates of an overwrite (ANDed, as {@code SupportsOverwriteV2} hands them) as one
   * Mosaic predicate with the same rows, or an UNSUPPORTED error naming the first term that has no
   * exact translation: deleting fewer or more rows than the condition says would be a wrong result,
   * so nothing is approximated (docs/spark.md, "Overwrite by a condition").
   */
  static Condition exact(
      String table, org.apache.spark.sql.connector.expressions.filter.Predicate[] predicates) {
    List<ColumnPredicate> terms = new ArrayList<>();
    boolean never = false;
    for (var p : predicates) {
      never |= exact(table, p, terms);
    }
    return new Condition(new Predicate(terms), never);
  }

  // Adds p's terms; true when p is never true.
  private static boolean exact(
      String table,
      org.apache.spark.sql.connector.expressions.filter.Predicate p,
      List<ColumnPredicate> terms) {
    Expression[] c = p.children();
    switch (p.name()) {
      case "ALWAYS_TRUE":
        return false;
      case "ALWAYS_FALSE":
        return true;
      case "AND":
        boolean left =
            exact(table, (org.apache.spark.sql.connector.expressions.filter.Predicate) c[0], terms);
        return exact(
                table, (org.apache.spark.sql.connector.expressions.filter.Predicate) c[1], terms)
            | left;
      case "NOT":
        {
          // NOT of a null test is the other one; other negations are disjunctions (k <> 3 is k < 3
          // OR k > 3), which a conjunction cannot hold.
          var inner = (org.apache.spark.sql.connector.expressions.filter.Predicate) c[0];
          String name = inner.name();
          if (!name.equals("IS_NULL") && !name.equals("IS_NOT_NULL")) {
            throw notExact(table, p, "Mosaic has no exact form of NOT");
          }
          String column = column(table, p, inner.children()[0]);
          terms.add(
              name.equals("IS_NULL") ? Predicate.isNotNull(column) : Predicate.isNull(column));
          return false;
        }
      case "IS_NULL", "IS_NOT_NULL":
        {
          String column = column(table, p, c[0]);
          terms.add(
              p.name().equals("IS_NULL") ? Predicate.isNull(column) : Predicate.isNotNull(column));
          return false;
        }
      case "IN":
        {
          String column = column(table, p, c[0]);
          List<Object> values = new ArrayList<>();
          for (int i = 1; i < c.length; i++) {
            values.add(literal(table, p, c[i])); // a NULL in the list matches nothing
          }
          terms.add(Predicate.in(column, values));
          return false;
        }
      case "=", "<=>", "<", "<=", ">", ">=":
        {
          boolean flipped = c[0] instanceof Literal<?>;
          String column = column(table, p, c[flipped ? 1 : 0]);
          Object value = literal(table, p, c[flipped ? 0 : 1]);
          String op = flipped ? flip(p.name()) : p.name();
          if (value == null) {
            if (op.equals("<=>")) {
              terms.add(Predicate.isNull(column));
              return false;
            }
            return true; // a comparison with NULL is never true
          }
          terms.add(
              switch (op) {
                case "=", "<=>" -> Predicate.eq(column, value);
                case "<" -> Predicate.lt(column, value);
                case "<=" -> Predicate.le(column, value);
                case ">" -> Predicate.gt(column, value);
                default -> Predicate.ge(column, value);
              });
          return false;
        }
      default:
        throw notExact(table, p, "Mosaic has no exact form of " + p.name());
    }
  }

  private static String flip(String op) {
    return switch (op) {
      case "<" -> ">";
      case "<=" -> ">=";
      case ">" -> "<";
      case ">=" -> "<=";
      default -> op;
    };
  }

  private static String column(
      String table, org.apache.spark.sql.connector.expressions.filter.Predicate p, Expression e) {
    if (e instanceof NamedReference ref && ref.fieldNames().length == 1) {
      return ref.fieldNames()[0];
    }
    throw notExact(table, p, e + " is not a column of the table");
  }

  /** A literal's value as core's predicates take it (see RowGroupFilter's coerce), or null. */
  private static Object literal(
      String table, org.apache.spark.sql.connector.expressions.filter.Predicate p, Expression e) {
    if (!(e instanceof Literal<?> literal)) {
      throw notExact(table, p, e + " is not a literal");
    }
    Object v = literal.value();
    DataType type = literal.dataType();
    if (v == null) {
      return null;
    }
    if (type instanceof StringType) {
      return v.toString();
    }
    if (type instanceof DecimalType) {
      return ((org.apache.spark.sql.types.Decimal) v).toJavaBigDecimal();
    }
    if (type instanceof DateType) {
      return LocalDate.ofEpochDay(((Number) v).longValue());
    }
    if (type instanceof TimeType) {
      long nanos = ((Number) v).longValue();
      if (nanos % 1000 != 0) {
        // Mosaic's time holds microseconds: no stored value equals it, and ranges would round.
        throw notExact(table, p, e + " has nanoseconds; Mosaic's time holds microseconds");
      }
      return LocalTime.ofNanoOfDay(nanos);
    }
    if (type instanceof BinaryType) {
      throw notExact(table, p, "binary values cannot be compared");
    }
    // Booleans, integers, floats and doubles as they are; timestamps as microseconds (a long).
    return v;
  }

  private static MosaicException notExact(
      String table, org.apache.spark.sql.connector.expressions.filter.Predicate p, String why) {
    String text;
    try {
      text = p.toString(); // Spark's SQL text of it
    } catch (RuntimeException e) {
      text = p.name() + Arrays.toString(p.children());
    }
    return MosaicException.unsupported(
        "cannot overwrite table "
            + table
            + " where "
            + text
            + ": "
            + why
            + ". An overwrite by a condition takes comparisons of a column with literals (=, <=>,"
            + " <, <=, >, >=, IN, IS NULL, IS NOT NULL) joined by AND; for other conditions run"
            + " DELETE FROM ... WHERE and then INSERT INTO");
  }
}
