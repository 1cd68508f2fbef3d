package io.mosaic.placement;

import io.mosaic.model.Placement;
import io.mosaic.model.Prediction;
import java.time.Duration;

/**
 * A strategy's answer and how good it is.
 *
 * @param prediction the model's prediction for the whole workload (sampled or not)
 * @param objective Eq. 4 on the scans the strategy solved on ({@link
 *     PlacementProblem#solveWorkload}), in seconds
 * @param lowerBound the solver's best bound on that objective; NaN for heuristics
 * @param gap {@code (objective - lowerBound) / objective}; at most {@link
 *     LoptStrategy#OPTIMALITY_GAP} when optimal, NaN for heuristics
 * @param optimal whether the objective is proven optimal within the solver's tolerances (relative
 *     gap {@link LoptStrategy#OPTIMALITY_GAP}, as Gurobi's default)
 * @param lpBound the LP relaxation's optimum (continuous {@code I}), a weaker bound; NaN if not
 *     computed
 * @param lpGap {@code (objective - lpBound) / objective}; NaN if not computed
 */
public record PlacementResult(
    Placement placement,
    Prediction prediction,
    double objective,
    double lowerBound,
    double gap,
    boolean optimal,
    Duration solveTime,
    String strategy,
    double lpBound,
    double lpGap) {

  /** A heuristic's result: no bound, no gap. */
  static PlacementResult heuristic(
      String strategy, PlacementProblem problem, Placement placement, Duration solveTime) {
    return new PlacementResult(
        placement,
        problem.model().predict(problem.workload(), placement),
        problem.model().totalTime(problem.solveWorkload(), placement),
        Double.NaN,
        Double.NaN,
        false,
        solveTime,
        strategy,
        Double.NaN,
        Double.NaN);
  }

  /** Relative gap as MIP solvers report it; 0 when both are 0. */
  static double relativeGap(double objective, double bound) {
    if (Double.isNaN(bound)) {
      return Double.NaN;
    }
    double diff = Math.max(0, objective - bound);
    return diff == 0 ? 0 : diff / Math.max(Math.abs(objective), 1e-12);
  }
}
