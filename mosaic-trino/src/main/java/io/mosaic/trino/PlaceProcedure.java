package io.mosaic.trino;

import static io.mosaic.trino.TableProcedure.optional;
import static io.trino.spi.StandardErrorCode.INVALID_PROCEDURE_ARGUMENT;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static io.trino.spi.type.VarcharType.VARCHAR;

import com.google.inject.Inject;
import com.google.inject.Provider;
import io.airlift.log.Logger;
import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.operations.PlaceResult;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.procedure.Procedure;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code CALL mosaic.system.place('tiny', 'lineitem', strategy => 'lopt', time_limit => '60s',
 * apply => true, pins => 'l_comment=slow', max_devices => 1, no_regression => 0.1, sample_fraction
 * => 0.6, seed => 7)}: the library's {@link PlaceRequest} (docs/operations.md) over the scans Trino
 * recorded. Only a plan unless {@code apply => true}; applying migrates online (one committed
 * version per column) and starts a new trace epoch. A Trino procedure returns no rows: {@code
 * "t$plan"} shows the plan with the same columns as Spark's {@code CALL}, {@code "t$placement"}
 * where columns live, and the coordinator's log a summary of each call.
 */
final class PlaceProcedure implements Provider<Procedure> {
  private static final Logger log = Logger.get(PlaceProcedure.class);
  private final MosaicStorage storage;

  @Inject
  PlaceProcedure(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public Procedure get() {
    return TableProcedure.of(
        this,
        "place",
        "place",
        optional("STRATEGY", VARCHAR),
        optional("TIME_LIMIT", VARCHAR),
        optional("APPLY", BOOLEAN),
        optional("PINS", VARCHAR),
        optional("MIN_BYTES", VARCHAR),
        optional("MAX_BYTES", VARCHAR),
        optional("MAX_DEVICES", BIGINT),
        optional("NO_REGRESSION", DOUBLE),
        optional("NO_REGRESSION_REFERENCE", VARCHAR),
        optional("SAMPLE_FRACTION", DOUBLE),
        optional("SEED", BIGINT),
        optional("RANGES", BOOLEAN));
  }

  public void place(
      String schema,
      String table,
      String strategy,
      String timeLimit,
      Boolean apply,
      String pins,
      String minBytes,
      String maxBytes,
      Long maxDevices,
      Double noRegression,
      String noRegressionReference,
      Double sampleFraction,
      Long seed,
      Boolean ranges) {
    SchemaTableName name = new SchemaTableName(schema, table);
    PlaceRequest request;
    try {
      request =
          PlaceRequest.builder(name.toString())
              .strategy(strategy)
              .timeLimit(parseTimeLimit(timeLimit))
              .apply(apply)
              .pins(pins)
              .minBytes(minBytes)
              .maxBytes(maxBytes)
              .maxDevices(maxDevices == null ? null : (int) Math.min(maxDevices, Integer.MAX_VALUE))
              .noRegression(noRegression, noRegressionReference)
              .sample(sampleFraction, seed)
              .ranges(ranges)
              .build();
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    PlaceResult result = MosaicPlanner.place(storage, name, request);
    String summary =
        String.format(
            Locale.ROOT,
            "place %s with %s: %d of %d columns move (%s) to %d devices, predicted workload time"
                + " %.3f s -> %.3f s, solved on %d of %d scans",
            name,
            request.strategy(),
            result.columns().stream().filter(PlaceResult.ColumnRow::moves).count(),
            result.columns().size(),
            ByteSize.ofBytes(result.bytesToMove()),
            result.devicesUsed(),
            result.predictedSecondsBefore(),
            result.predictedSecondsAfter(),
            result.scansPlanned(),
            result.scansRecorded());
    if (!request.apply()) {
      log.info("%s; dry run, nothing moved (apply => true migrates)", summary);
    } else if (!result.applied()) {
      log.info("%s; already placed so, nothing moved", summary);
    } else {
      log.info("%s; migrated, trace epoch %d", summary, result.columns().get(0).traceEpoch());
    }
  }

  /** An airlift duration ({@code '10s'}, {@code '2m'}); null keeps the library's default. */
  static Duration parseTimeLimit(String text) {
    if (text == null) {
      return null;
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
