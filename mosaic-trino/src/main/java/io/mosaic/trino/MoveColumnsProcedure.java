package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;
import static io.mosaic.trino.MosaicStorage.call;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.invoke.MethodType.methodType;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.mosaic.MosaicException;
import io.mosaic.table.Migrator;
import io.mosaic.table.MosaicTable;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL mosaic.system.move_columns('tiny', 'lineitem', 'l_comment=hdd, l_shipdate=nvme')}:
 * migrates columns between devices online (DESIGN section 6), one committed version per column; the
 * placement is what {@code mosaic place} prints (the planner's LOPT), or any hand-made one.
 */
final class MoveColumnsProcedure implements Provider<Procedure> {
  private static final MethodHandle MOVE;

  static {
    try {
      MOVE =
          MethodHandles.lookup()
              .findVirtual(
                  MoveColumnsProcedure.class,
                  "moveColumns",
                  methodType(void.class, String.class, String.class, String.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private final MosaicStorage storage;

  @Inject
  MoveColumnsProcedure(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public Procedure get() {
    return new Procedure(
        "system",
        "move_columns",
        List.of(
            new Procedure.Argument("SCHEMA_NAME", VARCHAR),
            new Procedure.Argument("TABLE_NAME", VARCHAR),
            new Procedure.Argument("PLACEMENT", VARCHAR)),
        MOVE.bindTo(this));
  }

  public void moveColumns(String schema, String table, String placement) {
    MosaicTable t = storage.open(new SchemaTableName(schema, table));
    Migrator migrator = new Migrator(t);
    Migrator.Plan plan;
    try {
      Map<String, String> target = Migrator.parsePlacement(placement);
      plan = call(() -> migrator.plan(target));
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    try {
      migrator.apply(plan, new Migrator.Listener() {});
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
  }
}
