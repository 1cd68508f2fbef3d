package io.mosaic.trino;

import static io.mosaic.trino.TableProcedure.optional;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.airlift.log.Logger;
import io.mosaic.MosaicException;
import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;

/**
 * {@code CALL mosaic.system.maintain(schema_name => 'ns', table_name => 't' [, action => 'start']
 * [, shape, rate, full_rate, horizon, payoff, force, dry_run, device_rates, drift])}: the library's
 * {@link MaintainRequest} (docs/physical-design.md). A started transformation runs in the
 * background on the coordinator, step by step; {@code "t$moves"} shows its steps and state, and
 * {@code action => 'pause' | 'resume' | 'cancel'} steer it (the CLI's {@code mosaic maintain} sees
 * the same queue).
 */
final class MaintainProcedure implements Provider<Procedure> {
  private static final Logger log = Logger.get(MaintainProcedure.class);
  private final MosaicStorage storage;

  @Inject
  MaintainProcedure(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public Procedure get() {
    return TableProcedure.of(
        this,
        "maintain",
        "maintain",
        optional("ACTION", VARCHAR),
        optional("SHAPE", VARCHAR),
        optional("RATE", VARCHAR),
        optional("FULL_RATE", VARCHAR),
        optional("HORIZON", DOUBLE),
        optional("PAYOFF", DOUBLE),
        optional("FORCE", BOOLEAN),
        optional("DRY_RUN", BOOLEAN),
        optional("DEVICE_RATES", VARCHAR),
        optional("DRIFT", DOUBLE));
  }

  public void maintain(
      String schema,
      String table,
      String action,
      String shape,
      String rate,
      String fullRate,
      Double horizon,
      Double payoff,
      Boolean force,
      Boolean dryRun,
      String deviceRates,
      Double drift) {
    SchemaTableName name = new SchemaTableName(schema, table);
    MaintainRequest request;
    try {
      request =
          MaintainRequest.parse(
                  name.toString(),
                  action,
                  shape,
                  rate,
                  fullRate,
                  deviceRates,
                  horizon,
                  payoff,
                  force,
                  dryRun)
              .withDrift(drift);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    MaintainResult result =
        MosaicPlanner.maintain(
            storage,
            name,
            request,
            new DesignExecutor.Listener() {
              @Override
              public void stepCommitted(int index, MoveQueue.Step step, long version) {
                log.info(
                    "maintain %s: step %d (%s %s -> %s) committed version %d",
                    name, index + 1, step.column(), step.from(), step.target(), version);
              }
            });
    log.info(
        "maintain %s (%s): %s, %d steps; %s",
        name,
        request.action().name().toLowerCase(java.util.Locale.ROOT),
        result.state(),
        result.steps().size(),
        result.reason());
  }
}
