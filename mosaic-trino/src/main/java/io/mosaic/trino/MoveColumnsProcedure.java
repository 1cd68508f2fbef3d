package io.mosaic.trino;

import static io.mosaic.trino.TableProcedure.optional;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.airlift.log.Logger;
import io.mosaic.MosaicException;
import io.mosaic.operations.MoveRequest;
import io.mosaic.operations.MoveResult;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;

/**
 * {@code CALL mosaic.system.move_columns('tiny', 'lineitem', 'l_comment=hdd, l_shipdate=nvme')}:
 * the library's {@link MoveRequest} (docs/operations.md), online, one committed version per column,
 * and a new trace epoch as in Spark and the CLI; {@code apply => false} only logs the moves.
 */
final class MoveColumnsProcedure implements Provider<Procedure> {
  private static final Logger log = Logger.get(MoveColumnsProcedure.class);
  private final MosaicStorage storage;

  @Inject
  MoveColumnsProcedure(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public Procedure get() {
    return TableProcedure.of(
        this,
        "move_columns",
        "moveColumns",
        new Procedure.Argument("PLACEMENT", VARCHAR),
        optional("APPLY", BOOLEAN));
  }

  public void moveColumns(String schema, String table, String placement, Boolean apply) {
    SchemaTableName name = new SchemaTableName(schema, table);
    MoveRequest request;
    try {
      request = MoveRequest.parse(name.toString(), placement, apply);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    MoveResult result = MosaicPlanner.move(storage, name, request);
    log.info(
        "move_columns %s: %s%s",
        name,
        result.plan().describe().strip(),
        result.applied()
            ? "; now at version "
                + result.version()
                + ", trace epoch "
                + result.columns().get(0).traceEpoch()
            : request.apply() ? "" : "; dry run, nothing moved");
  }
}
