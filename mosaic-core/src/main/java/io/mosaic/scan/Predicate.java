package io.mosaic.scan;

import java.util.ArrayList;
import java.util.List;

/** A conjunction of simple column conditions; {@link #ALL} is no condition. */
public record Predicate(List<ColumnPredicate> terms) implements java.io.Serializable {
  public static final Predicate ALL = new Predicate(List.of());

  public Predicate {
    terms = List.copyOf(terms);
  }

  public static Predicate of(ColumnPredicate... terms) {
    return new Predicate(List.of(terms));
  }

  public Predicate and(ColumnPredicate term) {
    List<ColumnPredicate> all = new ArrayList<>(terms);
    all.add(term);
    return new Predicate(all);
  }

  /** Both conjunctions' terms as one. */
  public Predicate and(Predicate other) {
    List<ColumnPredicate> all = new ArrayList<>(terms);
    all.addAll(other.terms);
    return new Predicate(all);
  }

  public static ColumnPredicate eq(String column, Object value) {
    return new ColumnPredicate(column, ColumnPredicate.Op.EQ, List.of(value));
  }

  public static ColumnPredicate lt(String column, Object value) {
    return new ColumnPredicate(column, ColumnPredicate.Op.LT, List.of(value));
  }

  public static ColumnPredicate le(String column, Object value) {
    return new ColumnPredicate(column, ColumnPredicate.Op.LE, List.of(value));
  }

  public static ColumnPredicate gt(String column, Object value) {
    return new ColumnPredicate(column, ColumnPredicate.Op.GT, List.of(value));
  }

  public static ColumnPredicate ge(String column, Object value) {
    return new ColumnPredicate(column, ColumnPredicate.Op.GE, List.of(value));
  }

  public static ColumnPredicate between(String column, Object low, Object high) {
    return new ColumnPredicate(column, ColumnPredicate.Op.BETWEEN, List.of(low, high));
  }

  public static ColumnPredicate in(String column, List<?> values) {
    return new ColumnPredicate(column, ColumnPredicate.Op.IN, new ArrayList<>(values));
  }

  public static ColumnPredicate isNull(String column) {
    return new ColumnPredicate(column, ColumnPredicate.Op.IS_NULL, List.of());
  }

  public static ColumnPredicate isNotNull(String column) {
    return new ColumnPredicate(column, ColumnPredicate.Op.IS_NOT_NULL, List.of());
  }

  @Override
  public String toString() {
    return terms.isEmpty()
        ? "true"
        : String.join(" and ", terms.stream().map(Object::toString).toList());
  }
}
