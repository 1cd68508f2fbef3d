package io.mosaic.trino;

import io.mosaic.format.ColumnSummary;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.CharType;
import io.trino.spi.type.TimeType;
import io.trino.spi.type.TimestampWithTimeZoneType;
import io.trino.spi.type.Type;
import io.trino.spi.type.UuidType;
import io.trino.spi.type.VarbinaryType;
import io.trino.spi.type.VarcharType;
import java.math.BigDecimal;
import java.util.List;

/**
 * Statistics for Trino's cost-based optimizer, from the pinned manifest alone (core's {@link
 * ColumnSummary}, which Spark reports too): row count, and per column its null fraction, value
 * range (from the row groups' min/max), distinct-value count (the union of the row groups'
 * sketches) and, for strings and binaries, data size (the values' total length). A column with a
 * row group whose statistics predate sketches (docs/format.md) reports no distinct count and the
 * encoded size of its chunks as data size, until ANALYZE adds them.
 */
final class MosaicTableStatistics {
  private MosaicTableStatistics() {}

  static TableStatistics of(Manifest m, List<MosaicColumnHandle> columns) {
    // The row count is of live rows; the column statistics, of stored rows, stay fractions.
    long rows = m.rowCount();
    TableStatistics.Builder table =
        TableStatistics.builder().setRowCount(Estimate.of(m.liveRowCount()));
    if (rows == 0) {
      return table.build();
    }
    for (MosaicColumnHandle c : columns) {
      ColumnSummary s = ColumnSummary.of(m, c.name());
      ColumnStatistics.Builder column =
          ColumnStatistics.builder().setNullsFraction(Estimate.of((double) s.nulls() / rows));
      s.distinct().ifPresent(n -> column.setDistinctValuesCount(Estimate.of(n)));
      Double min = number(c.type(), s.min());
      Double max = number(c.type(), s.max());
      if (min != null && max != null && min <= max) {
        column.setRange(new DoubleRange(min, max));
      }
      if (c.type() instanceof VarcharType
          || c.type() instanceof CharType
          || c.type() instanceof VarbinaryType) {
        long encoded =
            m.segmentsOf(c.name()).stream().mapToLong(SegmentEntry::uncompressedBytes).sum();
        column.setDataSize(Estimate.of(s.dataBytes().orElse(encoded)));
      }
      table.setColumnStatistics(c, column.build());
    }
    return table.build();
  }

  /**
   * Core's statistics values (longs for integers, days and micros; doubles; decimals) as Trino's
   * statistics represent them: timestamp with time zone in epoch milliseconds (as Trino's StatsUtil
   * does), no range for time and uuid (Trino's optimizer keeps none for them).
   */
  private static Double number(Type type, Object v) {
    if (type instanceof TimeType || type instanceof UuidType) {
      return null;
    }
    if (type instanceof TimestampWithTimeZoneType && v instanceof Long micros) {
      return (double) Math.floorDiv(micros, 1000);
    }
    if (v instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (v instanceof Number n) {
      double d = n.doubleValue();
      return Double.isNaN(d) ? null : d;
    }
    return null;
  }
}
