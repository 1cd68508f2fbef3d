package io.mosaic.placement;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings a placement that overfills a device or overshoots the budget by a little back inside, a
 * column at a time. A MIP solver's tolerance lets its incumbent do that by a rounding error (SCIP
 * checks rows to about 1e-6 relative, Mosaic checks bytes and cents exactly), and solving again
 * with a strict tolerance costs a second time limit. Each step moves the column, to the device,
 * that shrinks an excess at the least cost in predicted time (Eq. 4) without overfilling the target
 * or breaking a pin; it gives up after {@link #MAX_MOVES} moves.
 */
final class PlacementRepair {
  private static final int MAX_MOVES = 64;

  private final PlacementProblem problem;
  private final CostModel model;
  private final Map<ColumnRef, List<DistinctScan>> scansOf = new HashMap<>();

  private PlacementRepair(PlacementProblem problem) {
    this.problem = problem;
    this.model = problem.model();
    for (DistinctScan scan : problem.solveWorkload().scans()) {
      for (ColumnRef column : scan.columns()) {
        scansOf.computeIfAbsent(column, k -> new ArrayList<>()).add(scan);
      }
    }
  }

  /**
   * {@code start} moved inside every device's limit and the budget, or null if {@link #MAX_MOVES}
   * moves do not get it there. Other constraints are left to the caller's exact check.
   */
  static Placement repair(PlacementProblem problem, Placement start) {
    return new PlacementRepair(problem).run(start);
  }

  private Placement run(Placement start) {
    Map<ColumnRef, String> deviceOf = new HashMap<>(start.deviceOf());
    for (int move = 0; move <= MAX_MOVES; move++) {
      Placement placement = new Placement(deviceOf);
      Map<String, Long> used = model.usedBytes(placement);
      double cost = model.cost(placement);
      double budget =
          problem.mode() instanceof PlacementMode.Budget b
              ? b.budgetCents()
              : Double.POSITIVE_INFINITY;
      boolean overBudget = cost > budget;
      List<String> overfull = new ArrayList<>();
      for (DeviceProfile d : model.devices()) {
        if (used.get(d.id()) > problem.limitBytes(d)) {
          overfull.add(d.id());
        }
      }
      if (!overBudget && overfull.isEmpty()) {
        return placement;
      }
      if (move == MAX_MOVES) {
        return null;
      }
      ColumnRef bestColumn = null;
      String bestDevice = null;
      double bestLoss = Double.POSITIVE_INFINITY;
      for (ColumnRef column : model.columns()) {
        String from = deviceOf.get(column);
        if (problem.pinnedDevice(column) != null) {
          continue;
        }
        DeviceProfile source = model.device(from);
        for (DeviceProfile target : model.devices()) {
          if (target.id().equals(from)) {
            continue;
          }
          long bytes = model.storedBytes(target, column);
          if (used.get(target.id()) + bytes > problem.limitBytes(target)) {
            continue;
          }
          double moved = cost + model.cents(target, column) - model.cents(source, column);
          boolean helps =
              overfull.contains(from)
                  ? moved <= Math.max(cost, budget)
                  : overBudget && moved < cost;
          if (!helps) {
            continue;
          }
          double loss = loss(deviceOf, column, target.id());
          if (loss < bestLoss) {
            bestLoss = loss;
            bestColumn = column;
            bestDevice = target.id();
          }
        }
      }
      if (bestColumn == null) {
        return null;
      }
      deviceOf.put(bestColumn, bestDevice);
    }
    return null;
  }

  /** How much longer the column's scans take (Eq. 4, weighted) with it on {@code target}. */
  private double loss(Map<ColumnRef, String> deviceOf, ColumnRef column, String target) {
    DeviceProfile moved = model.device(target);
    double loss = 0;
    for (DistinctScan scan : scansOf.getOrDefault(column, List.of())) {
      double after =
          model.scanTime(scan, c -> c.equals(column) ? moved : model.device(deviceOf.get(c)));
      double before = model.scanTime(scan, c -> model.device(deviceOf.get(c)));
      loss += scan.weight() * (after - before);
    }
    return loss;
  }
}
