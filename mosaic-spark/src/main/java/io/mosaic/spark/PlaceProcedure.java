package io.mosaic.spark;

import io.mosaic.operations.MaintenanceSyntax;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.operations.PlaceResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL mosaic.system.place(table => 'ns.t', strategy => 'lopt', time_limit => '60s', apply
 * => false, pins => 'l_comment=hdd', min_bytes => 'nvme=1GB', max_bytes => ..., max_devices => 2,
 * no_regression => 0.1, no_regression_reference => 'current', sample_fraction => 0.6, seed => 7)}:
 * the library's {@link PlaceRequest} (docs/operations.md), one row per column in {@link
 * PlaceResult#COLUMNS}. Only the plan unless {@code apply => true}; applying migrates online and
 * starts a new trace epoch.
 */
final class PlaceProcedure extends MosaicProcedure {
  static final String NAME = "place";

  private static final StructType OUTPUT = schema(PlaceResult.COLUMNS);

  PlaceProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Plan (and with apply => true, migrate to) the placement that minimises the predicted"
        + " scan time of a Mosaic table's recorded workload, under optional constraints";
  }

  @Override
  public ProcedureParameter[] parameters() {
    // Defaults are NULL where the library holds the default, so there is one of each.
    return new ProcedureParameter[] {
      ProcedureParameter.in("table", DataTypes.StringType).build(),
      ProcedureParameter.in("strategy", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("time_limit", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("apply", DataTypes.BooleanType).defaultValue("NULL").build(),
      ProcedureParameter.in("pins", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("min_bytes", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("max_bytes", DataTypes.StringType).defaultValue("NULL").build(),
      ProcedureParameter.in("max_devices", DataTypes.IntegerType).defaultValue("NULL").build(),
      ProcedureParameter.in("no_regression", DataTypes.DoubleType).defaultValue("NULL").build(),
      ProcedureParameter.in("no_regression_reference", DataTypes.StringType)
          .defaultValue("NULL")
          .build(),
      ProcedureParameter.in("sample_fraction", DataTypes.DoubleType).defaultValue("NULL").build(),
      ProcedureParameter.in("seed", DataTypes.LongType).defaultValue("NULL").build(),
      ProcedureParameter.in("ranges", DataTypes.BooleanType).defaultValue("NULL").build()
    };
  }

  @Override
  StructType outputType() {
    return OUTPUT;
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    String timeLimit = string(args, 2);
    PlaceRequest request =
        PlaceRequest.builder(string(args, 0))
            .strategy(string(args, 1))
            .timeLimit(
                timeLimit == null ? null : MaintenanceSyntax.duration(timeLimit, "time_limit"))
            .apply(args.isNullAt(3) ? null : args.getBoolean(3))
            .pins(string(args, 4))
            .minBytes(string(args, 5))
            .maxBytes(string(args, 6))
            .maxDevices(args.isNullAt(7) ? null : args.getInt(7))
            .noRegression(args.isNullAt(8) ? null : args.getDouble(8), string(args, 9))
            .sample(
                args.isNullAt(10) ? null : args.getDouble(10),
                args.isNullAt(11) ? null : args.getLong(11))
            .ranges(args.isNullAt(12) ? null : args.getBoolean(12))
            .build();
    return rows(executor().place(request).rows());
  }
}
