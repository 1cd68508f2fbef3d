package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;

import java.util.Arrays;
import java.util.List;

/**
 * {@code analyze}: what adding the missing column statistics (distinct-value sketches, data sizes)
 * to a table did (core's {@code TableAnalyzer}). One row: Spark's {@code CALL analyze}; the CLI's
 * {@code mosaic analyze} prints the same fields; Trino's {@code ANALYZE} runs the same operation.
 *
 * @param version the version the analysis committed, null when every row group had its statistics
 *     already (nothing was read or committed)
 */
public record AnalyzeResult(String table, int segmentsRead, long rowGroupsAnalyzed, Long version) {
  public static final List<ResultColumn> COLUMNS =
      List.of(
          ResultColumn.of("table_name", STRING),
          ResultColumn.of("segments_read", INT),
          ResultColumn.of("row_groups_analyzed", LONG),
          ResultColumn.nullable("version", LONG));

  public List<List<Object>> rows() {
    return List.of(Arrays.asList(table, segmentsRead, rowGroupsAnalyzed, version));
  }
}
