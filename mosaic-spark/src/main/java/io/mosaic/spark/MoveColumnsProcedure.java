package io.mosaic.spark;

import io.mosaic.operations.MoveRequest;
import io.mosaic.operations.MoveResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL mosaic.system.move_columns(table => 'ns.t', placement => 'c1=dev1, c2=dev2', apply =>
 * true)}: the library's {@link MoveRequest} (as {@code mosaic migrate --set}), online; one row per
 * moving column in {@link MoveResult#COLUMNS}; {@code apply => false} only lists the moves.
 */
final class MoveColumnsProcedure extends MosaicProcedure {
  static final String NAME = "move_columns";

  private static final StructType OUTPUT = schema(MoveResult.COLUMNS);

  MoveColumnsProcedure(MosaicCatalog catalog) {
    super(catalog);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Move columns of a Mosaic table to the given devices, online";
  }

  @Override
  public ProcedureParameter[] parameters() {
    return new ProcedureParameter[] {
      ProcedureParameter.in("table", DataTypes.StringType).build(),
      ProcedureParameter.in("placement", DataTypes.StringType).build(),
      ProcedureParameter.in("apply", DataTypes.BooleanType).defaultValue("NULL").build()
    };
  }

  @Override
  StructType outputType() {
    return OUTPUT;
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    MoveRequest request =
        MoveRequest.parse(
            string(args, 0), string(args, 1), args.isNullAt(2) ? null : args.getBoolean(2));
    return rows(executor().move(request).rows());
  }
}
