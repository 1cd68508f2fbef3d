package io.mosaic.spark;

import io.mosaic.design.DesignExecutor;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code CALL mosaic.system.moves(table => 'ns.t')}: the progress view of a table's transformation
 * (docs/physical-design.md), the rows of {@code maintain(..., action => 'status')}: each step's
 * bytes done and left, and the transformation's bytes done and left, measured rate, ETA and
 * predicted workload time now, as {@code mosaic moves} and Trino's {@code $moves} table show them.
 */
final class MovesProcedure extends MosaicProcedure {
  static final String NAME = "moves";

  MovesProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Show the progress of a Mosaic table's transformation",
        MaintainResult.COLUMNS);
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    MaintainRequest request =
        MaintainRequest.parse(
            string(args, 0), "status", null, null, null, null, null, null, null, null);
    return rows(executor().maintain(request, new DesignExecutor.Listener() {}, false).rows());
  }
}
