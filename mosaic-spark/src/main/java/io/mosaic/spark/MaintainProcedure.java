package io.mosaic.spark;

import io.mosaic.design.DesignExecutor;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL mosaic.system.maintain(table => 'ns.t' [, action => 'start'] [, shape, rate,
 * full_rate, horizon, payoff, force, dry_run, device_rates, drift])}: the library's {@link
 * MaintainRequest} (docs/physical-design.md). A started transformation runs in the background in
 * the driver, step by step; {@code action => 'status'} returns its steps and state, {@code 'pause'
 * | 'resume' | 'cancel'} steer it, as {@code mosaic maintain} and Trino's procedure do on the same
 * queue.
 */
final class MaintainProcedure extends MosaicProcedure {
  static final String NAME = "maintain";

  MaintainProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Identify a Mosaic table's transformation and run it in the background, or steer it",
        MaintainResult.COLUMNS,
        optional("action", DataTypes.StringType),
        optional("shape", DataTypes.StringType),
        optional("rate", DataTypes.StringType),
        optional("full_rate", DataTypes.StringType),
        optional("horizon", DataTypes.DoubleType),
        optional("payoff", DataTypes.DoubleType),
        optional("force", DataTypes.BooleanType),
        optional("dry_run", DataTypes.BooleanType),
        optional("device_rates", DataTypes.StringType),
        optional("drift", DataTypes.DoubleType));
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    MaintainRequest request =
        MaintainRequest.parse(
                string(args, 0),
                string(args, 1),
                string(args, 2),
                string(args, 3),
                string(args, 4),
                string(args, 9),
                real(args, 5),
                real(args, 6),
                bool(args, 7),
                bool(args, 8))
            .withDrift(real(args, 10));
    return rows(executor().maintain(request, new DesignExecutor.Listener() {}, true).rows());
  }
}
