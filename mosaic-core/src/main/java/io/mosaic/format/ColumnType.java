package io.mosaic.format;

import io.mosaic.MosaicException;
import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The flat column types a Mosaic table stores. Each maps to one Arrow type (the engines' side) and
 * one Parquet primitive type with its annotation (the segments' side), chosen as Spark writes them
 * so that Spark's Parquet files import byte for byte.
 */
public record ColumnType(Kind kind, int precision, int scale) implements Serializable {
  public enum Kind {
    BOOLEAN,
    INT8,
    INT16,
    INT32,
    INT64,
    FLOAT,
    DOUBLE,
    DECIMAL,
    DATE,
    TIMESTAMP,
    STRING,
    /**
     * SQL's {@code char(n)}: a string of at most n characters, compared as if padded with spaces to
     * n. Stored without its trailing spaces (both engines keep char values so or pad them on read),
     * so statistics and sketches are over the trimmed values; n is {@link #precision()}.
     */
    CHAR,
    BINARY,
    /**
     * An instant in microseconds since the epoch, UTC: SQL's {@code timestamp(6) with time zone}.
     * Stored as {@link #TIMESTAMP} is (Parquet TIMESTAMP(isAdjustedToUTC=true, MICROS)); the zone a
     * value was written with is not kept, as in Trino's Iceberg and Delta Lake connectors, so Trino
     * reads every value back in UTC. Only the manifest's type name tells it from {@code timestamp},
     * which Trino reads as a {@code timestamp(6)} without time zone.
     */
    TIMESTAMP_TZ,
    /** Microseconds since midnight, without zone: SQL's {@code time(6)}. */
    TIME,
    /** A 128-bit UUID, stored as its 16 bytes in RFC 4122 (big-endian) order. */
    UUID
  }

  public static final String SUPPORTED =
      "boolean, int8, int16, int32, int64, float, double, decimal(p,s) with p <= 38, date,"
          + " timestamp (microseconds, UTC), string, char(n) with 1 <= n <= "
          + ColumnType.MAX_CHAR_LENGTH
          + ", binary, timestamp_tz (microseconds, UTC; the zone is not kept),"
          + " time (microseconds), uuid";

  /**
   * The longest {@code char(n)}: Trino's limit, so that either engine reads what the other wrote.
   */
  static final int MAX_CHAR_LENGTH = 65_536;

  private static final Pattern DECIMAL = Pattern.compile("decimal\\((\\d+),\\s*(\\d+)\\)");
  private static final Pattern CHAR = Pattern.compile("char\\((\\d{1,9})\\)");

  public ColumnType {
    if (kind == Kind.DECIMAL
        && (precision < 1 || precision > 38 || scale < 0 || scale > precision)) {
      throw MosaicException.unsupported(
          "decimal("
              + precision
              + ","
              + scale
              + ") is not supported: need 1 <= p <= 38, 0 <= s <= p");
    }
    if (kind == Kind.CHAR && (precision < 1 || precision > MAX_CHAR_LENGTH)) {
      throw MosaicException.unsupported(
          "char(" + precision + ") is not supported: need 1 <= n <= " + MAX_CHAR_LENGTH);
    }
  }

  /** Strings and binaries: their values' sizes vary, so statistics keep their total size. */
  public boolean isVariableWidth() {
    return kind == Kind.STRING || kind == Kind.CHAR || kind == Kind.BINARY;
  }

  /** Strings of either kind: {@code string} and {@code char(n)}, UTF-8 in the segments. */
  public boolean isText() {
    return kind == Kind.STRING || kind == Kind.CHAR;
  }

  /** {@code char(n)}; see {@link Kind#CHAR}. */
  public static ColumnType charOf(int length) {
    return new ColumnType(Kind.CHAR, length, 0);
  }

  public static ColumnType of(Kind kind) {
    return new ColumnType(kind, 0, 0);
  }

  public static ColumnType decimal(int precision, int scale) {
    return new ColumnType(Kind.DECIMAL, precision, scale);
  }

  /**
   * Parses the names {@link #toString()} writes, as in the manifest: {@code int64}, {@code
   * decimal(12,2)}.
   */
  public static ColumnType parse(String text) {
    Matcher m = DECIMAL.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (m.matches()) {
      return decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }
    Matcher c = CHAR.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (c.matches()) {
      return charOf(Integer.parseInt(c.group(1)));
    }
    for (Kind k : Kind.values()) {
      if (k != Kind.DECIMAL && k != Kind.CHAR && k.name().equalsIgnoreCase(text.trim())) {
        return of(k);
      }
    }
    throw MosaicException.unsupported(
        "unknown column type '" + text + "'; supported: " + SUPPORTED);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case DECIMAL -> "decimal(" + precision + "," + scale + ")";
      case CHAR -> "char(" + precision + ")";
      default -> kind.name().toLowerCase(Locale.ROOT);
    };
  }

  /** The type changes {@link #widensFrom} allows, as an error message lists them. */
  public static final String WIDENINGS =
      "int8 to int16, int32 or int64; int16 to int32 or int64; int32 to int64; float to double;"
          + " decimal(p,s) to decimal(q,s) with q > p";

  /**
   * Whether a column of type {@code narrower} may become this type with no segment rewritten: every
   * value of {@code narrower} is exactly a value of this type, and statistics hold both alike
   * ({@link ValueCodec}: Long for integers, Double for floats, BigDecimal at the same scale). These
   * are Iceberg's type promotions (spec, "Schema Evolution"), plus the narrower integers Spark and
   * Trino have. Old segments keep their Parquet type and are widened as they are read.
   */
  public boolean widensFrom(ColumnType narrower) {
    return switch (kind) {
      case INT16 -> narrower.kind == Kind.INT8;
      case INT32 -> narrower.kind == Kind.INT8 || narrower.kind == Kind.INT16;
      case INT64 ->
          narrower.kind == Kind.INT8 || narrower.kind == Kind.INT16 || narrower.kind == Kind.INT32;
      case DOUBLE -> narrower.kind == Kind.FLOAT;
      case DECIMAL ->
          narrower.kind == Kind.DECIMAL
              && narrower.scale == scale
              && narrower.precision < precision;
      default -> false;
    };
  }

  /**
   * The type a segment of a column of this type holds, from the segment's Parquet column: this
   * type, or the narrower one the column had when the segment was written ({@link #widensFrom}).
   * Null if the segment holds neither.
   */
  public ColumnType storedIn(org.apache.parquet.schema.PrimitiveType file) {
    Type own = parquetType(file.getName(), file.isRepetition(Type.Repetition.OPTIONAL));
    if (sameParquet(own.asPrimitiveType(), file)) {
      return this;
    }
    ColumnType stored;
    try {
      stored = fromParquet(file);
    } catch (MosaicException e) {
      return null;
    }
    return widensFrom(stored)
            && sameParquet(
                stored
                    .parquetType(file.getName(), file.isRepetition(Type.Repetition.OPTIONAL))
                    .asPrimitiveType(),
                file)
        ? stored
        : null;
  }

  private static boolean sameParquet(
      org.apache.parquet.schema.PrimitiveType a, org.apache.parquet.schema.PrimitiveType b) {
    return a.getPrimitiveTypeName() == b.getPrimitiveTypeName()
        && a.getTypeLength() == b.getTypeLength()
        && java.util.Objects.equals(a.getLogicalTypeAnnotation(), b.getLogicalTypeAnnotation());
  }

  /** Bytes per value of fixed-width types, 0 for strings and binaries. */
  public int fixedWidth() {
    return switch (kind) {
      case BOOLEAN, INT8 -> 1;
      case INT16 -> 2;
      case INT32, FLOAT, DATE -> 4;
      case INT64, DOUBLE, TIMESTAMP, TIMESTAMP_TZ, TIME -> 8;
      case DECIMAL, UUID -> 16;
      case STRING, CHAR, BINARY -> 0;
    };
  }

  // ---- Arrow

  /** The Arrow type of this column's vectors. */
  public ArrowType arrowType() {
    return switch (kind) {
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case INT8 -> new ArrowType.Int(8, true);
      case INT16 -> new ArrowType.Int(16, true);
      case INT32 -> new ArrowType.Int(32, true);
      case INT64 -> new ArrowType.Int(64, true);
      case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DECIMAL -> new ArrowType.Decimal(precision, scale, 128);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case TIMESTAMP, TIMESTAMP_TZ -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
      case TIME -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
      case UUID -> new ArrowType.FixedSizeBinary(16);
      case STRING, CHAR -> ArrowType.Utf8.INSTANCE;
      case BINARY -> ArrowType.Binary.INSTANCE;
    };
  }

  /**
   * Maps an Arrow type, or explains why it cannot be stored (nested and exotic types are refused
   * when the table is created, not when data arrives).
   */
  public static ColumnType fromArrow(String column, ArrowType type) {
    if (type instanceof ArrowType.Bool) {
      return of(Kind.BOOLEAN);
    }
    if (type instanceof ArrowType.Int i && i.getIsSigned()) {
      switch (i.getBitWidth()) {
        case 8:
          return of(Kind.INT8);
        case 16:
          return of(Kind.INT16);
        case 32:
          return of(Kind.INT32);
        case 64:
          return of(Kind.INT64);
        default:
          break;
      }
    }
    if (type instanceof ArrowType.FloatingPoint f) {
      if (f.getPrecision() == FloatingPointPrecision.SINGLE) {
        return of(Kind.FLOAT);
      }
      if (f.getPrecision() == FloatingPointPrecision.DOUBLE) {
        return of(Kind.DOUBLE);
      }
    }
    if (type instanceof ArrowType.Decimal d && d.getBitWidth() == 128) {
      return decimal(d.getPrecision(), d.getScale());
    }
    if (type instanceof ArrowType.Date d && d.getUnit() == DateUnit.DAY) {
      return of(Kind.DATE);
    }
    if (type instanceof ArrowType.Timestamp t
        && t.getUnit() == TimeUnit.MICROSECOND
        && t.getTimezone() != null) {
      return of(Kind.TIMESTAMP);
    }
    if (type instanceof ArrowType.Time t
        && t.getUnit() == TimeUnit.MICROSECOND
        && t.getBitWidth() == 64) {
      return of(Kind.TIME);
    }
    if (type instanceof ArrowType.FixedSizeBinary b && b.getByteWidth() == 16) {
      return of(Kind.UUID);
    }
    if (type instanceof ArrowType.Utf8) {
      return of(Kind.STRING);
    }
    if (type instanceof ArrowType.Binary) {
      return of(Kind.BINARY);
    }
    throw MosaicException.unsupported(
        "column '"
            + column
            + "' has type "
            + type
            + ", which Mosaic cannot store; supported: "
            + SUPPORTED);
  }

  // ---- Parquet

  /** The Parquet type of this column in its segments. */
  public Type parquetType(String name, boolean nullable) {
    Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> b;
    b = nullable ? Types.optional(physical()) : Types.required(physical());
    LogicalTypeAnnotation logical =
        switch (kind) {
          case INT8 -> LogicalTypeAnnotation.intType(8, true);
          case INT16 -> LogicalTypeAnnotation.intType(16, true);
          case DECIMAL -> LogicalTypeAnnotation.decimalType(scale, precision);
          case DATE -> LogicalTypeAnnotation.dateType();
          case TIMESTAMP, TIMESTAMP_TZ ->
              LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS);
          case TIME -> LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MICROS);
          case UUID -> LogicalTypeAnnotation.uuidType();
          case STRING, CHAR -> LogicalTypeAnnotation.stringType();
          default -> null;
        };
    if (logical != null) {
      b = b.as(logical);
    }
    if (physical() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      b = b.length(kind == Kind.UUID ? 16 : decimalBytes(precision));
    }
    return b.named(name);
  }

  /** Parquet physical type; decimals as Spark writes them (INT32 to 9 digits, INT64 to 18). */
  PrimitiveTypeName physical() {
    return switch (kind) {
      case BOOLEAN -> PrimitiveTypeName.BOOLEAN;
      case INT8, INT16, INT32, DATE -> PrimitiveTypeName.INT32;
      case INT64, TIMESTAMP, TIMESTAMP_TZ, TIME -> PrimitiveTypeName.INT64;
      case UUID -> PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
      case FLOAT -> PrimitiveTypeName.FLOAT;
      case DOUBLE -> PrimitiveTypeName.DOUBLE;
      case DECIMAL ->
          precision <= 9
              ? PrimitiveTypeName.INT32
              : precision <= 18 ? PrimitiveTypeName.INT64 : PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
      case STRING, CHAR, BINARY -> PrimitiveTypeName.BINARY;
    };
  }

  /** Smallest two's complement byte width holding {@code precision} decimal digits. */
  public static int decimalBytes(int precision) {
    int bytes = 1;
    while (Math.pow(2, 8 * bytes - 1) < Math.pow(10, precision)) {
      bytes++;
    }
    return bytes;
  }

  /** Maps a Parquet primitive column (for import), or explains why it cannot be stored. */
  public static ColumnType fromParquet(org.apache.parquet.schema.PrimitiveType type) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    String name = type.getName();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return of(Kind.BOOLEAN);
      case INT32:
        if (logical == null) {
          return of(Kind.INT32);
        }
        if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned()) {
          return of(
              i.getBitWidth() == 8 ? Kind.INT8 : i.getBitWidth() == 16 ? Kind.INT16 : Kind.INT32);
        }
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return of(Kind.DATE);
        }
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
          return decimal(d.getPrecision(), d.getScale());
        }
        break;
      case INT64:
        if (logical == null) {
          return of(Kind.INT64);
        }
        if (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
            && i.isSigned()
            && i.getBitWidth() == 64) {
          return of(Kind.INT64);
        }
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
          return decimal(d.getPrecision(), d.getScale());
        }
        if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
            && t.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS
            && t.isAdjustedToUTC()) {
          return of(Kind.TIMESTAMP);
        }
        if (logical instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation t
            && t.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS) {
          return of(Kind.TIME);
        }
        break;
      case INT96:
        // Spark's default timestamp encoding: nanoseconds of the day and a Julian day number.
        return of(Kind.TIMESTAMP);
      case FLOAT:
        return of(Kind.FLOAT);
      case DOUBLE:
        return of(Kind.DOUBLE);
      case BINARY:
        if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation) {
          return of(Kind.STRING);
        }
        if (logical == null) {
          return of(Kind.BINARY);
        }
        break;
      case FIXED_LEN_BYTE_ARRAY:
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
          return decimal(d.getPrecision(), d.getScale());
        }
        if (logical instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation
            && type.getTypeLength() == 16) {
          return of(Kind.UUID);
        }
        break;
      default:
        break;
    }
    throw MosaicException.unsupported(
        "Parquet column '"
            + name
            + "' has type "
            + type
            + ", which Mosaic cannot store; supported: "
            + SUPPORTED);
  }
}
