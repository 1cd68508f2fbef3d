package io.mosaic.model;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The distinct table scans of a trace epoch with their weights: {@code TS} of Eq. 4. */
public record Workload(List<DistinctScan> scans) {
  public Workload {
    scans = List.copyOf(scans);
  }

  /**
   * Merges scans that read the same column set into one scan whose weight is the sum (Section 4.5:
   * re-used table scans do not make the model bigger). Keeps the order of first appearance.
   */
  public static Workload merging(Collection<DistinctScan> scans) {
    Map<Set<ColumnRef>, Long> weights = new LinkedHashMap<>();
    for (DistinctScan scan : scans) {
      weights.merge(scan.columns(), scan.weight(), Math::addExact);
    }
    return new Workload(
        weights.entrySet().stream().map(e -> new DistinctScan(e.getKey(), e.getValue())).toList());
  }

  /** One scan per element (each seen once), merged: what a raw trace of column sets gives. */
  static Workload ofScans(Collection<? extends Set<ColumnRef>> scans) {
    return merging(scans.stream().map(columns -> new DistinctScan(columns, 1)).toList());
  }

  /** How many table scans the trace recorded: the sum of the weights. */
  public long totalWeight() {
    return scans.stream().mapToLong(DistinctScan::weight).sum();
  }
}
