package io.mosaic.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.mosaic.MosaicException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Base64;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * Typed statistics values: how each column type's min/max is held in memory (Long for integers,
 * dates, times and timestamps; Double for floats; Boolean; BigDecimal; String; byte[]), taken from
 * Parquet statistics, and written to and read from the manifest's JSON. Times are Long microseconds
 * of the day; UUIDs are their 16 bytes, written to JSON as UUID text.
 */
public final class ValueCodec {
  /**
   * Longer strings and binaries keep no min/max: manifests stay small, skipping rarely needs them.
   */
  static final int MAX_STAT_BYTES = 256;

  private ValueCodec() {}

  public static RowGroupStats fromParquet(ColumnType type, Statistics<?> stats) {
    if (stats == null || stats.isEmpty()) {
      return new RowGroupStats(null, null, stats == null ? 0 : Math.max(0, stats.getNumNulls()));
    }
    Object min = null;
    Object max = null;
    if (stats.hasNonNullValue()) {
      min = value(type, stats.genericGetMin());
      max = value(type, stats.genericGetMax());
      if (min == null || max == null) {
        min = null;
        max = null;
      }
    }
    return new RowGroupStats(min, max, Math.max(0, stats.getNumNulls()));
  }

  private static Object value(ColumnType type, Object parquet) {
    return switch (type.kind()) {
      case BOOLEAN -> (Boolean) parquet;
      case INT8, INT16, INT32, DATE -> ((Integer) parquet).longValue();
      case INT64, TIMESTAMP, TIMESTAMP_TZ, TIME -> (Long) parquet;
      case UUID -> ((Binary) parquet).getBytes();
      case FLOAT -> finite(((Float) parquet).doubleValue());
      case DOUBLE -> finite((Double) parquet);
      case DECIMAL -> {
        BigInteger unscaled =
            parquet instanceof Integer i
                ? BigInteger.valueOf(i)
                : parquet instanceof Long l
                    ? BigInteger.valueOf(l)
                    : new BigInteger(((Binary) parquet).getBytes());
        yield new BigDecimal(unscaled, type.scale());
      }
      case STRING, CHAR -> {
        Binary b = (Binary) parquet;
        yield b.length() > MAX_STAT_BYTES ? null : b.toStringUsingUTF8();
      }
      case BINARY -> {
        Binary b = (Binary) parquet;
        yield b.length() > MAX_STAT_BYTES ? null : b.getBytes();
      }
    };
  }

  private static Double finite(double v) {
    return Double.isNaN(v) ? null : v;
  }

  static JsonNode toJson(ColumnType type, Object value) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (value == null) {
      return f.nullNode();
    }
    return switch (type.kind()) {
      case BOOLEAN -> f.booleanNode((Boolean) value);
      case INT8, INT16, INT32, INT64, DATE, TIMESTAMP, TIMESTAMP_TZ, TIME ->
          f.numberNode((Long) value);
      case FLOAT, DOUBLE -> f.numberNode((Double) value);
      case DECIMAL -> f.textNode(((BigDecimal) value).toPlainString());
      case STRING, CHAR -> f.textNode((String) value);
      case BINARY -> f.textNode(Base64.getEncoder().encodeToString((byte[]) value));
      case UUID -> f.textNode(uuid((byte[]) value).toString());
    };
  }

  /**
   * Reads a statistics value written by {@link #toJson}, strictly: integers must be JSON integers,
   * floating-point values JSON numbers (or the strings {@code "Infinity"} and {@code "-Infinity"},
   * which is how JSON writers spell them), decimals, strings and binaries (base64) JSON strings,
   * booleans JSON booleans; anything else is an {@link IllegalArgumentException} saying what the
   * value is.
   */
  static Object fromJson(ColumnType type, JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    return switch (type.kind()) {
      case BOOLEAN -> {
        if (!node.isBoolean()) {
          throw notA("a JSON boolean", type, node);
        }
        yield node.booleanValue();
      }
      case INT8, INT16, INT32, INT64, DATE, TIMESTAMP, TIMESTAMP_TZ, TIME -> {
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
          throw notA("a JSON integer (64 bits)", type, node);
        }
        yield node.longValue();
      }
      case FLOAT, DOUBLE -> {
        if (node.isNumber()) {
          yield node.doubleValue();
        }
        if (node.isTextual() && node.textValue().equals("Infinity")) {
          yield Double.POSITIVE_INFINITY;
        }
        if (node.isTextual() && node.textValue().equals("-Infinity")) {
          yield Double.NEGATIVE_INFINITY;
        }
        throw notA("a JSON number", type, node);
      }
      case DECIMAL -> {
        if (!node.isTextual()) {
          throw notA("a JSON string holding a decimal number", type, node);
        }
        try {
          yield new BigDecimal(node.textValue());
        } catch (NumberFormatException e) {
          throw notA("a decimal number", type, node);
        }
      }
      case STRING, CHAR -> {
        if (!node.isTextual()) {
          throw notA("a JSON string", type, node);
        }
        yield node.textValue();
      }
      case BINARY -> {
        if (!node.isTextual()) {
          throw notA("a JSON string in base64", type, node);
        }
        try {
          yield Base64.getDecoder().decode(node.textValue());
        } catch (IllegalArgumentException e) {
          throw notA("base64", type, node);
        }
      }
      case UUID -> {
        if (!node.isTextual()) {
          throw notA("a JSON string holding a UUID", type, node);
        }
        try {
          yield uuidBytes(java.util.UUID.fromString(node.textValue()));
        } catch (IllegalArgumentException e) {
          throw notA("a UUID", type, node);
        }
      }
    };
  }

  private static MosaicException notA(String what, ColumnType type, JsonNode node) {
    return MosaicException.invalid(
        "is " + describe(node) + ", not " + what + " (the column is " + type + ")");
  }

  /** A JSON value for an error message: its kind and, shortened, its text. */
  static String describe(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "missing";
    }
    if (node.isNull()) {
      return "null";
    }
    String text = node.toString();
    if (text.length() > 40) {
      text = text.substring(0, 37) + "...";
    }
    String kind =
        node.isTextual()
            ? "a string"
            : node.isIntegralNumber()
                ? "an integer"
                : node.isNumber()
                    ? "a fraction"
                    : node.isBoolean() ? "a boolean" : node.isArray() ? "an array" : "an object";
    return kind + " " + text;
  }

  /**
   * Why {@code value} cannot be a statistics value of a {@code type} column (its Java class, or a
   * value out of the type's range, or a decimal of another scale or precision), or null if it can.
   */
  static String invalid(ColumnType type, Object value) {
    if (value == null) {
      return null;
    }
    long low;
    long high;
    switch (type.kind()) {
      case INT8 -> {
        low = Byte.MIN_VALUE;
        high = Byte.MAX_VALUE;
      }
      case INT16 -> {
        low = Short.MIN_VALUE;
        high = Short.MAX_VALUE;
      }
      case INT32, DATE -> {
        low = Integer.MIN_VALUE;
        high = Integer.MAX_VALUE;
      }
      default -> {
        low = Long.MIN_VALUE;
        high = Long.MAX_VALUE;
      }
    }
    return switch (type.kind()) {
      case BOOLEAN -> value instanceof Boolean ? null : "is not a boolean";
      case INT8, INT16, INT32, INT64, DATE, TIMESTAMP, TIMESTAMP_TZ, TIME ->
          !(value instanceof Long l)
              ? "is not an integer"
              : l < low || l > high
                  ? l + " is out of the range of " + type + " (" + low + " to " + high + ")"
                  : null;
      case FLOAT, DOUBLE ->
          !(value instanceof Double d)
              ? "is not a floating-point number"
              : d.isNaN() ? "is NaN (statistics keep no NaN)" : null;
      case DECIMAL ->
          !(value instanceof BigDecimal d)
              ? "is not a decimal"
              : d.scale() != type.scale()
                  ? d.toPlainString() + " has scale " + d.scale() + ", not " + type.scale()
                  : d.precision() > type.precision()
                      ? d.toPlainString() + " has more than " + type.precision() + " digits"
                      : null;
      case STRING, CHAR -> value instanceof String ? null : "is not a string";
      case BINARY -> value instanceof byte[] ? null : "is not binary";
      case UUID -> value instanceof byte[] b && b.length == 16 ? null : "is not a UUID's 16 bytes";
    };
  }

  /**
   * Whether two statistics values of a {@code type} column are the same value (floating-point
   * values as numbers, so that -0.0 equals 0.0: Parquet readers turn a minimum of 0.0 into -0.0).
   */
  static boolean same(ColumnType type, Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    return switch (type.kind()) {
      case FLOAT, DOUBLE -> ((Double) a).doubleValue() == (Double) b;
      case DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b) == 0;
      case BINARY, UUID -> Arrays.equals((byte[]) a, (byte[]) b);
      default -> a.equals(b);
    };
  }

  /** A statistics value for a message. */
  static String show(Object value) {
    return value instanceof byte[] b
        ? Base64.getEncoder().encodeToString(b)
        : value instanceof String s ? "'" + s + "'" : String.valueOf(value);
  }

  /**
   * Whether {@code min <= max} for types whose statistics order is the natural one (numbers, dates,
   * timestamps, decimals, booleans); true for strings and binaries, whose order is byte order.
   */
  static boolean ordered(ColumnType type, Object min, Object max) {
    return switch (type.kind()) {
      case BOOLEAN -> !((Boolean) min) || (Boolean) max;
      case INT8, INT16, INT32, INT64, DATE, TIMESTAMP, TIMESTAMP_TZ, TIME ->
          (Long) min <= (Long) max;
      case FLOAT, DOUBLE -> !((Double) min > (Double) max);
      case DECIMAL -> ((BigDecimal) min).compareTo((BigDecimal) max) <= 0;
      case STRING, CHAR, BINARY -> true;
      // Parquet orders UUIDs as unsigned bytes, as Trino does (and as their text sorts).
      case UUID -> Arrays.compareUnsigned((byte[]) min, (byte[]) max) <= 0;
    };
  }

  /** A UUID's 16 bytes, most significant first (RFC 4122 order, as Parquet stores them). */
  public static byte[] uuidBytes(java.util.UUID uuid) {
    return java.nio.ByteBuffer.allocate(16)
        .putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits())
        .array();
  }

  /** The UUID of 16 bytes in RFC 4122 order. */
  public static java.util.UUID uuid(byte[] bytes) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
    return new java.util.UUID(b.getLong(), b.getLong());
  }
}
