package io.mosaic.spark;

import io.mosaic.maintenance.TableCompactor;
import io.mosaic.operations.OptimizeResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code CALL mosaic.system.optimize(table => 'ns.t')}: compacts the small row groups that appends
 * left (docs/operations.md, "Compaction"); the library's operation, as Trino's {@code ALTER TABLE
 * ... EXECUTE optimize} and {@code mosaic optimize}.
 */
final class OptimizeProcedure extends MosaicProcedure {
  static final String NAME = "optimize";

  OptimizeProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Compact a Mosaic table's small row groups into row groups of its row_group_rows",
        OptimizeResult.COLUMNS);
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    return rows(executor().optimize(string(args, 0), new TableCompactor.Listener() {}).rows());
  }
}
