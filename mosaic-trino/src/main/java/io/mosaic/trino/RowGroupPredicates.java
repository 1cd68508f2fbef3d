package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.mosaic.format.ValueCodec;
import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import io.trino.spi.predicate.Domain;
import io.trino.spi.predicate.Range;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.predicate.ValueSet;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.Int128;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarcharType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The part of Trino's {@link TupleDomain} that core's row-group skipping can use. Skipping is only
 * ever conservative (a row group is dropped only if its min/max prove no row matches), and Trino
 * still applies the whole filter, so results are exact whatever is left out here.
 */
final class RowGroupPredicates {
  /** Larger IN lists are pushed as their span: one min/max test instead of many. */
  private static final int MAX_IN_VALUES = 256;

  private RowGroupPredicates() {}

  static Predicate of(TupleDomain<MosaicColumnHandle> constraint) {
    List<ColumnPredicate> terms = new ArrayList<>();
    Optional<Map<MosaicColumnHandle, Domain>> domains = constraint.getDomains();
    if (domains.isEmpty()) {
      return Predicate.ALL;
    }
    for (Map.Entry<MosaicColumnHandle, Domain> e : domains.get().entrySet()) {
      terms.addAll(terms(e.getKey(), e.getValue()));
    }
    return new Predicate(terms);
  }

  private static List<ColumnPredicate> terms(MosaicColumnHandle column, Domain domain) {
    String name = column.name();
    Type type = column.type();
    if (domain.isAll() || !pushable(type)) {
      return List.of();
    }
    if (domain.isOnlyNull()) {
      return List.of(Predicate.isNull(name));
    }
    ValueSet values = domain.getValues();
    if (domain.isNullAllowed()) {
      // Rows with nulls match too: min/max of the non-null values cannot rule a row group out.
      return List.of();
    }
    if (values.isAll()) {
      return List.of(Predicate.isNotNull(name));
    }
    if (values.isNone()) {
      return List.of();
    }
    if (values.isSingleValue()) {
      return List.of(Predicate.eq(name, value(type, values.getSingleValue())));
    }
    if (type.equals(BooleanType.BOOLEAN)) {
      // Core compares booleans only with = and IN; a boolean domain is always a discrete set.
      return values.isDiscreteSet()
          ? List.of(Predicate.in(name, values.getDiscreteSet()))
          : List.of();
    }
    if (values.isDiscreteSet() && values.getDiscreteSet().size() <= MAX_IN_VALUES) {
      return List.of(
          Predicate.in(name, values.getDiscreteSet().stream().map(v -> value(type, v)).toList()));
    }
    Range span = values.getRanges().getSpan();
    List<ColumnPredicate> terms = new ArrayList<>();
    if (!span.isLowUnbounded()) {
      Object low = value(type, span.getLowBoundedValue());
      terms.add(span.isLowInclusive() ? Predicate.ge(name, low) : Predicate.gt(name, low));
    }
    if (!span.isHighUnbounded()) {
      Object high = value(type, span.getHighBoundedValue());
      terms.add(span.isHighInclusive() ? Predicate.le(name, high) : Predicate.lt(name, high));
    }
    return terms;
  }

  /**
   * Types whose statistics order matches Trino's (varbinary and the rest are left to Trino); for
   * char(n) core uses only = and in, since padded order is not byte order.
   */
  private static boolean pushable(Type type) {
    return type instanceof DecimalType
        || type instanceof VarcharType
        || type instanceof CharType
        || type.equals(BooleanType.BOOLEAN)
        || type.equals(TinyintType.TINYINT)
        || type.equals(SmallintType.SMALLINT)
        || type.equals(IntegerType.INTEGER)
        || type.equals(BigintType.BIGINT)
        || type.equals(RealType.REAL)
        || type.equals(DoubleType.DOUBLE)
        || type.equals(DateType.DATE)
        || type.equals(TimestampType.TIMESTAMP_MICROS)
        // Instants, microseconds of the day and unsigned bytes: the order of both Trino and the
        // statistics (Parquet orders UUIDs as unsigned bytes, Trino's uuid compares so too).
        || type.equals(TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS)
        || type.equals(TimeType.TIME_MICROS)
        || type.equals(UuidType.UUID);
  }

  /**
   * Trino's native value as the retriever takes it (days for dates, micros for timestamps and
   * times, UUIDs).
   */
  private static Object value(Type type, Object v) {
    if (type instanceof DecimalType d) {
      return d.isShort()
          ? BigDecimal.valueOf((long) v, d.getScale())
          : new BigDecimal(((Int128) v).toBigInteger(), d.getScale());
    }
    if (type instanceof VarcharType || type instanceof CharType) {
      return ((Slice) v).toStringUtf8();
    }
    if (type.equals(RealType.REAL)) {
      return (double) Float.intBitsToFloat((int) (long) v);
    }
    if (type instanceof TimestampWithTimeZoneType) {
      return PageToArrow.micros((LongTimestampWithTimeZone) v);
    }
    if (type instanceof TimeType) {
      // Picoseconds of the day; a time(6) value is whole microseconds.
      return (long) v / 1_000_000;
    }
    if (type.equals(UuidType.UUID)) {
      return ValueCodec.uuid(((Slice) v).getBytes());
    }
    return v;
  }
}
