package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.CharType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimeType;
import org.apache.spark.sql.types.TimestampType;
import scala.Option;

/**
 * Mosaic column types as Spark SQL types, and back. {@code char(n)} is Spark's {@code CharType}:
 * stored without trailing spaces, read back padded to n (see {@link CharColumnVector}). Spark's
 * {@code TimestampType} creates a {@code timestamp} column, as before {@code timestamp_tz} existed
 * (Trino reads it as {@code timestamp(6)}); a {@code timestamp_tz} column, which Trino creates,
 * reads and writes as {@code TimestampType} too: both store the instant. {@code time} is Spark's
 * {@code time(6)} ({@link TimeColumnVector}), {@code uuid} a string ({@link UuidColumnVector}).
 */
final class SparkTypes {
  private SparkTypes() {}

  /** Spark's setting without which its analyzer refuses {@code TIME} (off by default in 4.2). */
  static final String TIME_TYPE_ENABLED = "spark.sql.timeType.enabled";

  static StructType toSpark(TableSchema schema) {
    List<StructField> fields = new ArrayList<>();
    for (ColumnSpec c : schema.columns()) {
      if (c.type().kind() == ColumnType.Kind.TIME
          && !Boolean.parseBoolean(SQLConf.get().getConfString(TIME_TYPE_ENABLED, "false"))) {
        // Spark's own error names neither the column nor the setting.
        throw MosaicException.unsupported(
            "column '"
                + c.name()
                + "' is time, which Spark reads as TIME(6) only with "
                + TIME_TYPE_ENABLED
                + "=true (off by default in Spark 4.2): set it in the session, or read the table"
                + " where the column is cast (e.g. a Trino view with CAST(t AS varchar))");
      }
      fields.add(DataTypes.createStructField(c.name(), toSpark(c.type()), c.nullable()));
    }
    return DataTypes.createStructType(fields);
  }

  static DataType toSpark(ColumnType type) {
    return switch (type.kind()) {
      case BOOLEAN -> DataTypes.BooleanType;
      case INT8 -> DataTypes.ByteType;
      case INT16 -> DataTypes.ShortType;
      case INT32 -> DataTypes.IntegerType;
      case INT64 -> DataTypes.LongType;
      case FLOAT -> DataTypes.FloatType;
      case DOUBLE -> DataTypes.DoubleType;
      case DECIMAL -> DataTypes.createDecimalType(type.precision(), type.scale());
      case DATE -> DataTypes.DateType;
      case TIMESTAMP -> DataTypes.TimestampType;
      case STRING -> DataTypes.StringType;
      case CHAR -> DataTypes.createCharType(type.precision());
      case BINARY -> DataTypes.BinaryType;
      // An instant, shown in the session's zone: what timestamp_tz stores (the zone is not kept).
      case TIMESTAMP_TZ -> DataTypes.TimestampType;
      case TIME -> TimeColumnVector.TYPE;
      // Spark has no UUID type: the canonical text, as Iceberg's Spark reader gives it.
      case UUID -> DataTypes.StringType;
    };
  }

  static TableSchema fromSpark(StructType schema) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (StructField f : schema.fields()) {
      columns.add(new ColumnSpec(f.name(), fromSpark(f), f.nullable()));
    }
    return new TableSchema(columns);
  }

  /**
   * A field's type; a {@code char(n)} column may come as {@code string} with Spark's char metadata
   * (what {@code CharVarcharUtils} leaves in schemas once it has replaced char with string).
   */
  static ColumnType fromSpark(StructField f) {
    Option<DataType> raw = CharVarcharUtils.getRawType(f.metadata());
    boolean declaredChar = raw.isDefined() && raw.get() instanceof CharType;
    return fromSpark(f.name(), declaredChar ? raw.get() : f.dataType());
  }

  static ColumnType fromSpark(String column, DataType t) {
    if (t instanceof CharType c) {
      // Before StringType, which CharType extends. Values arrive padded to n; core trims them.
      return ColumnType.charOf(c.length());
    }
    ColumnType.Kind kind;
    if (t instanceof BooleanType) {
      kind = ColumnType.Kind.BOOLEAN;
    } else if (t instanceof ByteType) {
      kind = ColumnType.Kind.INT8;
    } else if (t instanceof ShortType) {
      kind = ColumnType.Kind.INT16;
    } else if (t instanceof IntegerType) {
      kind = ColumnType.Kind.INT32;
    } else if (t instanceof LongType) {
      kind = ColumnType.Kind.INT64;
    } else if (t instanceof FloatType) {
      kind = ColumnType.Kind.FLOAT;
    } else if (t instanceof DoubleType) {
      kind = ColumnType.Kind.DOUBLE;
    } else if (t instanceof DecimalType d) {
      return ColumnType.decimal(d.precision(), d.scale());
    } else if (t instanceof DateType) {
      kind = ColumnType.Kind.DATE;
    } else if (t instanceof TimestampType) {
      kind = ColumnType.Kind.TIMESTAMP;
    } else if (t instanceof StringType) {
      kind = ColumnType.Kind.STRING;
    } else if (t instanceof BinaryType) {
      kind = ColumnType.Kind.BINARY;
    } else if (t instanceof TimeType time) {
      if (time.precision() != TimeColumnVector.TYPE.precision()) {
        throw MosaicException.unsupported(
            "column '"
                + column
                + "' has Spark type "
                + t.simpleString()
                + "; Mosaic stores times with microsecond precision only: use time(6) (cast the"
                + " column)");
      }
      kind = ColumnType.Kind.TIME;
    } else {
      throw MosaicException.unsupported(
          "column '"
              + column
              + "' has Spark type "
              + t.simpleString()
              + ", which Mosaic cannot store; supported: "
              + ColumnType.SUPPORTED);
    }
    return ColumnType.of(kind);
  }
}
