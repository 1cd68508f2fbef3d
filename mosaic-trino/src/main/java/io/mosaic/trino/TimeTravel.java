package io.mosaic.trino;

import static io.trino.spi.StandardErrorCode.NOT_SUPPORTED;
import static io.trino.spi.type.DateTimeEncoding.unpackMillisUtc;

import io.mosaic.format.Manifest;
import io.mosaic.table.MosaicTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.type.BigintType;
import io.trino.spi.type.DateType;
import io.trino.spi.type.IntegerType;
import io.trino.spi.type.LongTimestamp;
import io.trino.spi.type.LongTimestampWithTimeZone;
import io.trino.spi.type.SmallintType;
import io.trino.spi.type.TimestampType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.TinyintType;
import io.trino.spi.type.Type;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * {@code FOR VERSION AS OF} and {@code FOR TIMESTAMP AS OF} as core's time travel ({@link
 * MosaicTable#asOf}): this class only turns Trino's pointer into a version number or an instant,
 * the way Trino's Iceberg connector reads them (a timestamp without time zone, or a date, is in the
 * session's time zone).
 */
final class TimeTravel {
  private TimeTravel() {}

  static Manifest resolve(ConnectorSession session, MosaicTable table, ConnectorTableVersion v) {
    Type type = v.getVersionType();
    return switch (v.getPointerType()) {
      case TARGET_ID -> {
        if (!(type instanceof BigintType
            || type instanceof IntegerType
            || type instanceof SmallintType
            || type instanceof TinyintType)) {
          throw new TrinoException(
              NOT_SUPPORTED,
              "FOR VERSION AS OF of a Mosaic table takes a version number (an integer), not a "
                  + type.getDisplayName());
        }
        yield table.asOf(((Number) v.getVersion()).longValue());
      }
      case TEMPORAL -> table.asOf(instant(session, type, v.getVersion()));
    };
  }

  private static Instant instant(ConnectorSession session, Type type, Object value) {
    if (type instanceof DateType) {
      return LocalDate.ofEpochDay((Long) value)
          .atStartOfDay(session.getTimeZoneKey().getZoneId())
          .toInstant();
    }
    if (type instanceof TimestampType t) {
      long micros = t.isShort() ? (Long) value : ((LongTimestamp) value).getEpochMicros();
      LocalDateTime local =
          LocalDateTime.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000),
              (int) Math.floorMod(micros, 1_000_000) * 1000,
              ZoneOffset.UTC);
      return local.atZone(session.getTimeZoneKey().getZoneId()).toInstant();
    }
    if (type instanceof TimestampWithTimeZoneType t) {
      if (t.isShort()) {
        return Instant.ofEpochMilli(unpackMillisUtc((Long) value));
      }
      LongTimestampWithTimeZone l = (LongTimestampWithTimeZone) value;
      return Instant.ofEpochMilli(l.getEpochMillis()).plusNanos(l.getPicosOfMilli() / 1000);
    }
    throw new TrinoException(
        NOT_SUPPORTED,
        "FOR TIMESTAMP AS OF of a Mosaic table takes a timestamp or a date, not a "
            + type.getDisplayName());
  }
}
