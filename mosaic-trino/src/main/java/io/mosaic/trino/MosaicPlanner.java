package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_CANNOT_PLACE;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.IntegerType.INTEGER;
import static io.trino.spi.type.TimestampWithTimeZoneType.TIMESTAMP_TZ_MILLIS;
import static io.trino.spi.type.VarcharType.VARCHAR;

import io.airlift.log.Logger;
import io.mosaic.MosaicException;
import io.mosaic.design.DesignExecutor;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.MoveRequest;
import io.mosaic.operations.MoveResult;
import io.mosaic.operations.OptimizeResult;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.operations.PlaceResult;
import io.mosaic.operations.ResultColumn;
import io.mosaic.placement.StrategyName;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.type.Type;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Runs the maintenance library (docs/operations.md) on one table of the catalog: the planner (paper
 * Section 3.4, capacity mode) over the scans Trino recorded and the pool's calibrated device model,
 * and core's migrations; and turns its failures into Trino errors.
 */
final class MosaicPlanner {
  private static final Logger log = Logger.get(MosaicPlanner.class);

  private MosaicPlanner() {}

  private static MaintenanceExecutor executor(MosaicStorage storage, SchemaTableName name) {
    return new MaintenanceExecutor(storage.pool(), ignored -> storage.open(name));
  }

  /** {@code place} on the table now; {@code request} names it as {@code schema.table}. */
  static PlaceResult place(MosaicStorage storage, SchemaTableName name, PlaceRequest request) {
    if (StrategyName.find(request.strategy()).isEmpty()) {
      throw new TrinoException(
          INVALID_PROCEDURE_ARGUMENT,
          "strategy '"
              + request.strategy()
              + "' is unknown; use "
              + String.join(", ", StrategyName.spellings())
              + " (LOPT is the default)");
    }
    checkTraced(name, storage.open(name));
    try {
      return executor(storage, name).place(request);
    } catch (IOException | UncheckedIOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot place " + name + ": " + e.getMessage(), e);
    } catch (MosaicException e) {
      // No device model, no room, no solution: each by its kind (MosaicErrors).
      throw MosaicErrors.toTrino(e, "cannot place " + name);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new TrinoException(MOSAIC_CANNOT_PLACE, "cannot place " + name + ": " + e.getMessage());
    }
  }

  /** {@code move} on the table now. */
  static MoveResult move(MosaicStorage storage, SchemaTableName name, MoveRequest request) {
    try {
      return executor(storage, name).move(request);
    } catch (IOException | UncheckedIOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
    } catch (MosaicException e) {
      // An unknown column or device is NOT_FOUND, a full device DEVICE_FULL (MosaicErrors).
      throw MosaicErrors.toTrino(e);
    }
  }

  /** {@code maintain}, its steps run in the background on this JVM (the coordinator). */
  static MaintainResult maintain(
      MosaicStorage storage,
      SchemaTableName name,
      MaintainRequest request,
      DesignExecutor.Listener listener) {
    try {
      return executor(storage, name).maintain(request, listener, true);
    } catch (IOException | UncheckedIOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e, "cannot maintain " + name);
    }
  }

  /** {@code optimize} on the table now, on this JVM (the coordinator). */
  static OptimizeResult optimize(MosaicStorage storage, SchemaTableName name) {
    try {
      OptimizeResult result =
          executor(storage, name).optimize(name.toString(), new TableCompactor.Listener() {});
      log.info("%s", result.summary());
      return result;
    } catch (IOException | UncheckedIOException e) {
      throw new TrinoException(
          MOSAIC_IO_ERROR, "cannot optimize " + name + ": " + e.getMessage(), e);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e, "cannot optimize " + name);
    }
  }

  /** A library result type as Trino's. */
  static Type type(ResultColumn column) {
    return switch (column.type()) {
      case STRING -> VARCHAR;
      case BOOLEAN -> BOOLEAN;
      case INT -> INTEGER;
      case LONG -> BIGINT;
      case DOUBLE -> DOUBLE;
      case TIMESTAMP -> TIMESTAMP_TZ_MILLIS;
    };
  }

  /** Core's own message names the table by its directory; this one says what to run in Trino. */
  private static void checkTraced(SchemaTableName name, MosaicTable table) {
    TraceLog log = TraceLog.of(table);
    int epoch = log.epoch();
    boolean scanned = log.read(epoch).stream().anyMatch(r -> !r.columns().isEmpty());
    if (!scanned) {
      throw new TrinoException(
          MOSAIC_CANNOT_PLACE,
          "cannot place "
              + name
              + ": no scan of it is recorded in its current trace epoch ("
              + epoch
              + "); run the queries the placement should serve first (every scan is recorded;"
              + " a placement starts a new epoch), then place");
    }
  }
}
