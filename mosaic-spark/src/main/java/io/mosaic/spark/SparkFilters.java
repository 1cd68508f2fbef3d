package io.mosaic.spark;

import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
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
}
