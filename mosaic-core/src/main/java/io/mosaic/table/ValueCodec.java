package io.mosaic.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * Typed statistics values: how each column type's min/max is held in memory (Long for integers,
 * dates and timestamps; Double for floats; Boolean; BigDecimal; String; byte[]), taken from Parquet
 * statistics, and written to and read from the manifest's JSON.
 */
final class ValueCodec {
  /**
   * Longer strings and binaries keep no min/max: manifests stay small, skipping rarely needs them.
   */
  static final int MAX_STAT_BYTES = 256;

  private ValueCodec() {}

  static RowGroupStats fromParquet(ColumnType type, Statistics<?> stats) {
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
      case INT64, TIMESTAMP -> (Long) parquet;
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
      case STRING -> {
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
      case INT8, INT16, INT32, INT64, DATE, TIMESTAMP -> f.numberNode((Long) value);
      case FLOAT, DOUBLE -> f.numberNode((Double) value);
      case DECIMAL -> f.textNode(((BigDecimal) value).toPlainString());
      case STRING -> f.textNode((String) value);
      case BINARY -> f.textNode(Base64.getEncoder().encodeToString((byte[]) value));
    };
  }

  static Object fromJson(ColumnType type, JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    return switch (type.kind()) {
      case BOOLEAN -> node.booleanValue();
      case INT8, INT16, INT32, INT64, DATE, TIMESTAMP -> node.longValue();
      case FLOAT, DOUBLE -> node.doubleValue();
      case DECIMAL -> new BigDecimal(node.textValue());
      case STRING -> node.textValue();
      case BINARY -> Base64.getDecoder().decode(node.textValue());
    };
  }
}
