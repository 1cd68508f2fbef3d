package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The purchase recommendation curve of paper Figure 5: LOPT in budget mode (Eq. 8) from the
 * cheapest feasible budget (every column on the device where it costs least) up to the budget where
 * more money stops lowering the predicted time (the figure's vertical line), keeping only
 * Pareto-optimal points.
 *
 * <p>The upper end is found without guessing: LOPT without a budget gives the best time any
 * purchase can reach; a bisection over budgets then finds the cheapest budget that reaches it
 * (within {@link #SATURATION_TOLERANCE}). The curve between is sampled at evenly spaced budgets.
 */
public final class BudgetSweep {
  /** Times within this fraction of the best count as "more budget does not help". */
  public static final double SATURATION_TOLERANCE = 1e-3;

  private static final int BISECTION_STEPS = 7;

  private final PlacementStrategy strategy;
  private final int steps;

  /**
   * @param strategy solves one budget; must support budget mode (LOPT does, HOT does not)
   * @param steps how many evenly spaced budgets to solve between the two ends (at least 2)
   */
  public BudgetSweep(PlacementStrategy strategy, int steps) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    if (steps < 2) {
      throw MosaicException.invalid("a sweep needs at least 2 budgets, not " + steps);
    }
    this.steps = steps;
  }

  /** One recommendation: what to buy for a budget, and how fast the workload would scan. */
  public record Point(
      double budgetCents,
      double costCents,
      double predictedSeconds,
      Map<String, Long> bytesPerDevice,
      Placement placement) {
    public Point {
      bytesPerDevice = Collections.unmodifiableMap(new LinkedHashMap<>(bytesPerDevice));
    }
  }

  /**
   * The curve.
   *
   * @param points Pareto-optimal, by increasing cost and strictly decreasing time
   * @param minimumCents the cheapest feasible budget (Eq. 5 with every column on its cheapest
   *     device)
   * @param saturationCents the cheapest cost reaching the best time (the vertical line)
   * @param bestSeconds the best predicted time any budget buys
   */
  public record Result(
      List<Point> points, double minimumCents, double saturationCents, double bestSeconds) {
    public Result {
      points = List.copyOf(points);
    }
  }

  /**
   * The cheapest feasible budget in cents: every column on the device where it costs least, its
   * reads' requests and retrieval included ({@link CostModel#cents}).
   */
  public static double minimumBudgetCents(CostModel model) {
    double cents = 0;
    for (ColumnRef column : model.columns()) {
      double cheapest = Double.POSITIVE_INFINITY;
      for (DeviceProfile d : model.devices()) {
        cheapest = Math.min(cheapest, model.cents(d, column));
      }
      cents += cheapest;
    }
    return cents;
  }

  public Result sweep(CostModel model, Workload workload, PlacementOptions options) {
    double minimum = minimumBudgetCents(model);
    for (DeviceProfile d : model.devices()) {
      if (d.boundedCapacity()) {
        throw MosaicException.invalid(
            "device '"
                + d.id()
                + "' has a fixed capacity; a budget sweep recommends devices to buy, so give a"
                + " device catalogue (e.g. table1), not installed devices");
      }
    }
    // Best reachable time: no budget at all (catalogue devices have unbounded capacity).
    PlacementResult unbounded =
        strategy.place(new PlacementProblem(model, workload, PlacementMode.CAPACITY, options));
    double best = unbounded.prediction().totalSeconds();
    List<Point> solved = new ArrayList<>();
    Point top = point(unbounded.prediction().costCents(), unbounded);
    solved.add(top);

    // The cheapest budget that still reaches the best time: bisect between the two ends.
    double lo = minimum;
    double hi = top.costCents();
    Point knee = top;
    Point low = solve(model, workload, options, lo * (1 + 1e-9));
    solved.add(low);
    if (saturated(low, best)) {
      knee = low;
    } else {
      for (int i = 0; i < BISECTION_STEPS && hi - lo > 1e-6 * hi; i++) {
        double mid = (lo + hi) / 2;
        Point p = solve(model, workload, options, mid);
        solved.add(p);
        if (saturated(p, best)) {
          hi = mid;
          knee = p.costCents() < knee.costCents() ? p : knee;
        } else {
          lo = mid;
        }
      }
    }
    for (int i = 1; i < steps - 1; i++) {
      double budget = minimum + (knee.costCents() - minimum) * i / (steps - 1);
      solved.add(solve(model, workload, options, budget));
    }
    // The curve ends at the cheapest point reaching the best time, the vertical line: an evenly
    // spaced budget may have got there more cheaply than the bisection did.
    List<Point> curve = pareto(solved, best);
    return new Result(curve, minimum, curve.get(curve.size() - 1).costCents(), best);
  }

  private Point solve(CostModel model, Workload workload, PlacementOptions options, double budget) {
    PlacementResult r =
        strategy.place(
            new PlacementProblem(model, workload, PlacementMode.budget(budget), options));
    return point(budget, r);
  }

  private static Point point(double budget, PlacementResult r) {
    return new Point(
        budget,
        r.prediction().costCents(),
        r.prediction().totalSeconds(),
        r.prediction().bytesPerDevice(),
        r.placement());
  }

  private static boolean saturated(Point p, double best) {
    return p.predictedSeconds() <= best * (1 + SATURATION_TOLERANCE) + 1e-12;
  }

  /**
   * The points no other point beats: sorted by cost, each faster than every cheaper one by more
   * than {@link #SATURATION_TOLERANCE}, up to the cheapest point within that tolerance of {@code
   * best}, which ends the curve at the vertical line. That point is kept even when it is less than
   * the tolerance faster than the point before it (which is then just short of the best time), or a
   * costlier point beyond the line would take its place. A point's budget is what it was solved
   * with; its cost is what the placement really costs.
   */
  static List<Point> pareto(List<Point> points, double best) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(
        (a, b) ->
            a.costCents() != b.costCents()
                ? Double.compare(a.costCents(), b.costCents())
                : Double.compare(a.predictedSeconds(), b.predictedSeconds()));
    List<Point> front = new ArrayList<>();
    double fastest = Double.POSITIVE_INFINITY;
    for (Point p : sorted) {
      boolean last = saturated(p, best);
      // Faster by more than the saturation tolerance: solver noise (~1e-6) is not an improvement.
      if (p.predictedSeconds() < fastest * (1 - SATURATION_TOLERANCE)
          || (last && p.predictedSeconds() < fastest)) {
        front.add(p);
        fastest = p.predictedSeconds();
      }
      if (last) {
        break;
      }
    }
    return front;
  }
}
