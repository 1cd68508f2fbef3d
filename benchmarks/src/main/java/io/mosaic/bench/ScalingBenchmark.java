package io.mosaic.bench;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The scaling grid of paper Figure 9, as far as it goes here: k independent TPC-H instances (tables
 * renamed per instance, 22 k queries) on m copies of each Table 1 device, LOPT in budget mode at
 * the budget half way between the cheapest and the fastest placement of the single instance, scaled
 * by k. LOPT stops at the figure's criterion, a gap of 5 % to the solver's bound, or at the time
 * limit. Reports solve time, whether SCIP reached the gap, and the gaps.
 *
 * <p>Usage: {@code benchmarks/bench ScalingBenchmark [TIME_LIMIT_SECONDS] [K,...] [M,...] [GAP]}.
 */
public final class ScalingBenchmark {
  private ScalingBenchmark() {}

  public static void main(String[] args) {
    long limit = args.length > 0 ? Long.parseLong(args[0]) : 60;
    int[] ks = ints(args.length > 1 ? args[1] : "1,2,4");
    int[] ms = ints(args.length > 2 ? args[2] : "1,2");
    double gap = args.length > 3 ? Double.parseDouble(args[3]) : 0.05;
    CostModel base = PlannerBenchmark.model("tpch-sf30");
    Workload trace = io.mosaic.workload.TraceFile.load("tpch");
    LoptStrategy lopt = new LoptStrategy(Duration.ofSeconds(limit), gap);
    double min = BudgetSweep.minimumBudgetCents(base);
    double max = lopt.place(PlacementProblem.capacity(base, trace)).prediction().costCents();
    double budgetPerInstance = (min + max) / 2;
    System.out.printf(
        Locale.ROOT,
        "TPC-H SF 30, time limit %d s, stop at gap %.0f%%, budget %.0f ct per instance%n",
        limit,
        100 * gap,
        budgetPerInstance);
    System.out.println("k,m,columns,devices,distinct_scans,solve_s,reached_gap,gap,lp_gap");
    for (int k : ks) {
      for (int m : ms) {
        CostModel model = scaled(base, k, m);
        Workload w = instances(trace, k);
        PlacementResult r = lopt.place(PlacementProblem.budget(model, w, budgetPerInstance * k));
        System.out.printf(
            Locale.ROOT,
            "%d,%d,%d,%d,%d,%.2f,%s,%.2e,%.2e%n",
            k,
            m,
            model.columns().size(),
            model.devices().size(),
            w.scans().size(),
            r.solveTime().toMillis() / 1000.0,
            r.optimal() || r.gap() <= gap,
            r.gap(),
            r.lpGap());
      }
    }
  }

  /** k copies of every column (table {@code t} becomes {@code t_i}) on m copies of each device. */
  static CostModel scaled(CostModel base, int k, int m) {
    List<DeviceProfile> devices = new ArrayList<>();
    for (DeviceProfile d : base.devices()) {
      for (int j = 0; j < m; j++) {
        devices.add(m == 1 ? d : d.withId(d.id() + "_" + j));
      }
    }
    List<ColumnSize> sizes = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      for (ColumnSize s : base.sizes().values()) {
        sizes.add(new ColumnSize(rename(s.column(), i, k), s.bytes(), s.storedBytes()));
      }
    }
    return CostModel.of(devices, sizes);
  }

  static Workload instances(Workload trace, int k) {
    List<DistinctScan> scans = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      for (DistinctScan s : trace.scans()) {
        Set<ColumnRef> columns = new HashSet<>();
        for (ColumnRef c : s.columns()) {
          columns.add(rename(c, i, k));
        }
        scans.add(new DistinctScan(columns, s.weight()));
      }
    }
    return new Workload(scans);
  }

  private static ColumnRef rename(ColumnRef c, int i, int k) {
    return k == 1 ? c : new ColumnRef(c.table() + "_" + i, c.column());
  }

  private static int[] ints(String list) {
    return java.util.Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
  }
}
