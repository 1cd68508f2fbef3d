package io.mosaic.spark;

import io.mosaic.placement.InstalledPlan;
import io.mosaic.placement.PlacementStrategy;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL mosaic.system.place(table => 'ns.t', strategy => 'lopt', apply => false,
 * time_limit_seconds => 60)}: what {@code mosaic place} computes (capacity mode on the installed
 * pool, from the table's recorded scans, real sizes and the calibrated device model), one row per
 * column; with {@code apply => true} the moving columns are migrated online, as {@code mosaic
 * migrate} does, and a new trace epoch starts.
 */
final class PlaceProcedure extends MosaicProcedure {
  static final String NAME = "place";

  private static final StructType OUTPUT =
      new StructType()
          .add("column_name", DataTypes.StringType, false)
          .add("current_device", DataTypes.StringType, false)
          .add("planned_device", DataTypes.StringType, false)
          .add("stored_bytes", DataTypes.LongType, false)
          .add("moves", DataTypes.BooleanType, false)
          .add("applied", DataTypes.BooleanType, false)
          .add("predicted_seconds_before", DataTypes.DoubleType, false)
          .add("predicted_seconds_after", DataTypes.DoubleType, false);

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
        + " scan time of a Mosaic table's recorded workload";
  }

  @Override
  public ProcedureParameter[] parameters() {
    return new ProcedureParameter[] {
      ProcedureParameter.in("table", DataTypes.StringType).build(),
      ProcedureParameter.in("strategy", DataTypes.StringType).defaultValue("'lopt'").build(),
      ProcedureParameter.in("apply", DataTypes.BooleanType).defaultValue("false").build(),
      ProcedureParameter.in("time_limit_seconds", DataTypes.IntegerType).defaultValue("60").build()
    };
  }

  @Override
  StructType outputType() {
    return OUTPUT;
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    MosaicTable table = catalog.openTable(string(args, 0));
    String strategyName = args.isNullAt(1) ? "lopt" : string(args, 1).strip();
    boolean apply = !args.isNullAt(2) && args.getBoolean(2);
    int seconds = args.isNullAt(3) ? 60 : args.getInt(3);
    if (seconds <= 0) {
      throw new IllegalArgumentException(
          "time_limit_seconds => " + seconds + " must be a positive number of seconds");
    }
    PlacementStrategy strategy = InstalledPlan.strategy(strategyName, Duration.ofSeconds(seconds));
    InstalledPlan plan = InstalledPlan.compute(table.pool(), List.of(table), strategy);
    Set<String> applied = new HashSet<>();
    if (apply) {
      Migration m = Migration.apply(table, plan.placementOf(table.name()));
      m.plan().moves().forEach(move -> applied.add(move.column()));
    }
    double before = plan.before().totalSeconds();
    double after = plan.result().prediction().totalSeconds();
    List<InternalRow> rows = new ArrayList<>();
    for (InstalledPlan.ColumnPlan c : plan.columns()) {
      rows.add(
          new GenericInternalRow(
              new Object[] {
                utf8(c.column().column()),
                utf8(c.from()),
                utf8(c.to()),
                c.storedBytes(),
                c.moves(),
                applied.contains(c.column().column()),
                before,
                after
              }));
    }
    return rows;
  }
}
