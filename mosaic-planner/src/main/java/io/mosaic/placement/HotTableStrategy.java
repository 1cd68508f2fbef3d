package io.mosaic.placement;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * HOT table (paper Section 4.3), a baseline modelled on tablespaces: whole tables in descending
 * order of how many scans touch them, each on the fastest device with room for all of it. Pinned
 * columns stay where they are pinned; the rest of their table moves as one.
 */
public final class HotTableStrategy implements PlacementStrategy {
  @Override
  public String name() {
    return "HOT table";
  }

  @Override
  public PlacementResult place(PlacementProblem problem) {
    long start = System.nanoTime();
    HotPlacer placer = new HotPlacer(name(), problem);
    tablesHottestFirst(problem.model().columns(), problem.solveWorkload())
        .forEach((t, columns) -> placer.placeTogether("table " + t, columns));
    return PlacementResult.heuristic(
        name(), problem, placer.placement(), Duration.ofNanos(System.nanoTime() - start));
  }

  /**
   * {@code columns} grouped by table, the tables in descending order of the scans that touch them
   * (Section 4.3), ties by name.
   */
  public static Map<String, List<ColumnRef>> tablesHottestFirst(
      Collection<ColumnRef> columns, Workload workload) {
    Map<String, List<ColumnRef>> tables = new TreeMap<>();
    columns.forEach(c -> tables.computeIfAbsent(c.table(), t -> new ArrayList<>()).add(c));
    Map<String, Long> accesses = new HashMap<>();
    for (DistinctScan scan : workload.scans()) {
      scan.columns().stream()
          .map(ColumnRef::table)
          .distinct()
          .forEach(t -> accesses.merge(t, scan.weight(), Long::sum));
    }
    Map<String, List<ColumnRef>> hottestFirst = new LinkedHashMap<>();
    tables.keySet().stream()
        .sorted(
            Comparator.comparingLong((String t) -> accesses.getOrDefault(t, 0L))
                .reversed()
                .thenComparing(Comparator.naturalOrder()))
        .forEach(t -> hottestFirst.put(t, tables.get(t)));
    return hottestFirst;
  }
}
