package io.mosaic.trino;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnType;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.BooleanType;
import io.trino.spi.type.CharType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.DoubleType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.RealType;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;

/**
 * Mosaic column types as Trino types, and back. A Mosaic {@code timestamp} (microseconds, UTC, as
 * Spark writes it) is Trino's {@code timestamp(6)} read as UTC; {@code varchar(n)} is stored as
 * {@code string} (the connector keeps n in a table property); {@code char(n)} is core's own {@code
 * char(n)}. A {@code timestamp_tz} is Trino's {@code timestamp(6) with time zone}: the instant is
 * stored, not the zone (as Trino's Iceberg and Delta Lake connectors do), so values read back in
 * UTC; {@code time} is {@code time(6)}, {@code uuid} is {@code uuid}. Other precisions of times and
 * timestamps are refused, naming the precision to cast to.
 */
final class TrinoTypes {
  private TrinoTypes() {}

  static Type toTrino(ColumnType type) {
    return switch (type.kind()) {
      case BOOLEAN -> BooleanType.BOOLEAN;
      case INT8 -> TinyintType.TINYINT;
      case INT16 -> SmallintType.SMALLINT;
      case INT32 -> IntegerType.INTEGER;
      case INT64 -> BigintType.BIGINT;
      case FLOAT -> RealType.REAL;
      case DOUBLE -> DoubleType.DOUBLE;
      case DECIMAL -> DecimalType.createDecimalType(type.precision(), type.scale());
      case DATE -> DateType.DATE;
      case TIMESTAMP -> TimestampType.TIMESTAMP_MICROS;
      case STRING -> VarcharType.VARCHAR;
      case CHAR -> CharType.createCharType(type.precision());
      case BINARY -> VarbinaryType.VARBINARY;
      case TIMESTAMP_TZ -> TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS;
      case TIME -> TimeType.TIME_MICROS;
      case UUID -> UuidType.UUID;
    };
  }

  static ColumnType fromTrino(String column, Type type) {
    if (type instanceof DecimalType d) {
      return ColumnType.decimal(d.getPrecision(), d.getScale());
    }
    if (type instanceof CharType c) {
      // Trino keeps char values without their trailing spaces, which is how core stores them.
      return ColumnType.charOf(c.getLength());
    }
    ColumnType.Kind kind;
    if (type.equals(BooleanType.BOOLEAN)) {
      kind = ColumnType.Kind.BOOLEAN;
    } else if (type.equals(TinyintType.TINYINT)) {
      kind = ColumnType.Kind.INT8;
    } else if (type.equals(SmallintType.SMALLINT)) {
      kind = ColumnType.Kind.INT16;
    } else if (type.equals(IntegerType.INTEGER)) {
      kind = ColumnType.Kind.INT32;
    } else if (type.equals(BigintType.BIGINT)) {
      kind = ColumnType.Kind.INT64;
    } else if (type.equals(RealType.REAL)) {
      kind = ColumnType.Kind.FLOAT;
    } else if (type.equals(DoubleType.DOUBLE)) {
      kind = ColumnType.Kind.DOUBLE;
    } else if (type.equals(DateType.DATE)) {
      kind = ColumnType.Kind.DATE;
    } else if (type.equals(TimestampType.TIMESTAMP_MICROS)) {
      kind = ColumnType.Kind.TIMESTAMP;
    } else if (type instanceof VarcharType) {
      kind = ColumnType.Kind.STRING;
    } else if (type.equals(VarbinaryType.VARBINARY)) {
      kind = ColumnType.Kind.BINARY;
    } else if (type.equals(TimestampWithTimeZoneType.TIMESTAMP_TZ_MICROS)) {
      kind = ColumnType.Kind.TIMESTAMP_TZ;
    } else if (type.equals(TimeType.TIME_MICROS)) {
      kind = ColumnType.Kind.TIME;
    } else if (type.equals(UuidType.UUID)) {
      kind = ColumnType.Kind.UUID;
    } else if (type instanceof TimestampType
        || type instanceof TimestampWithTimeZoneType
        || type instanceof TimeType) {
      // Parquet keeps microseconds: another precision would change the column's type between
      // Trino and Spark (and lose digits above 6), so it is refused, not rounded.
      String six = type.getDisplayName().replaceFirst("\\(\\d+\\)", "(6)");
      throw MosaicErrors.toTrino(
          MosaicException.unsupported(
              "Unsupported type: column '"
                  + column
                  + "' has type "
                  + type.getDisplayName()
                  + "; Mosaic stores times and timestamps with microsecond precision only: use "
                  + six
                  + " (cast the column)"));
    } else {
      throw MosaicErrors.toTrino(
          MosaicException.unsupported(
              "Unsupported type: column '"
                  + column
                  + "' has type "
                  + type.getDisplayName()
                  + ", which Mosaic cannot store; use boolean, tinyint, smallint, integer, bigint,"
                  + " real, double, decimal(p,s), date, time(6), timestamp(6), timestamp(6) with"
                  + " time zone, char(n), varchar, varbinary or uuid (cast the column)"));
    }
    return ColumnType.of(kind);
  }
}
