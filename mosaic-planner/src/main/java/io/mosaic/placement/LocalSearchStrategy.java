package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * LOPT's objective (Eq. 4 under Eq. 6-8) searched heuristically with OptaPlanner: a construction
 * heuristic, then late-acceptance local search, for instances too large for the exact MIP (Section
 * 5.5 shows the exact path's time growing with scans, tables and devices). Reports the gap against
 * the LP relaxation's bound, the only bound a heuristic has.
 *
 * <p>Supports capacity and budget mode, per-device maximum bytes and pinned columns; the other LOPT
 * options (minimum bytes, device count, no-regression) need the exact path.
 */
public final class LocalSearchStrategy implements PlacementStrategy {
  private final Duration timeLimit;
  private final Duration unimprovedLimit;
  private final long seed;

  /**
   * @param timeLimit the longest the search may run
   * @param unimprovedLimit stop earlier when the best score has not improved for this long
   * @param seed the random seed: the same seed and limits give the same moves
   */
  public LocalSearchStrategy(Duration timeLimit, Duration unimprovedLimit, long seed) {
    this.timeLimit = Objects.requireNonNull(timeLimit, "timeLimit");
    this.unimprovedLimit = Objects.requireNonNull(unimprovedLimit, "unimprovedLimit");
    if (timeLimit.isNegative() || timeLimit.isZero()) {
      throw MosaicException.invalid("time limit must be positive, not " + timeLimit);
    }
    this.seed = seed;
  }

  public LocalSearchStrategy() {
    this(Duration.ofSeconds(30), Duration.ofSeconds(3), 0);
  }

  @Override
  public String name() {
    return "OptaPlanner local search";
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    long start = System.nanoTime();
    if (!supports(problem.options())) {
      throw MosaicException.unsupported(
          name()
              + " supports capacities, budgets, maximum bytes and pins; for minimum bytes, a"
              + " device count or a no-regression bound use LOPT");
    }
    FeasibilityCheck.check(problem);
    CostModel model = problem.model();
    List<ColumnRef> columns = model.columns();
    Integer[] seedDevice = new Integer[columns.size()];
    if (problem.budgetMode()) {
      // Start from the cheapest placement, which the feasibility check proved within budget.
      for (int c = 0; c < columns.size(); c++) {
        seedDevice[c] = cheapest(problem, columns.get(c));
      }
    }
    Placement placement =
        LocalSearch.solve(problem, columns, seedDevice, timeLimit, unimprovedLimit, seed);
    if (!feasible(problem, placement)) {
      throw new InfeasiblePlacementException(
          name()
              + " found no placement within the constraints in "
              + timeLimit.toSeconds()
              + " s; try LOPT, which proves whether one exists");
    }
    double objective = model.totalTime(problem.solveWorkload(), placement);
    double lpBound = LoptFormulation.lpBound(problem, timeLimit);
    double gap = PlacementResult.relativeGap(objective, lpBound);
    return new PlacementResult(
        placement,
        model.predict(problem.workload(), placement),
        objective,
        lpBound,
        gap,
        false,
        Duration.ofNanos(System.nanoTime() - start),
        name(),
        lpBound,
        gap);
  }

  /** Whether the local search honours every option set (it lacks LOPT's side constraints). */
  static boolean supports(PlacementOptions o) {
    return o.minBytes().isEmpty() && o.maxDevices() == null && o.noRegression() == null;
  }

  /**
   * Local search started from {@code start} (a feasible placement, e.g. a time-limited MIP's
   * incumbent); returns a placement at least as good, or {@code start} itself.
   */
  static Placement improve(
      PlacementProblem problem, Placement start, Duration timeLimit, Duration unimproved) {
    CostModel model = problem.model();
    List<ColumnRef> columns = model.columns();
    List<String> ids = model.devices().stream().map(DeviceProfile::id).toList();
    Integer[] seedDevice = new Integer[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      seedDevice[c] = ids.indexOf(start.device(columns.get(c)));
    }
    Placement found = LocalSearch.solve(problem, columns, seedDevice, timeLimit, unimproved, 0);
    Workload scans = problem.solveWorkload();
    return feasible(problem, found) && model.totalTime(scans, found) < model.totalTime(scans, start)
        ? found
        : start;
  }

  private static int cheapest(PlacementProblem problem, ColumnRef column) {
    CostModel model = problem.model();
    String pinned = problem.pinnedDevice(column);
    int best = -1;
    double bestCents = Double.POSITIVE_INFINITY;
    for (int d = 0; d < model.devices().size(); d++) {
      DeviceProfile device = model.devices().get(d);
      if (pinned != null && !pinned.equals(device.id())) {
        continue;
      }
      double cents = model.cents(device, column);
      if (cents < bestCents) {
        bestCents = cents;
        best = d;
      }
    }
    return best;
  }

  private static boolean feasible(PlacementProblem problem, Placement placement) {
    CostModel model = problem.model();
    var used = model.usedBytes(placement);
    for (DeviceProfile d : model.devices()) {
      if (used.get(d.id()) > problem.limitBytes(d)) {
        return false;
      }
    }
    for (var pin : problem.options().pinned().entrySet()) {
      if (!placement.on(pin.getValue(), pin.getKey())) {
        return false;
      }
    }
    return !(problem.mode() instanceof PlacementMode.Budget b)
        || model.cost(placement) <= b.budgetCents() * (1 + 1e-9) + 1e-9;
  }
}
