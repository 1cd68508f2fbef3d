package io.mosaic.placement;

import com.google.ortools.Loader;
import com.google.ortools.modelbuilder.LinearExpr;
import com.google.ortools.modelbuilder.LinearExprBuilder;
import com.google.ortools.modelbuilder.ModelBuilder;
import com.google.ortools.modelbuilder.ModelSolver;
import com.google.ortools.modelbuilder.SolveStatus;
import com.google.ortools.modelbuilder.Variable;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Link;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.RowRange;
import io.mosaic.model.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * LOPT's mixed-integer program (paper Section 4.5), built once with OR-Tools' ModelBuilder so that
 * solving it here and exporting it (MPS, LP) for another solver use exactly the same model.
 *
 * <pre>
 * minimise   sum_T w_T z_T                                   (Eq. 4, weighted)
 * subject to z_T >= io_d(T) + cpu(T) / n_T + f          for all T, d (Eq. 3 as a linear max)
 *            z_T >= cpu(T) + io_d(T) / n_T + f          for all T, d (with a CPU model)
 *            the same two for every link l, io_l(T) = sum_{c in T} sum_{d on l} I[d][c] stored(d,c)
 *              / rate(l): the devices sharing a link read at most at its rate together
 *              (docs/cost-model.md, "Shared links")
 *              where io_d(T) = sum_{c in T} I[d][c] t(d,c), cpu(T) = sum_{c in T} sum_d I[d][c]
 *              cpu(d,c) is decoding on the cores every device shares, n_T the columns of T and f
 *              the fixed cost per scan (docs/cost-model.md; cpu = f = 0 without a CPU model)
 *            sum_d I[d][c] = 1                    for all c    (Eq. 6a)
 *            I[d][c] in {0,1}                                  (Eq. 6b; [0,1] when relaxed)
 *            capacity: sum_c I[d][c] stored(d,c) <= cap(d)     (Eq. 7, in GB)
 *            budget:   sum_d,c I[d][c] cost(d) stored(d,c) <= budget (Eq. 8, in cents)
 *            min/max bytes per device, pins (I fixed), y_d >= I[d][c] and sum_d y_d <= k,
 *            no regression: z_T <= (1 + slack) t_T(reference) (Section 5.4)
 *            cold device d: io_d(T) += s_d sum_j (E_d(j) - E_d(j-1)) u[T][d][j], u binary,
 *              sum_j u[T][d][j] = sum_{c in T} I[d][c], u[T][d][j] >= u[T][d][j+1]: its expected
 *              group switches E_d(k) = G (1 - (1 - 1/G)^k), concave (docs/cost-model.md)
 *            valid cuts: z_T >= sum_d I[d][c] b(T,c,d) for all T, c in T, and z_T >= b(T),
 *            with b the least time of scan T alone within capacities, the budget left to it
 *            and pins ({@link ScanLowerBound})
 * </pre>
 *
 * Every column of the model is placed, scanned or not: cold columns take capacity and cost too.
 * Sizes are in GB and prices in cents so coefficients stay near 1 for the solver.
 */
public final class LoptFormulation {
  private static final double BYTES_PER_GB = 1e9;
  // Per scan, enough for tens of columns on a handful of devices in milliseconds.
  private static final long SCAN_BOUND_NODES = 200_000;
  private static boolean nativesLoaded;

  private final List<DeviceProfile> devices;
  private final List<Link> links;
  private final List<ColumnRef> columns;
  private final Workload scans;
  private final ModelBuilder builder;
  private final Variable[][] place;
  private final Variable[] scanTime;
  private final List<Variable> variables = new ArrayList<>();
  private final Set<String> names = new HashSet<>();

  private LoptFormulation(PlacementProblem problem, boolean relaxed) {
    loadNatives();
    CostModel model = problem.model();
    this.devices = model.devices();
    this.links = model.links();
    this.columns = model.columns();
    this.scans = problem.solveWorkload();
    this.builder = new ModelBuilder();
    builder.setName(relaxed ? "mosaic_lopt_lp_relaxation" : "mosaic_lopt");
    int nd = devices.size();
    int nc = columns.size();
    Map<ColumnRef, Integer> index = new HashMap<>();
    for (int c = 0; c < nc; c++) {
      index.put(columns.get(c), c);
    }

    place = new Variable[nd][nc];
    for (int d = 0; d < nd; d++) {
      for (int c = 0; c < nc; c++) {
        place[d][c] = binary(relaxed, "I_" + devices.get(d).id() + "_" + columns.get(c));
      }
    }
    for (int c = 0; c < nc; c++) {
      builder.addEquality(LinearExpr.sum(column(c)), 1.0).withName(unique("one_" + columns.get(c)));
      String pinned = problem.pinnedDevice(columns.get(c));
      for (int d = 0; pinned != null && d < nd; d++) {
        boolean here = devices.get(d).id().equals(pinned);
        place[d][c].setLowerBound(here ? 1 : 0);
        place[d][c].setUpperBound(here ? 1 : 0);
      }
    }

    List<DistinctScan> list = scans.scans();
    scanTime = new Variable[list.size()];
    ScanLimits limits = new ScanLimits(problem, model);
    LinearExprBuilder objective = LinearExpr.newBuilder();
    for (int t = 0; t < list.size(); t++) {
      List<ColumnRef> scanned = new ArrayList<>(list.get(t).sortedColumns());
      double[][] times = new double[scanned.size()][nd];
      for (int c = 0; c < scanned.size(); c++) {
        for (int d = 0; d < nd; d++) {
          times[c][d] = model.columnTime(devices.get(d), scanned.get(c));
        }
      }
      ScanLowerBound.Limits own = limits.of(scanned);
      double[][] allowed = limits.pinned(scanned, times);
      double fixed = model.scanFixedTime();
      scanTime[t] =
          variable(
              builder.newNumVar(
                  below(ScanLowerBound.of(allowed, own, SCAN_BOUND_NODES)) + fixed,
                  Double.POSITIVE_INFINITY,
                  unique("z_" + t)));
      objective.addTerm(scanTime[t], list.get(t).weight());
      // Mosaic's Eq. 3 (CostModel.scanSeconds) as a linear max over the devices and links
      // (pipeline).
      boolean withCpu = model.cpu().isPresent();
      double[][] shares = RowRange.shares(scanned);
      LinearExpr[] switching = new LinearExpr[nd];
      for (int d = 0; d < nd; d++) {
        switching[d] = switches(index, t, scanned, d, relaxed);
      }
      if (shares != null) {
        rangedScan(
            model, index, t, scanned, times, shares, withCpu, fixed, switching, allowed, limits);
      }
      for (int d = 0; shares == null && d < nd; d++) {
        double[][] io = new double[scanned.size()][nd];
        for (int c = 0; c < scanned.size(); c++) {
          io[c][d] = times[c][d];
        }
        pipeline(model, index, t, scanned, io, switching[d], fixed, devices.get(d).id(), "");
      }
      // A link's term (docs/cost-model.md, "Shared links"): the same two constraints, with the
      // bytes of every scanned column on the link's devices over its rate as the I/O.
      for (int l = 0; shares == null && l < links.size(); l++) {
        pipeline(
            model,
            index,
            t,
            scanned,
            linkTimes(model, scanned, l),
            null,
            fixed,
            links.get(l).id(),
            "link_");
      }
      // Valid cuts, one per column c of the scan: z_T >= sum_d I[d][c] b(T, c, d), where b is the
      // least time of the scan alone with c on d (ScanLowerBound), at least c's own time there.
      // Implied for integral I, but the relaxation otherwise spreads every column over the devices
      // and prices the scan as a divisible load (the weak bound behind Figure 9's gaps).
      for (int c = 0; c < scanned.size(); c++) {
        LinearExprBuilder column = LinearExpr.newBuilder();
        for (int d = 0; d < nd; d++) {
          double alone =
              below(ScanLowerBound.of(ScanLowerBound.fixed(allowed, c, d), own, SCAN_BOUND_NODES));
          // On a cold device the scan also waits for at least one switch (E(1) = 1).
          double least = times[c][d] + CostModel.switchSeconds(devices.get(d), 1);
          column.addTerm(place[d][index.get(scanned.get(c))], Math.max(least, alone));
        }
        column.addTerm(scanTime[t], -1);
        builder
            .addLessOrEqual(column, -fixed)
            .withName(unique("column_" + t + "_" + scanned.get(c)));
      }
    }
    builder.minimize(objective);

    for (int d = 0; d < nd; d++) {
      DeviceProfile device = devices.get(d);
      long limit = problem.limitBytes(device);
      Long min = problem.options().minBytes().get(device.id());
      if (limit == Long.MAX_VALUE && (min == null || min == 0)) {
        continue;
      }
      LinearExprBuilder stored = LinearExpr.newBuilder();
      for (int c = 0; c < nc; c++) {
        stored.addTerm(place[d][c], model.storedBytes(device, columns.get(c)) / BYTES_PER_GB);
      }
      builder
          .addLinearConstraint(
              stored,
              min == null ? Double.NEGATIVE_INFINITY : min / BYTES_PER_GB,
              limit == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : limit / BYTES_PER_GB)
          .withName(unique("capacity_" + device.id()));
    }

    if (problem.mode() instanceof PlacementMode.Budget budget) {
      LinearExprBuilder cost = LinearExpr.newBuilder();
      // Eq. 8 with Eq. 5's cost per column and device; an object store's requests and retrieval
      // for the column's monthly reads are a constant of the pair too, so the budget stays linear.
      for (int d = 0; d < nd; d++) {
        DeviceProfile device = devices.get(d);
        double centsPerByte = device.costPerGb().cents() / BYTES_PER_GB;
        for (int c = 0; c < nc; c++) {
          ColumnRef column = columns.get(c);
          cost.addTerm(
              place[d][c],
              centsPerByte * model.storedBytes(device, column) + model.accessCents(device, column));
        }
      }
      builder.addLessOrEqual(cost, budget.budgetCents()).withName(unique("budget"));
    }

    Integer maxDevices = problem.options().maxDevices();
    if (maxDevices != null && maxDevices < nd) {
      Variable[] used = new Variable[nd];
      for (int d = 0; d < nd; d++) {
        used[d] = binary(relaxed, "y_" + devices.get(d).id());
        for (int c = 0; c < nc; c++) {
          builder
              .addLessOrEqual(LinearExpr.newBuilder().add(place[d][c]).addTerm(used[d], -1), 0)
              .withName(unique("uses_" + devices.get(d).id() + "_" + columns.get(c)));
        }
      }
      builder.addLessOrEqual(LinearExpr.sum(used), maxDevices).withName(unique("max_devices"));
    }

    if (!relaxed) {
      breakDeviceSymmetry(problem, model);
    }

    NoRegression noRegression = problem.options().noRegression();
    if (noRegression != null) {
      for (int t = 0; t < list.size(); t++) {
        double reference = model.scanTime(list.get(t), noRegression.reference());
        builder
            .addLessOrEqual(scanTime[t], (1 + noRegression.slack()) * reference)
            .withName(unique("no_regression_" + t));
      }
    }
  }

  /**
   * Mosaic's Eq. 3 (CostModel.scanSeconds) for one device or link of scan {@code t} as a linear
   * max: {@code z_T} at least its I/O with the decoding of one of the scan's n pieces, and (with a
   * CPU model) at least the decoding with one piece of its I/O. {@code io[c][e]} is what column
   * {@code c} on device {@code e} adds to the I/O, {@code switching} a cold device's group switches
   * (or null).
   */
  private void pipeline(
      CostModel model,
      Map<ColumnRef, Integer> index,
      int t,
      List<ColumnRef> scanned,
      double[][] io,
      LinearExpr switching,
      double fixed,
      String what,
      String prefix) {
    int nd = devices.size();
    int n = scanned.size();
    boolean withCpu = model.cpu().isPresent();
    LinearExprBuilder device = LinearExpr.newBuilder();
    LinearExprBuilder decoding = LinearExpr.newBuilder();
    for (int c = 0; c < n; c++) {
      int column = index.get(scanned.get(c));
      for (int e = 0; e < nd; e++) {
        // One term per variable: I[e][c] in the I/O if it adds to it, and in the decoding.
        double cpu = withCpu ? model.cpuTime(devices.get(e), scanned.get(c)) : 0;
        if (io[c][e] + cpu > 0) {
          device.addTerm(place[e][column], io[c][e] + cpu / n);
          decoding.addTerm(place[e][column], io[c][e] / n + cpu);
        }
      }
    }
    if (switching != null) {
      device.add(switching);
      decoding.addTerm(switching, 1.0 / n);
    }
    device.addTerm(scanTime[t], -1);
    builder.addLessOrEqual(device, -fixed).withName(unique("scan_" + t + "_" + prefix + what));
    if (withCpu) {
      decoding.addTerm(scanTime[t], -1);
      builder.addLessOrEqual(decoding, -fixed).withName(unique("cpu_" + t + "_" + prefix + what));
    }
  }

  /**
   * {@code [c][e]}: the seconds scanned column {@code c} on device {@code e} takes of link {@code
   * l} ({@link CostModel#linkTime}), 0 where {@code e} is not on it.
   */
  private double[][] linkTimes(CostModel model, List<ColumnRef> scanned, int l) {
    double[][] io = new double[scanned.size()][devices.size()];
    for (int c = 0; c < scanned.size(); c++) {
      for (int e = 0; e < devices.size(); e++) {
        DeviceProfile device = devices.get(e);
        if (device.link().isPresent() && device.link().get().equals(links.get(l))) {
          io[c][e] = model.linkTime(device, scanned.get(c));
        }
      }
    }
    return io;
  }

  /**
   * The seconds scan {@code t} waits for group switches on cold device {@code d}, {@code s * E(k)}
   * with {@code k = sum_{c in T} I[d][c]} (docs/cost-model.md, "Cold devices"), exactly and
   * linearly: {@code E} is concave, so with ordered binaries {@code u_j} ("at least j of the scan's
   * columns are on d"), {@code sum_j u_j = k} and {@code u_j >= u_j+1}, integral {@code u} has its
   * first {@code k} at 1 and {@code E(k) = sum_j (E(j) - E(j-1)) u_j}. Null for a warm device.
   */
  private LinearExpr switches(
      Map<ColumnRef, Integer> index, int t, List<ColumnRef> scanned, int d, boolean relaxed) {
    DeviceProfile device = devices.get(d);
    if (device.cold().isEmpty()) {
      return null;
    }
    ColdSpec cold = device.cold().get();
    LinearExprBuilder seconds = LinearExpr.newBuilder();
    LinearExprBuilder count = LinearExpr.newBuilder();
    Variable previous = null;
    for (int j = 1; j <= scanned.size(); j++) {
      Variable atLeast = binary(relaxed, "u_" + t + "_" + device.id() + "_" + j);
      seconds.addTerm(atLeast, cold.switchLatency().seconds() * cold.switchIncrement(j));
      count.addTerm(atLeast, 1);
      if (previous != null) {
        builder
            .addLessOrEqual(LinearExpr.newBuilder().add(atLeast).addTerm(previous, -1), 0)
            .withName(unique("order_" + t + "_" + device.id() + "_" + j));
      }
      previous = atLeast;
    }
    for (ColumnRef column : scanned) {
      count.addTerm(place[d][index.get(column)], -1);
    }
    builder.addEquality(count, 0).withName(unique("groups_" + t + "_" + device.id()));
    return seconds.build();
  }

  /**
   * Mosaic's Eq. 3 for a scan of row-range units that cut its rows into several ranges (RowRange,
   * docs/cost-model.md): a variable {@code y_r} per range, at least each device's share of the
   * range's I/O, and the scan's I/O their sum, in the same two pipeline constraints. The column
   * cuts below stay valid: a sum of per-range maxima is at least the maximum of the sums.
   */
  private void rangedScan(
      CostModel model,
      Map<ColumnRef, Integer> index,
      int t,
      List<ColumnRef> scanned,
      double[][] times,
      double[][] shares,
      boolean withCpu,
      double fixed,
      LinearExpr[] switching,
      double[][] allowed,
      ScanLimits limits) {
    int nd = devices.size();
    int n = scanned.size();
    int ranges = shares[0].length;
    Variable[] io = new Variable[ranges];
    for (int r = 0; r < ranges; r++) {
      // The range's units alone, their times scaled to their share of it: the scan-wide bounds
      // and cuts price the units as if read together, a sum's maximum, where the scan takes the
      // sum of the ranges' maxima. Bounding each y_r so (its least value over placements within
      // the limits, and per unit and device the least with that unit there) keeps the relaxation
      // from spreading a range's units over the devices as a divisible load: the root LP of
      // the TPC-H units was 22 % below the optimum, against 4 % for whole columns.
      List<Integer> in = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        if (shares[c][r] > 0) {
          in.add(c);
        }
      }
      double[][] part = new double[in.size()][];
      List<ColumnRef> units = new ArrayList<>();
      for (int i = 0; i < in.size(); i++) {
        int c = in.get(i);
        part[i] = new double[nd];
        for (int d = 0; d < nd; d++) {
          part[i][d] = allowed[c][d] * shares[c][r];
        }
        units.add(scanned.get(c));
      }
      ScanLowerBound.Limits own = limits.of(units);
      io[r] =
          variable(
              builder.newNumVar(
                  below(ScanLowerBound.of(part, own, SCAN_BOUND_NODES)),
                  Double.POSITIVE_INFINITY,
                  unique("y_" + t + "_" + r)));
      for (int i = 0; i < in.size(); i++) {
        int c = in.get(i);
        LinearExprBuilder cut = LinearExpr.newBuilder();
        for (int d = 0; d < nd; d++) {
          double alone =
              below(ScanLowerBound.of(ScanLowerBound.fixed(part, i, d), own, SCAN_BOUND_NODES));
          cut.addTerm(
              place[d][index.get(scanned.get(c))], Math.max(shares[c][r] * times[c][d], alone));
        }
        cut.addTerm(io[r], -1);
        builder
            .addLessOrEqual(cut, 0)
            .withName(unique("range_cut_" + t + "_" + r + "_" + scanned.get(c)));
      }
      for (int d = 0; d < nd; d++) {
        LinearExprBuilder range = LinearExpr.newBuilder();
        boolean any = false;
        for (int c = 0; c < scanned.size(); c++) {
          double share = shares[c][r] * times[c][d];
          if (share > 0) {
            range.addTerm(place[d][index.get(scanned.get(c))], share);
            any = true;
          }
        }
        if (any) {
          range.addTerm(io[r], -1);
          builder
              .addLessOrEqual(range, 0)
              .withName(unique("range_" + t + "_" + r + "_" + devices.get(d).id()));
        }
      }
      // Each link's share of the range, as CostModel#scanTime takes it into the range's max.
      for (int l = 0; l < links.size(); l++) {
        double[][] onLink = linkTimes(model, scanned, l);
        LinearExprBuilder range = LinearExpr.newBuilder();
        boolean any = false;
        for (int c = 0; c < scanned.size(); c++) {
          for (int e = 0; e < nd; e++) {
            double share = shares[c][r] * onLink[c][e];
            if (share > 0) {
              range.addTerm(place[e][index.get(scanned.get(c))], share);
              any = true;
            }
          }
        }
        if (any) {
          range.addTerm(io[r], -1);
          builder
              .addLessOrEqual(range, 0)
              .withName(unique("range_" + t + "_" + r + "_link_" + links.get(l).id()));
        }
      }
    }
    LinearExprBuilder reading = LinearExpr.newBuilder();
    LinearExprBuilder decoding = LinearExpr.newBuilder();
    for (int r = 0; r < ranges; r++) {
      reading.addTerm(io[r], 1);
      decoding.addTerm(io[r], 1.0 / n);
    }
    for (int c = 0; c < scanned.size() && withCpu; c++) {
      for (int e = 0; e < nd; e++) {
        double cpu = model.cpuTime(devices.get(e), scanned.get(c));
        if (cpu > 0) {
          reading.addTerm(place[e][index.get(scanned.get(c))], cpu / n);
          decoding.addTerm(place[e][index.get(scanned.get(c))], cpu);
        }
      }
    }
    // Switches after the ranges, as CostModel#scanTime adds them to a ranged scan's I/O.
    for (LinearExpr cold : switching) {
      if (cold != null) {
        reading.add(cold);
        decoding.addTerm(cold, 1.0 / n);
      }
    }
    reading.addTerm(scanTime[t], -1);
    builder.addLessOrEqual(reading, -fixed).withName(unique("scan_" + t + "_ranges"));
    if (withCpu) {
      decoding.addTerm(scanTime[t], -1);
      builder.addLessOrEqual(decoding, -fixed).withName(unique("cpu_" + t + "_ranges"));
    }
  }

  /**
   * What each scan's columns alone must respect in every placement ({@link ScanLowerBound.Limits}):
   * the devices' capacities (Eq. 7), the money the budget leaves once every other column sits on
   * its cheapest allowed device (Eq. 8), and pins.
   */
  private static final class ScanLimits {
    private final PlacementProblem problem;
    private final CostModel model;
    private final List<DeviceProfile> devices;
    private final List<Link> links;
    private final long[] capacity;
    private final double budget;
    private final Map<ColumnRef, Double> cheapest = new HashMap<>();
    private double allCheapest;

    ScanLimits(PlacementProblem problem, CostModel model) {
      this.problem = problem;
      this.model = model;
      this.devices = model.devices();
      this.links = model.links();
      this.capacity = devices.stream().mapToLong(problem::limitBytes).toArray();
      this.budget =
          problem.mode() instanceof PlacementMode.Budget b
              ? b.budgetCents()
              : Double.POSITIVE_INFINITY;
      for (ColumnRef column : model.columns()) {
        double min = Double.POSITIVE_INFINITY;
        for (DeviceProfile device : devices) {
          String pin = problem.pinnedDevice(column);
          if (pin == null || pin.equals(device.id())) {
            min = Math.min(min, model.cents(device, column));
          }
        }
        cheapest.put(column, min);
        allCheapest += min;
      }
    }

    ScanLowerBound.Limits of(List<ColumnRef> scanned) {
      long[][] bytes = new long[scanned.size()][devices.size()];
      double[][] cents = new double[scanned.size()][devices.size()];
      double others = allCheapest;
      for (int c = 0; c < scanned.size(); c++) {
        others -= cheapest.get(scanned.get(c));
        for (int d = 0; d < devices.size(); d++) {
          bytes[c][d] = model.storedBytes(devices.get(d), scanned.get(c));
          cents[c][d] = model.cents(devices.get(d), scanned.get(c));
        }
      }
      // Loosened by more than rounding: the bound must hold for every placement within budget.
      double left = (budget - others) * (1 + 1e-9) + 1e-6;
      return new ScanLowerBound.Limits(bytes, capacity, cents, left);
    }

    /** {@code times} with a pinned column's other devices ruled out (infinitely slow). */
    double[][] pinned(List<ColumnRef> scanned, double[][] times) {
      double[][] allowed = times.clone();
      for (int c = 0; c < scanned.size(); c++) {
        String pin = problem.pinnedDevice(scanned.get(c));
        if (pin != null) {
          allowed[c] = times[c].clone();
          for (int d = 0; d < devices.size(); d++) {
            if (!devices.get(d).id().equals(pin)) {
              allowed[c][d] = Double.POSITIVE_INFINITY;
            }
          }
        }
      }
      return allowed;
    }
  }

  /**
   * A bound of {@link ScanLowerBound} made safe for the solver: a hair below, so rounding never
   * cuts off the optimum, and 0 when the search was too large to give one.
   */
  private static double below(double bound) {
    return Double.isNaN(bound) ? 0 : bound * (1 - 1e-12);
  }

  /**
   * Identical devices (Figure 9's copies, or a RAID's twin disks listed twice) make every
   * permutation of their contents an equally good solution, and the branch and bound explores them
   * all. Among interchangeable devices {@code d_0 .. d_m-1}, only the labelling where each copy's
   * first column (in the model's column order) comes after the previous copy's first column is
   * kept: {@code I[d_j][c] <= sum_{c' < c} I[d_j-1][c']}, with the prefix sums as continuous
   * variables so the model stays linear in size. Every solution has exactly one such relabelling,
   * so the optimum is unchanged. Only in the MIP: the LP relaxation stays the plain one the gap is
   * reported against.
   */
  private void breakDeviceSymmetry(PlacementProblem problem, CostModel model) {
    for (List<Integer> group : interchangeable(problem, model)) {
      for (int j = 1; j < group.size(); j++) {
        int previous = group.get(j - 1);
        int current = group.get(j);
        String name = devices.get(current).id();
        // prefix = sum of I[previous][c'] over c' < c, built column by column.
        Variable prefix = null;
        for (int c = 0; c < columns.size(); c++) {
          LinearExprBuilder order = LinearExpr.newBuilder().add(place[current][c]);
          if (prefix == null) {
            place[current][c].setUpperBound(0);
          } else {
            order.addTerm(prefix, -1);
            builder.addLessOrEqual(order, 0).withName(unique("symmetry_" + name + "_" + c));
          }
          Variable next =
              variable(builder.newNumVar(0, columns.size(), unique("first_" + name + "_" + c)));
          LinearExprBuilder sum = LinearExpr.newBuilder().add(next).addTerm(place[previous][c], -1);
          if (prefix != null) {
            sum.addTerm(prefix, -1);
          }
          builder.addEquality(sum, 0).withName(unique("prefix_" + name + "_" + c));
          prefix = next;
        }
      }
    }
  }

  /**
   * Groups of devices that no constraint or coefficient tells apart: same scan time and stored
   * bytes for every column, same price, same limits, and no column pinned to them.
   */
  private List<List<Integer>> interchangeable(PlacementProblem problem, CostModel model) {
    Set<String> pinnedTo = new HashSet<>(problem.options().pinned().values());
    Map<List<Object>, List<Integer>> groups = new LinkedHashMap<>();
    for (int d = 0; d < devices.size(); d++) {
      DeviceProfile device = devices.get(d);
      if (pinnedTo.contains(device.id())) {
        continue;
      }
      List<Object> key = new ArrayList<>();
      key.add(device.costPerGb());
      key.add(device.access());
      key.add(problem.limitBytes(device));
      key.add(problem.options().minBytes().getOrDefault(device.id(), 0L));
      key.add(device.cold());
      key.add(device.link());
      for (ColumnRef column : columns) {
        key.add(model.columnTime(device, column));
        key.add(model.cpuTime(device, column));
        key.add(model.storedBytes(device, column));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(d);
    }
    return groups.values().stream().filter(g -> g.size() > 1).toList();
  }

  /** The MIP of Section 4.5. */
  public static LoptFormulation of(PlacementProblem problem) {
    return new LoptFormulation(problem, false);
  }

  /** The same model with every {@code I} (and {@code y}) continuous in [0, 1]: its LP bound. */
  public static LoptFormulation relaxation(PlacementProblem problem) {
    return new LoptFormulation(problem, true);
  }

  /**
   * The optimum of the LP relaxation (continuous I; Glop, or SCIP where Glop is missing): a lower
   * bound on any placement's Eq. 4, reported beside a strategy's own gap. NaN if the solver did not
   * finish within {@code timeLimit}.
   */
  static double lpBound(PlacementProblem problem, Duration timeLimit) {
    LoptFormulation lp = relaxation(problem);
    ModelSolver glop = new ModelSolver("glop");
    ModelSolver solver = glop.solverIsSupported() ? glop : new ModelSolver("scip");
    solver.setTimeLimit(timeLimit);
    SolveStatus status = solver.solve(lp.model());
    return status == SolveStatus.OPTIMAL ? solver.getObjectiveValue() : Double.NaN;
  }

  /** Loads OR-Tools' native library, once per JVM. */
  static synchronized void loadNatives() {
    if (!nativesLoaded) {
      Loader.loadNativeLibraries();
      nativesLoaded = true;
    }
  }

  public ModelBuilder model() {
    return builder;
  }

  /** The names of all variables, as the exports spell them. */
  public List<String> variableNames() {
    return variables.stream().map(Variable::getName).toList();
  }

  /** The model in (free) MPS format, for Gurobi, HiGHS, CBC, ... */
  public String exportMps() {
    return builder.exportToMpsString(false);
  }

  /** The model in CPLEX LP format. */
  public String exportLp() {
    return builder.exportToLpString(false);
  }

  /** The placement a solved model describes: each column on its device with the largest I. */
  Placement placement(ModelSolver solved) {
    Map<ColumnRef, String> deviceOf = new HashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      int best = 0;
      for (int d = 1; d < devices.size(); d++) {
        if (solved.getValue(place[d][c]) > solved.getValue(place[best][c])) {
          best = d;
        }
      }
      deviceOf.put(columns.get(c), devices.get(best).id());
    }
    return new Placement(deviceOf);
  }

  private Variable[] column(int c) {
    Variable[] vars = new Variable[devices.size()];
    for (int d = 0; d < vars.length; d++) {
      vars[d] = place[d][c];
    }
    return vars;
  }

  private Variable binary(boolean relaxed, String name) {
    String unique = unique(name);
    return variable(relaxed ? builder.newNumVar(0, 1, unique) : builder.newBoolVar(unique));
  }

  private Variable variable(Variable v) {
    variables.add(v);
    return v;
  }

  /**
   * A name both MPS and LP files accept: letters, digits, {@code _} and {@code .}, starting with a
   * letter, unique in the model (a suffix resolves clashes that the cleaning creates).
   */
  private String unique(String name) {
    String clean = name.replaceAll("[^A-Za-z0-9_.]", "_");
    String candidate = clean;
    for (int i = 2; !names.add(candidate); i++) {
      candidate = clean + "_" + i;
    }
    return candidate;
  }
}
