package io.mosaic.placement;

import io.mosaic.config.Link;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.RowRange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The problem's numbers precomputed as arrays, so a score is a few array sums: {@code t(d,c)} of
 * Eq. 2 and the decoding time of the CPU model ({@link CostModel#scanTime}), stored bytes and cents
 * per column and device, each scan's column indexes and weight, the limits of Eq. 7 and Eq. 8, and
 * which devices are cold (their expected group switches, {@link CostModel#switchSeconds}), and
 * which share a link ({@link CostModel#linkTime}).
 */
public final class ScoreTables {
  /**
   * Score units: the soft score counts nanoseconds of Eq. 4, the hard score bytes or cents/1000.
   */
  static final double NANOS = 1e9;

  final double[][] time; // [device][column]
  final double[][] cpu; // [device][column], seconds of decoding (0 without a CPU model)
  final double fixed; // seconds every scan costs (0 without a CPU model)
  final long[][] bytes; // [device][column]
  final double[][] cents; // [device][column]
  final int[][] scans; // [scan] -> column indexes
  final double[][][] shares; // [scan][k][range] of its k-th column (RowRange), null: one range
  final long[] weights; // [scan]
  final long[] limit; // [device] bytes, Long.MAX_VALUE if none
  final double budget; // cents, +inf if none
  final DeviceProfile[] cold; // [device] the device if cold (group switches), else null
  final int[] link; // [device] index of its link in CostModel#links, -1 if on none
  final double[][] linkTime; // [device][column], seconds of the device's link (0 if on none)
  final int links; // how many links the devices share

  ScoreTables(PlacementProblem problem, List<ColumnRef> columns) {
    CostModel model = problem.model();
    List<DeviceProfile> devices = model.devices();
    int nd = devices.size();
    int nc = columns.size();
    Map<ColumnRef, Integer> index = new HashMap<>();
    for (int c = 0; c < nc; c++) {
      index.put(columns.get(c), c);
    }
    time = new double[nd][nc];
    cpu = new double[nd][nc];
    fixed = model.scanFixedTime();
    bytes = new long[nd][nc];
    cents = new double[nd][nc];
    limit = new long[nd];
    cold = new DeviceProfile[nd];
    link = new int[nd];
    linkTime = new double[nd][nc];
    List<Link> shared = model.links();
    links = shared.size();
    for (int d = 0; d < nd; d++) {
      DeviceProfile device = devices.get(d);
      cold[d] = device.isCold() ? device : null;
      link[d] = device.link().map(shared::indexOf).orElse(-1);
      limit[d] = problem.limitBytes(device);
      for (int c = 0; c < nc; c++) {
        ColumnRef column = columns.get(c);
        time[d][c] = model.columnTime(device, column);
        cpu[d][c] = model.cpuTime(device, column);
        bytes[d][c] = model.storedBytes(device, column);
        cents[d][c] = model.cents(device, column);
        linkTime[d][c] = model.linkTime(device, column);
      }
    }
    List<DistinctScan> list = problem.solveWorkload().scans();
    scans = new int[list.size()][];
    shares = new double[list.size()][][];
    weights = new long[list.size()];
    for (int t = 0; t < list.size(); t++) {
      scans[t] = list.get(t).sortedColumns().stream().mapToInt(index::get).toArray();
      shares[t] = RowRange.shares(new java.util.ArrayList<>(list.get(t).sortedColumns()));
      weights[t] = list.get(t).weight();
    }
    budget =
        problem.mode() instanceof PlacementMode.Budget b
            ? b.budgetCents()
            : Double.POSITIVE_INFINITY;
  }

  int devices() {
    return limit.length;
  }

  /** Eq. 4 in seconds for device indexes {@code at[c]}; columns at -1 are not placed yet. */
  double totalSeconds(int[] at) {
    double total = 0;
    double[] perDevice = new double[devices()];
    double[] perLink = new double[links];
    int[] onCold = new int[devices()];
    double[] switching = new double[devices()];
    for (int t = 0; t < scans.length; t++) {
      double io = 0;
      double decoding = 0;
      int ranges = shares[t] == null ? 1 : shares[t][0].length;
      // A cold device's expected group switches (CostModel#switchSeconds): in its I/O time, or
      // after the ranges of a ranged scan.
      java.util.Arrays.fill(onCold, 0);
      for (int c : scans[t]) {
        if (at[c] >= 0 && cold[at[c]] != null) {
          onCold[at[c]]++;
        }
      }
      for (int d = 0; d < switching.length; d++) {
        double seconds = cold[d] == null ? 0 : CostModel.switchSeconds(cold[d], onCold[d]);
        if (ranges == 1) {
          switching[d] = seconds;
        } else {
          io += seconds;
        }
      }
      // Eq. 3 per range of rows, the ranges one after another (CostModel#scanTime).
      for (int r = 0; r < ranges; r++) {
        if (ranges == 1) {
          System.arraycopy(switching, 0, perDevice, 0, perDevice.length);
        } else {
          java.util.Arrays.fill(perDevice, 0);
        }
        java.util.Arrays.fill(perLink, 0);
        double max = 0;
        for (double seconds : perDevice) {
          max = Math.max(max, seconds);
        }
        for (int k = 0; k < scans[t].length; k++) {
          int c = scans[t][k];
          double share = shares[t] == null ? 1 : shares[t][k][r];
          if (at[c] < 0 || share == 0) {
            continue;
          }
          perDevice[at[c]] += time[at[c]][c] * share;
          max = Math.max(max, perDevice[at[c]]);
          // Devices sharing a link: its bytes over its rate bound the range too (CostModel).
          int l = link[at[c]];
          if (l >= 0) {
            perLink[l] += linkTime[at[c]][c] * share;
            max = Math.max(max, perLink[l]);
          }
        }
        io += max;
      }
      for (int c : scans[t]) {
        if (at[c] >= 0) {
          decoding += cpu[at[c]][c];
        }
      }
      total += weights[t] * CostModel.scanSeconds(io, decoding, scans[t].length, fixed);
    }
    return total;
  }
}
