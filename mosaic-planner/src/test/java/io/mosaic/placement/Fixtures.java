package io.mosaic.placement;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Small builders for placement tests, and the brute-force reference LOPT must match. */
final class Fixtures {
  static final long GB = 1_000_000_000L;

  private Fixtures() {}

  /** An uncompressed device without seek time: times are plain size / throughput. */
  static DeviceProfile plainDevice(
      String id, double gbPerSecond, long capacityBytes, double cents) {
    Bandwidth rate = new Bandwidth(gbPerSecond * GB);
    return new DeviceProfile(
        id, Codec.NONE, Latency.ZERO, rate, rate, 1.0, capacityBytes, Cost.ofCents(cents));
  }

  static ColumnRef col(String qualified) {
    return ColumnRef.parse(qualified);
  }

  static DistinctScan scan(long weight, String... columns) {
    return new DistinctScan(
        Arrays.stream(columns).map(ColumnRef::parse).collect(Collectors.toSet()), weight);
  }

  static Placement placement(String... columnThenDevice) {
    Map<ColumnRef, String> map = new HashMap<>();
    for (int i = 0; i < columnThenDevice.length; i += 2) {
      map.put(ColumnRef.parse(columnThenDevice[i]), columnThenDevice[i + 1]);
    }
    return new Placement(map);
  }

  /** Whether {@code placement} satisfies every constraint of {@code problem}, exactly. */
  static boolean feasible(PlacementProblem problem, Placement placement) {
    CostModel model = problem.model();
    for (Map.Entry<ColumnRef, String> pin : problem.options().pinned().entrySet()) {
      if (!placement.on(pin.getValue(), pin.getKey())) {
        return false;
      }
    }
    Map<String, Long> used = model.usedBytes(placement);
    for (DeviceProfile d : model.devices()) {
      if (used.get(d.id()) > problem.limitBytes(d)
          || used.get(d.id()) < problem.options().minBytes().getOrDefault(d.id(), 0L)) {
        return false;
      }
    }
    if (problem.mode() instanceof PlacementMode.Budget b
        && model.cost(placement) > b.budgetCents() * (1 + 1e-9)) {
      return false;
    }
    Integer k = problem.options().maxDevices();
    if (k != null && placement.devicesUsed().size() > k) {
      return false;
    }
    NoRegression nr = problem.options().noRegression();
    if (nr != null) {
      for (DistinctScan s : problem.solveWorkload().scans()) {
        if (model.scanTime(s, placement)
            > (1 + nr.slack()) * model.scanTime(s, nr.reference()) * (1 + 1e-9)) {
          return false;
        }
      }
    }
    return true;
  }

  /** The best feasible placement by trying all |D|^|C| of them; empty if none is feasible. */
  static Optional<Double> bruteForceOptimum(PlacementProblem problem) {
    CostModel model = problem.model();
    List<ColumnRef> columns = model.columns();
    List<DeviceProfile> devices = model.devices();
    Workload solved = problem.solveWorkload();
    int[] digits = new int[columns.size()];
    double best = Double.POSITIVE_INFINITY;
    while (true) {
      Map<ColumnRef, String> map = new HashMap<>();
      for (int c = 0; c < digits.length; c++) {
        map.put(columns.get(c), devices.get(digits[c]).id());
      }
      Placement p = new Placement(map);
      if (feasible(problem, p)) {
        best = Math.min(best, model.totalTime(solved, p));
      }
      int i = 0;
      while (i < digits.length && ++digits[i] == devices.size()) {
        digits[i++] = 0;
      }
      if (i == digits.length) {
        break;
      }
    }
    return best == Double.POSITIVE_INFINITY ? Optional.empty() : Optional.of(best);
  }
}
