package io.mosaic.placement;

import java.util.List;
import org.optaplanner.core.api.score.buildin.hardsoftlong.HardSoftLongScore;
import org.optaplanner.core.api.score.calculator.EasyScoreCalculator;

/**
 * Hard score: how far the placement breaks Eq. 7 (bytes over each device's limit) and Eq. 8 (cents
 * over budget, in thousandths); soft score: minus Eq. 4 in nanoseconds. Recomputed in full per
 * move, which at a few thousand columns and scans stays in microseconds to milliseconds.
 */
public final class PlacementScoreCalculator
    implements EasyScoreCalculator<PlacementSolution, HardSoftLongScore> {
  @Override
  public HardSoftLongScore calculateScore(PlacementSolution solution) {
    ScoreTables t = solution.getTables();
    List<ColumnAssignment> list = solution.getAssignments();
    int[] at = new int[list.size()];
    java.util.Arrays.fill(at, -1);
    long[] used = new long[t.devices()];
    double cents = 0;
    for (ColumnAssignment a : list) {
      if (a.getDevice() == null) {
        continue;
      }
      int d = a.getDevice();
      int c = a.getColumn();
      at[c] = d;
      used[d] += t.bytes[d][c];
      cents += t.cents[d][c];
    }
    long hard = 0;
    for (int d = 0; d < used.length; d++) {
      if (used[d] > t.limit[d]) {
        hard -= used[d] - t.limit[d];
      }
    }
    if (cents > t.budget) {
      hard -= (long) Math.ceil((cents - t.budget) * 1000);
    }
    // While the construction heuristic runs, only the placed columns count (OptaPlanner tracks
    // the unplaced ones itself, as the init score).
    return HardSoftLongScore.of(hard, -Math.round(t.totalSeconds(at) * ScoreTables.NANOS));
  }
}
