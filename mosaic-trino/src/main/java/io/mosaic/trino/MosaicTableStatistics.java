package io.mosaic.trino;

import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import io.trino.spi.type.VarcharType;
import java.math.BigDecimal;
import java.util.List;

/**
 * Statistics for Trino's cost-based optimizer, from the manifest alone: row count, and per column
 * its null fraction, value range (from the row groups' min/max) and, for strings, data size.
 */
final class MosaicTableStatistics {
  private MosaicTableStatistics() {}

  static TableStatistics of(Manifest m, List<MosaicColumnHandle> columns) {
    long rows = m.rowCount();
    TableStatistics.Builder table = TableStatistics.builder().setRowCount(Estimate.of(rows));
    if (rows == 0) {
      return table.build();
    }
    for (MosaicColumnHandle c : columns) {
      long nulls = 0;
      long bytes = 0;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      boolean ranged = true;
      for (SegmentEntry s : m.segmentsOf(c.name())) {
        bytes += s.uncompressedBytes();
        for (RowGroupStats g : s.stats()) {
          nulls += g.nulls();
          Double lo = number(g.min());
          Double hi = number(g.max());
          if (lo == null || hi == null) {
            ranged &= g.min() == null && g.max() == null && g.nulls() > 0;
          } else {
            min = Math.min(min, lo);
            max = Math.max(max, hi);
          }
        }
      }
      ColumnStatistics.Builder column =
          ColumnStatistics.builder().setNullsFraction(Estimate.of((double) nulls / rows));
      if (ranged && min <= max) {
        column.setRange(new DoubleRange(min, max));
      }
      if (c.type() instanceof VarcharType) {
        column.setDataSize(Estimate.of(bytes));
      }
      table.setColumnStatistics(c, column.build());
    }
    return table.build();
  }

  /** Core's statistics values (longs for integers, days and micros; doubles; decimals). */
  private static Double number(Object v) {
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
