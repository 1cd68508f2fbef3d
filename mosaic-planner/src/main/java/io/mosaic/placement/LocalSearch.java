package io.mosaic.placement;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.optaplanner.core.api.solver.Solver;
import org.optaplanner.core.api.solver.SolverFactory;
import org.optaplanner.core.config.solver.SolverConfig;
import org.optaplanner.core.config.solver.termination.TerminationConfig;

/** Runs OptaPlanner on a placement problem: the side-effecting edge of the local search. */
public final class LocalSearch {
  private LocalSearch() {}

  /**
   * @param start a device index per column to start from, or null entries for the construction
   *     heuristic to fill
   */
  public static Placement solve(
      PlacementProblem problem,
      List<ColumnRef> columns,
      Integer[] start,
      Duration timeLimit,
      Duration unimproved,
      long seed) {
    var devices = problem.model().devices();
    ScoreTables tables = new ScoreTables(problem, columns);
    List<ColumnAssignment> assignments = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      String pinned = problem.pinnedDevice(columns.get(c));
      Integer device = start[c];
      if (pinned != null) {
        for (int d = 0; d < devices.size(); d++) {
          if (devices.get(d).id().equals(pinned)) {
            device = d;
          }
        }
      }
      assignments.add(new ColumnAssignment(c, device, pinned != null));
    }
    PlacementSolution problemSolution =
        new PlacementSolution(
            assignments, IntStream.range(0, devices.size()).boxed().toList(), tables);
    SolverConfig config =
        new SolverConfig()
            .withSolutionClass(PlacementSolution.class)
            .withEntityClasses(ColumnAssignment.class)
            .withEasyScoreCalculatorClass(PlacementScoreCalculator.class)
            .withRandomSeed(seed)
            .withTerminationConfig(
                new TerminationConfig()
                    .withSpentLimit(millis(timeLimit))
                    .withUnimprovedSpentLimit(millis(unimproved)));
    Solver<PlacementSolution> solver =
        SolverFactory.<PlacementSolution>create(config).buildSolver();
    PlacementSolution best = solver.solve(problemSolution);
    Map<ColumnRef, String> deviceOf = new HashMap<>();
    for (ColumnAssignment a : best.getAssignments()) {
      deviceOf.put(columns.get(a.getColumn()), devices.get(a.getDevice()).id());
    }
    return new Placement(deviceOf);
  }

  /** OptaPlanner refuses limits finer than a millisecond (LOPT's deadlines are in nanoseconds). */
  private static Duration millis(Duration d) {
    return Duration.ofMillis(Math.max(1, d.toMillis()));
  }
}
