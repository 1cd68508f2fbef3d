package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;

import io.mosaic.maintenance.TableCompactor;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What {@code optimize} did to a table (docs/operations.md, "Compaction"): one row in Spark's
 * {@code CALL optimize}, a line in the CLI's {@code mosaic optimize} and in the log of Trino's
 * {@code ALTER TABLE ... EXECUTE optimize}.
 *
 * @param epoch the trace epoch started by the compaction, or null when nothing was committed
 */
public record OptimizeResult(String table, TableCompactor.Result result, Integer epoch) {
  public static final List<ResultColumn> COLUMNS =
      List.of(
          ResultColumn.of("table_name", STRING),
          ResultColumn.of("rows", LONG),
          ResultColumn.of("row_groups_before", INT),
          ResultColumn.of("row_groups_after", INT),
          ResultColumn.of("bytes_rewritten", LONG),
          ResultColumn.nullable("version", LONG));

  public List<List<Object>> rows() {
    return List.of(
        Arrays.asList(
            table,
            result.rows(),
            result.rowGroupsBefore(),
            result.rowGroupsAfter(),
            result.bytesRewritten(),
            result.version().orElse(null)));
  }

  /** One line: what was compacted into what, or why nothing was. */
  public String summary() {
    if (!result.compacted()) {
      return String.format(
          Locale.ROOT,
          "optimize %s: nothing to do, %,d rows in %d row groups are as few as its row group size"
              + " allows (v%d)",
          table,
          result.rows(),
          result.rowGroupsBefore(),
          result.baseVersion());
    }
    return String.format(
        Locale.ROOT,
        "optimize %s: %,d rows from %d row groups into %d, %,d bytes rewritten, v%d -> v%d;"
            + " trace epoch %d started",
        table,
        result.rows(),
        result.rowGroupsBefore(),
        result.rowGroupsAfter(),
        result.bytesRewritten(),
        result.baseVersion(),
        result.version().orElseThrow(),
        epoch);
  }
}
