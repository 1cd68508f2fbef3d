package io.mosaic.trino;

import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner;
import java.util.LinkedHashMap;
import java.util.Map;

/** One column's row of {@code SHOW STATS}, as the tests and the statistics comparison read it. */
public record ShowStats(
    Double dataSize, Double distinct, Double nullsFraction, String low, String high) {

  /**
   * Every column's row of {@code SHOW STATS FOR table}, by column name (the summary row left out).
   */
  public static Map<String, ShowStats> of(QueryRunner runner, String table) {
    Map<String, ShowStats> stats = new LinkedHashMap<>();
    for (MaterializedRow row : runner.execute("SHOW STATS FOR " + table).getMaterializedRows()) {
      if (row.getField(0) != null) {
        stats.put(
            (String) row.getField(0),
            new ShowStats(
                (Double) row.getField(1),
                (Double) row.getField(2),
                (Double) row.getField(3),
                (String) row.getField(5),
                (String) row.getField(6)));
      }
    }
    return stats;
  }
}
