package io.mosaic.placement;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cheap necessary conditions for a placement to exist, checked before solving so an impossible
 * problem fails with a reason rather than a bare "infeasible" from the solver.
 */
final class FeasibilityCheck {
  private FeasibilityCheck() {}

  /** Throws {@link InfeasiblePlacementException} naming the first violated condition found. */
  static void check(PlacementProblem problem) {
    CostModel model = problem.model();
    checkPins(problem);
    // Every column on the device that stores it smallest: no placement needs less (Eq. 7).
    long need = 0;
    long pool = 0;
    boolean bounded = true;
    for (DeviceProfile d : model.devices()) {
      long limit = problem.limitBytes(d);
      bounded &= limit != Long.MAX_VALUE;
      pool = bounded ? Math.addExact(pool, limit) : Long.MAX_VALUE;
    }
    // Every column on the device where it costs least: no placement is cheaper (Eq. 8).
    double cheapest = 0;
    for (ColumnRef column : model.columns()) {
      long smallest = Long.MAX_VALUE;
      double cheapestHere = Double.POSITIVE_INFINITY;
      for (DeviceProfile d : allowed(problem, column)) {
        long stored = model.storedBytes(d, column);
        if (stored > problem.limitBytes(d)) {
          continue;
        }
        smallest = Math.min(smallest, stored);
        cheapestHere = Math.min(cheapestHere, model.cents(d, column));
      }
      if (smallest == Long.MAX_VALUE) {
        throw new InfeasiblePlacementException(
            "column "
                + column
                + " needs at least "
                + Numbers.bytes(minStored(model, column))
                + " after compression; no device it may go to has that much room");
      }
      need = Math.addExact(need, smallest);
      cheapest += cheapestHere;
    }
    if (bounded && need > pool) {
      throw new InfeasiblePlacementException(
          "data needs "
              + Numbers.bytes(need)
              + " after compression, the pool holds "
              + Numbers.bytes(pool)
              + ": short by "
              + Numbers.bytes(need - pool));
    }
    if (problem.mode() instanceof PlacementMode.Budget budget
        && cheapest > budget.budgetCents() * (1 + 1e-9)) {
      throw new InfeasiblePlacementException(
          "the cheapest placement costs "
              + Numbers.cents(cheapest)
              + "; budget "
              + Numbers.cents(budget.budgetCents())
              + " is below it");
    }
  }

  /** Columns pinned to one device must fit it together. */
  private static void checkPins(PlacementProblem problem) {
    CostModel model = problem.model();
    Map<String, Long> pinnedBytes = new LinkedHashMap<>();
    problem
        .options()
        .pinned()
        .forEach(
            (column, id) ->
                pinnedBytes.merge(id, model.storedBytes(model.device(id), column), Math::addExact));
    pinnedBytes.forEach(
        (id, bytes) -> {
          long limit = problem.limitBytes(model.device(id));
          if (bytes > limit) {
            throw new InfeasiblePlacementException(
                "columns pinned to '"
                    + id
                    + "' need "
                    + Numbers.bytes(bytes)
                    + " after compression, '"
                    + id
                    + "' holds "
                    + Numbers.bytes(limit)
                    + ": short by "
                    + Numbers.bytes(bytes - limit));
          }
        });
  }

  /** The devices a column may go to: its pinned device, or all. */
  static List<DeviceProfile> allowed(PlacementProblem problem, ColumnRef column) {
    String pinned = problem.pinnedDevice(column);
    return pinned == null ? problem.model().devices() : List.of(problem.model().device(pinned));
  }

  private static long minStored(CostModel model, ColumnRef column) {
    return model.devices().stream().mapToLong(d -> model.storedBytes(d, column)).min().orElse(0);
  }
}
