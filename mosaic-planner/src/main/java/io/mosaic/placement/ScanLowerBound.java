package io.mosaic.placement;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The least time one scan can take (Eq. 3) with its columns on any of the devices and nothing else
 * competing for them: a lower bound on that scan's time in every placement. LOPT's LP relaxation
 * spreads each column fractionally over the devices and so prices a scan like a perfectly divisible
 * load; a scan of three equal columns on an NVMe and an HDD 9x slower costs it 2.7 column-times,
 * where any real placement costs 3. Solved exactly per scan by a small depth-first branch and bound
 * (a scan has tens of columns at most); a search that outgrows its node limit yields no bound.
 */
final class ScanLowerBound {
  private final double[][] times;
  private final int devices;
  private final int[] twinOf;
  private final double[] loads;
  private final long nodeLimit;
  private double best;
  private long nodes;

  private ScanLowerBound(double[][] times, long nodeLimit) {
    // Longest columns first: they decide the makespan, so good placements are found early.
    this.times =
        Arrays.stream(times)
            .sorted(Comparator.comparingDouble(ScanLowerBound::fastest).reversed())
            .toArray(double[][]::new);
    this.devices = times[0].length;
    this.loads = new double[devices];
    this.nodeLimit = nodeLimit;
    // A device whose times equal an earlier one's for every column is that device's twin: trying
    // both at the same load explores the same placements twice.
    this.twinOf = new int[devices];
    for (int d = 0; d < devices; d++) {
      twinOf[d] = -1;
      for (int e = 0; e < d && twinOf[d] < 0; e++) {
        int a = d;
        int b = e;
        if (IntStream.range(0, times.length).allMatch(c -> times[c][a] == times[c][b])) {
          twinOf[d] = e;
        }
      }
    }
  }

  /**
   * The bound for a scan whose column {@code c} takes {@code times[c][d]} seconds on device {@code
   * d}; 0 for a scan of no columns, and NaN when the search needs more than {@code nodeLimit}
   * nodes.
   */
  static double of(double[][] times, long nodeLimit) {
    if (times.length == 0) {
      return 0;
    }
    ScanLowerBound search = new ScanLowerBound(times, nodeLimit);
    search.best = search.greedy();
    search.branch(0, 0);
    return search.nodes > nodeLimit ? Double.NaN : search.best;
  }

  /** {@code times} with column {@code column} held on device {@code device}. */
  static double[][] fixed(double[][] times, int column, int device) {
    double[][] copy = times.clone();
    copy[column] = new double[times[column].length];
    Arrays.fill(copy[column], Double.POSITIVE_INFINITY);
    copy[column][device] = times[column][device];
    return copy;
  }

  private static double fastest(double[] t) {
    return Arrays.stream(t).min().orElse(0);
  }

  /** Each column where it ends soonest: a first upper bound. */
  private double greedy() {
    double[] load = new double[devices];
    double max = 0;
    for (double[] t : times) {
      int at = 0;
      for (int d = 1; d < devices; d++) {
        if (load[d] + t[d] < load[at] + t[at]) {
          at = d;
        }
      }
      load[at] += t[at];
      max = Math.max(max, load[at]);
    }
    return max;
  }

  private void branch(int column, double max) {
    if (++nodes > nodeLimit) {
      return;
    }
    if (column == times.length) {
      best = Math.min(best, max);
      return;
    }
    // Every remaining column ends no sooner than on its best device at the current loads.
    for (int c = column; c < times.length; c++) {
      double soonest = Double.POSITIVE_INFINITY;
      for (int d = 0; d < devices; d++) {
        soonest = Math.min(soonest, loads[d] + times[c][d]);
      }
      if (soonest >= best) {
        return;
      }
    }
    double[] t = times[column];
    for (int d = 0; d < devices; d++) {
      if (twinOf[d] >= 0 && loads[twinOf[d]] == loads[d]) {
        continue;
      }
      double before = loads[d];
      double load = before + t[d];
      if (load >= best) {
        continue;
      }
      loads[d] = load;
      branch(column + 1, Math.max(max, load));
      loads[d] = before;
      if (nodes > nodeLimit) {
        return;
      }
    }
  }
}
