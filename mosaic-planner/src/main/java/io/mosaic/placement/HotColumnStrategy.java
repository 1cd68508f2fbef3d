package io.mosaic.placement;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.DistinctScan;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * HOT column (paper Section 4.4), a baseline: columns in descending order of how often the trace
 * scans them, each on the fastest device that still has room. Columns never scanned come last.
 * Tiered by construction: it cannot see that two hot columns scanned together would be read faster
 * from two devices in parallel (Figure 4).
 */
public final class HotColumnStrategy implements PlacementStrategy {
  @Override
  public String name() {
    return "HOT column";
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    long start = System.nanoTime();
    HotPlacer placer = new HotPlacer(name(), problem);
    Map<ColumnRef, Long> accesses = new HashMap<>();
    for (DistinctScan scan : problem.solveWorkload().scans()) {
      scan.columns().forEach(c -> accesses.merge(c, scan.weight(), Long::sum));
    }
    problem.model().columns().stream()
        .sorted(
            Comparator.comparingLong((ColumnRef c) -> accesses.getOrDefault(c, 0L))
                .reversed()
                .thenComparing(Comparator.naturalOrder()))
        .forEach(c -> placer.placeTogether("column " + c, List.of(c)));
    return PlacementResult.heuristic(
        name(), problem, placer.placement(), Duration.ofNanos(System.nanoTime() - start));
  }
}
