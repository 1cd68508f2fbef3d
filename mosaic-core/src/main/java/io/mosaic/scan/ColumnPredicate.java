package io.mosaic.scan;

import io.mosaic.MosaicException;
import java.util.List;

/**
 * One simple condition on one column: {@code =, <, <=, >, >=, between, in, is null, is not null}.
 * Values are given as engines have them (numbers, BigDecimal, String, LocalDate, Instant, ...) and
 * converted to the column's type when the predicate is bound to a table ({@link RowGroupFilter}).
 */
public record ColumnPredicate(String column, Op op, List<Object> values)
    implements java.io.Serializable {
  public enum Op {
    EQ("="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    BETWEEN("between"),
    IN("in"),
    IS_NULL("is null"),
    IS_NOT_NULL("is not null");

    final String sql;

    Op(String sql) {
      this.sql = sql;
    }
  }

  public ColumnPredicate {
    values = new java.util.ArrayList<>(values);
    int expected =
        switch (op) {
          case IS_NULL, IS_NOT_NULL -> 0;
          case BETWEEN -> 2;
          case IN -> -1;
          default -> 1;
        };
    if (expected >= 0 && values.size() != expected) {
      throw MosaicException.invalid(
          column + " " + op.sql + " takes " + expected + " values, not " + values.size());
    }
    if (op == Op.IN && values.isEmpty()) {
      throw MosaicException.invalid(column + " in () needs at least one value");
    }
    if (op != Op.IN && values.contains(null)) {
      throw MosaicException.invalid(column + " " + op.sql + " null: use is null");
    }
  }

  @Override
  public String toString() {
    return switch (op) {
      case IS_NULL, IS_NOT_NULL -> column + " " + op.sql;
      case BETWEEN -> column + " between " + values.get(0) + " and " + values.get(1);
      case IN -> column + " in " + values;
      default -> column + " " + op.sql + " " + values.get(0);
    };
  }
}
