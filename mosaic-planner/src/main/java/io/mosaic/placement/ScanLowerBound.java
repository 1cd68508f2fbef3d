package io.mosaic.placement;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The least time one scan can take (Eq. 3) with its columns on the devices and nothing else
 * competing for them: a lower bound on that scan's time in every placement. LOPT's LP relaxation
 * spreads each column fractionally over the devices and so prices a scan like a perfectly divisible
 * load; a scan of three equal columns on an NVMe and an HDD 9x slower costs it 2.7 column-times,
 * where any real placement costs 3. Optional {@link Limits} keep the scan's own columns within each
 * device's capacity (Eq. 7) and within the money the budget leaves them (Eq. 8), which every
 * placement must do too. Solved exactly per scan by a small depth-first branch and bound (a scan
 * has tens of columns at most); a search that outgrows its node limit, or finds no placement within
 * the limits, yields no bound (NaN).
 */
final class ScanLowerBound {
  /**
   * What the scan's columns alone may use: {@code bytes[c][d]} of device {@code d}'s {@code
   * capacity[d]}, and {@code cents[c][d]} of {@code budget}.
   */
  record Limits(long[][] bytes, long[] capacity, double[][] cents, double budget) {}

  private final double[][] times;
  private final long[][] bytes;
  private final double[][] cents;
  private final long[] capacity;
  private final double budget;
  private final int devices;
  private final int[] twinOf;
  private final double[] loads;
  private final long[] used;
  private double spent;
  private final long nodeLimit;
  private double best = Double.POSITIVE_INFINITY;
  private long nodes;

  private ScanLowerBound(double[][] times, Limits limits, long nodeLimit) {
    this.devices = times[0].length;
    // Longest columns first: they decide the makespan, so good placements are found early.
    Integer[] order = new Integer[times.length];
    Arrays.setAll(order, c -> c);
    Arrays.sort(order, Comparator.comparingDouble((Integer c) -> fastest(times[c])).reversed());
    this.times = new double[times.length][];
    this.bytes = new long[times.length][];
    this.cents = new double[times.length][];
    for (int i = 0; i < order.length; i++) {
      this.times[i] = times[order[i]];
      this.bytes[i] = limits == null ? new long[devices] : limits.bytes()[order[i]];
      this.cents[i] = limits == null ? new double[devices] : limits.cents()[order[i]];
    }
    this.capacity = new long[devices];
    Arrays.fill(capacity, Long.MAX_VALUE);
    if (limits != null) {
      System.arraycopy(limits.capacity(), 0, capacity, 0, devices);
    }
    this.budget = limits == null ? Double.POSITIVE_INFINITY : limits.budget();
    this.loads = new double[devices];
    this.used = new long[devices];
    this.nodeLimit = nodeLimit;
    // A device identical to an earlier one for every column (time, bytes, price) and in capacity
    // is that device's twin: trying both at the same load explores the same placements twice.
    this.twinOf = new int[devices];
    for (int d = 0; d < devices; d++) {
      twinOf[d] = -1;
      for (int e = 0; e < d && twinOf[d] < 0; e++) {
        if (identical(d, e)) {
          twinOf[d] = e;
        }
      }
    }
  }

  private boolean identical(int d, int e) {
    if (capacity[d] != capacity[e]) {
      return false;
    }
    for (int c = 0; c < times.length; c++) {
      if (times[c][d] != times[c][e] || bytes[c][d] != bytes[c][e] || cents[c][d] != cents[c][e]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The bound for a scan whose column {@code c} takes {@code times[c][d]} seconds on device {@code
   * d}, with no limits; 0 for a scan of no columns, NaN when the search needs more than {@code
   * nodeLimit} nodes.
   */
  static double of(double[][] times, long nodeLimit) {
    return of(times, null, nodeLimit);
  }

  /** As above, the columns kept within {@code limits} (null: none). */
  static double of(double[][] times, Limits limits, long nodeLimit) {
    if (times.length == 0) {
      return 0;
    }
    ScanLowerBound search = new ScanLowerBound(times, limits, nodeLimit);
    search.greedy();
    search.branch(0, 0);
    return search.nodes > nodeLimit || search.best == Double.POSITIVE_INFINITY
        ? Double.NaN
        : search.best;
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

  /** Each column where it ends soonest within the limits: a first upper bound, if it fits. */
  private void greedy() {
    double[] load = new double[devices];
    long[] bytesUsed = new long[devices];
    double money = 0;
    double max = 0;
    for (int c = 0; c < times.length; c++) {
      int at = -1;
      for (int d = 0; d < devices; d++) {
        boolean fits =
            times[c][d] < Double.POSITIVE_INFINITY
                && bytesUsed[d] + bytes[c][d] <= capacity[d]
                && money + cents[c][d] <= budget;
        if (fits && (at < 0 || load[d] + times[c][d] < load[at] + times[c][at])) {
          at = d;
        }
      }
      if (at < 0) {
        return; // no first placement: the search starts without an upper bound
      }
      load[at] += times[c][at];
      bytesUsed[at] += bytes[c][at];
      money += cents[c][at];
      max = Math.max(max, load[at]);
    }
    best = max;
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
      if (twinOf[d] >= 0 && loads[twinOf[d]] == loads[d] && used[twinOf[d]] == used[d]) {
        continue;
      }
      double before = loads[d];
      double load = before + t[d];
      if (load >= best
          || used[d] + bytes[column][d] > capacity[d]
          || spent + cents[column][d] > budget) {
        continue;
      }
      double spentBefore = spent;
      loads[d] = load;
      used[d] += bytes[column][d];
      spent += cents[column][d];
      branch(column + 1, Math.max(max, load));
      loads[d] = before;
      used[d] -= bytes[column][d];
      spent = spentBefore;
      if (nodes > nodeLimit) {
        return;
      }
    }
  }
}
