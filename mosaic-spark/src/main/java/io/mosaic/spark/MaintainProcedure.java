package io.mosaic.spark;

import io.mosaic.design.DesignExecutor;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

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

  private static final StructType OUTPUT = schema(MaintainResult.COLUMNS);

  MaintainProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Identify a Mosaic table's transformation and run it in the background, or steer it";
  }

  @Override
  public ProcedureParameter[] parameters() {
    return new ProcedureParameter[] {
      ProcedureParameter.in("table", DataTypes.StringType).build(),
      ProcedureParameter.in("action", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("shape", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("rate", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("full_rate", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("horizon", DataTypes.DoubleType).defaultValue("NULL").build(),
      ProcedureParameter.in("payoff", DataTypes.DoubleType).defaultValue("NULL").build(),
      ProcedureParameter.in("force", DataTypes.BooleanType).defaultValue("NULL").build(),
      ProcedureParameter.in("dry_run", DataTypes.BooleanType).defaultValue("NULL").build(),
      ProcedureParameter.in("device_rates", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("drift", DataTypes.DoubleType).defaultValue("NULL").build()
    };
  }

  @Override
  StructType outputType() {
    return OUTPUT;
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
                args.isNullAt(5) ? null : args.getDouble(5),
                args.isNullAt(6) ? null : args.getDouble(6),
                args.isNullAt(7) ? null : args.getBoolean(7),
                args.isNullAt(8) ? null : args.getBoolean(8))
            .withDrift(args.isNullAt(10) ? null : args.getDouble(10));
    return rows(executor().maintain(request, new DesignExecutor.Listener() {}, true).rows());
  }
}
