package io.mosaic.spark;

import io.mosaic.operations.PlacementStatus;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL mosaic.system.placement(table => 'ns.t')}: where each column of the table's latest
 * version lives now, one row per column and device (and codec), with its stored bytes: the
 * library's {@link PlacementStatus}, the same rows as Trino's {@code "t$placement"}.
 */
final class PlacementProcedure extends MosaicProcedure {
  static final String NAME = "placement";

  private static final StructType OUTPUT = schema(PlacementStatus.COLUMNS);

  PlacementProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Where each column of a Mosaic table lives: device, codec, segments and bytes";
  }

  @Override
  public ProcedureParameter[] parameters() {
    return new ProcedureParameter[] {ProcedureParameter.in("table", DataTypes.StringType).build()};
  }

  @Override
  StructType outputType() {
    return OUTPUT;
  }

  @Override
  List<InternalRow> run(InternalRow args) {
    return rows(executor().status(string(args, 0)).rows());
  }
}
