package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_CANNOT_PLACE;
import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;

import io.mosaic.MosaicException;
import io.mosaic.placement.InstalledPlan;
import io.mosaic.placement.PlacementStrategy;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

/**
 * Runs the planner (paper Section 3.4, capacity mode) on one table of the catalog, over the scans
 * Trino recorded in its trace and the pool's calibrated device model, as {@code mosaic place} does.
 */
final class MosaicPlanner {
  /** The strategies, in the order {@code "t$plan"} lists them. */
  static final List<String> STRATEGIES = List.of("lopt", "hot-column", "hot-table");

  /** LOPT's default solver time limit: a CALL, or a query on {@code $plan}, waits this long. */
  static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(10);

  private MosaicPlanner() {}

  /**
   * The plan of {@code strategy} for the table now.
   *
   * @param strategy a name {@link #STRATEGIES} lists (checked by the caller)
   */
  static InstalledPlan plan(
      MosaicStorage storage, SchemaTableName name, String strategy, Duration timeLimit) {
    MosaicTable table = storage.open(name);
    checkTraced(name, table);
    PlacementStrategy placer = InstalledPlan.strategy(strategy, timeLimit);
    try {
      return InstalledPlan.compute(storage.pool(), List.of(table), placer);
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot place " + name + ": " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot place " + name + ": " + e.getMessage(), e);
    } catch (MosaicException e) {
      // No device model, no room, no solution: each by its kind (MosaicErrors).
      throw MosaicErrors.toTrino(e, "cannot place " + name);
    }
  }

  /** Core's own message names the table by its directory; this one says what to run in Trino. */
  private static void checkTraced(SchemaTableName name, MosaicTable table) {
    TraceLog log = new TraceLog(table.root());
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
