package io.mosaic.spark;

import io.mosaic.operations.MaintenanceSyntax;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.operations.PlaceResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;

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

  PlaceProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Plan (and with apply => true, migrate to) the placement that minimises the predicted"
            + " scan time of a Mosaic table's recorded workload, under optional constraints",
        PlaceResult.COLUMNS,
        optional("strategy", DataTypes.StringType),
        optional("time_limit", DataTypes.StringType),
        optional("apply", DataTypes.BooleanType),
        optional("pins", DataTypes.StringType),
        optional("min_bytes", DataTypes.StringType),
        optional("max_bytes", DataTypes.StringType),
        optional("max_devices", DataTypes.IntegerType),
        optional("no_regression", DataTypes.DoubleType),
        optional("no_regression_reference", DataTypes.StringType),
        optional("sample_fraction", DataTypes.DoubleType),
        optional("seed", DataTypes.LongType),
        optional("ranges", DataTypes.BooleanType));
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    String timeLimit = string(args, 2);
    PlaceRequest request =
        PlaceRequest.builder(string(args, 0))
            .strategy(string(args, 1))
            .timeLimit(
                timeLimit == null ? null : MaintenanceSyntax.duration(timeLimit, "time_limit"))
            .apply(bool(args, 3))
            .pins(string(args, 4))
            .minBytes(string(args, 5))
            .maxBytes(string(args, 6))
            .maxDevices(args.isNullAt(7) ? null : args.getInt(7))
            .noRegression(real(args, 8), string(args, 9))
            .sample(real(args, 10), args.isNullAt(11) ? null : args.getLong(11))
            .ranges(bool(args, 12))
            .build();
    return rows(executor().place(request).rows());
  }
}
