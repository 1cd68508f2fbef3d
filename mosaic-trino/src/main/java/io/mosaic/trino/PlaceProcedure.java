package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;
import static io.mosaic.trino.MosaicStorage.call;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.lang.invoke.MethodType.methodType;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.airlift.log.Logger;
import io.mosaic.MosaicException;
import io.mosaic.device.ByteSize;
import io.mosaic.placement.InstalledPlan;
import io.mosaic.table.Manifest;
import io.mosaic.table.Migrator;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code CALL mosaic.system.place('tiny', 'lineitem', strategy => 'lopt', time_limit => '10s',
 * dry_run => false)}: places the table's columns with the planner over the scans Trino recorded
 * (what {@code mosaic place} prints), then migrates them as {@code move_columns} does (one
 * committed version per column, online) and starts a new trace epoch, as {@code mosaic migrate}
 * does. A procedure returns no rows: {@code "t$plan"} shows the plan beforehand, {@code
 * "t$placement"} the result, and the coordinator's log a summary.
 */
final class PlaceProcedure implements Provider<Procedure> {
  private static final Logger log = Logger.get(PlaceProcedure.class);
  private static final MethodHandle PLACE;

  static {
    try {
      PLACE =
          MethodHandles.lookup()
              .findVirtual(
                  PlaceProcedure.class,
                  "place",
                  methodType(
                      void.class,
                      String.class,
                      String.class,
                      String.class,
                      String.class,
                      Boolean.class));
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private final MosaicStorage storage;

  @Inject
  PlaceProcedure(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public Procedure get() {
    return new Procedure(
        "system",
        "place",
        List.of(
            new Procedure.Argument("SCHEMA_NAME", VARCHAR),
            new Procedure.Argument("TABLE_NAME", VARCHAR),
            // Optional arguments default to NULL, read as lopt, 10s and false below.
            new Procedure.Argument("STRATEGY", VARCHAR, false, null),
            new Procedure.Argument("TIME_LIMIT", VARCHAR, false, null),
            new Procedure.Argument("DRY_RUN", BOOLEAN, false, null)),
        PLACE.bindTo(this));
  }

  public void place(
      String schema, String table, String strategy, String timeLimit, Boolean dryRun) {
    SchemaTableName name = new SchemaTableName(schema, table);
    String strategyName = strategy == null ? "lopt" : strategy.strip();
    if (!MosaicPlanner.STRATEGIES.contains(strategyName)) {
      throw new TrinoException(
          INVALID_PROCEDURE_ARGUMENT,
          "strategy '"
              + strategyName
              + "' is unknown; use "
              + String.join(", ", MosaicPlanner.STRATEGIES)
              + " (LOPT is the default)");
    }
    InstalledPlan plan = MosaicPlanner.plan(storage, name, strategyName, parseTimeLimit(timeLimit));
    String summary =
        String.format(
            Locale.ROOT,
            "place %s with %s: %d of %d columns move (%s), predicted workload time %.3f s -> %.3f s",
            name,
            strategyName,
            plan.columns().stream().filter(InstalledPlan.ColumnPlan::moves).count(),
            plan.columns().size(),
            ByteSize.ofBytes(plan.bytesToMove()),
            plan.before().totalSeconds(),
            plan.result().prediction().totalSeconds());
    if (Boolean.TRUE.equals(dryRun)) {
      log.info("%s; dry run, nothing moved", summary);
      return;
    }
    MosaicTable t = storage.open(name);
    Migrator migrator = new Migrator(t);
    Migrator.Plan moves;
    try {
      moves = call(() -> migrator.plan(plan.placementOf(t.name())));
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    if (moves.moves().isEmpty()) {
      log.info("%s; already placed so, nothing moved", summary);
      return;
    }
    Manifest result;
    try {
      result = migrator.apply(moves, new Migrator.Listener() {});
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, e.getMessage(), e);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    // The trace so far describes the old placement's costs: the next plan starts from new scans.
    int epoch = new TraceLog(t.root()).newEpoch();
    log.info(
        "%s; moved %d segments, now at version %d, trace epoch %d",
        summary, moves.moves().size(), result.version(), epoch);
  }

  static Duration parseTimeLimit(String text) {
    if (text == null) {
      return MosaicPlanner.DEFAULT_TIME_LIMIT;
    }
    try {
      io.airlift.units.Duration d = io.airlift.units.Duration.valueOf(text.strip());
      if (d.toMillis() < 1) {
        throw new IllegalArgumentException("it is below 1ms");
      }
      return d.toJavaTime();
    } catch (IllegalArgumentException e) {
      throw new TrinoException(
          INVALID_PROCEDURE_ARGUMENT,
          "time_limit '"
              + text
              + "' is not a usable duration ("
              + e.getMessage()
              + "); write e.g. '10s' or '2m'",
          e);
    }
  }
}
