package io.mosaic.spark;

import io.mosaic.operations.MoveRequest;
import io.mosaic.operations.MoveResult;
import java.io.IOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;

/**
 * {@code CALL mosaic.system.move_columns(table => 'ns.t', placement => 'c1=dev1, c2=dev2', apply =>
 * true)}: the library's {@link MoveRequest} (as {@code mosaic migrate --set}), online; one row per
 * moving column in {@link MoveResult#COLUMNS}; {@code apply => false} only lists the moves.
 */
final class MoveColumnsProcedure extends MosaicProcedure {
  static final String NAME = "move_columns";

  MoveColumnsProcedure(MosaicCatalog catalog) {
    super(
        catalog,
        NAME,
        "Move columns of a Mosaic table to the given devices, online",
        MoveResult.COLUMNS,
        ProcedureParameter.in("placement", DataTypes.StringType).build(),
        optional("apply", DataTypes.BooleanType));
  }

  @Override
  List<InternalRow> run(InternalRow args) throws IOException {
    MoveRequest request = MoveRequest.parse(string(args, 0), string(args, 1), bool(args, 2));
    return rows(executor().move(request).rows());
  }
}
