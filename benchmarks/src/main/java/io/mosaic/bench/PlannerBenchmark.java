package io.mosaic.bench;

import io.mosaic.cli.ParetoChart;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.LocalSearchStrategy;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.workload.ColumnSizes;
import io.mosaic.workload.TraceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Planner figures (docs/planner-benchmarks.md): LOPT's solve time on the shipped TPC-H and TPC-DS
 * traces with the four devices of paper Table 1 (Table 3's "opt" column), and the predicted budget
 * curves of Figure 5 at SF 30 and 100 (CSV and SVG).
 *
 * <p>Each solve is also run with OptaPlanner local search ({@link LocalSearchStrategy}) for
 * comparison. Usage: {@code benchmarks/bench PlannerBenchmark OUT_DIR [TIME_LIMIT_SECONDS] [STEPS]
 * [WORKLOADS] [PARTS]}, workloads comma-separated (default {@code tpch,tpcds}), parts {@code
 * solves,curves} (the default) or either alone.
 */
public final class PlannerBenchmark {
  private PlannerBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path outDir = Path.of(args.length > 0 ? args[0] : "docs/experiments");
    long limit = args.length > 1 ? Long.parseLong(args[1]) : 60;
    int steps = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    String[] workloads = (args.length > 3 ? args[3] : "tpch,tpcds").split(",");
    List<String> parts = List.of((args.length > 4 ? args[4] : "solves,curves").split(","));
    Files.createDirectories(outDir);
    for (String workload : workloads) {
      run(workload, outDir, limit, steps, parts);
    }
  }

  private static void run(String workload, Path outDir, long limit, int steps, List<String> parts)
      throws IOException {
    Workload trace = TraceFile.load(workload);
    LoptStrategy lopt = new LoptStrategy(Duration.ofSeconds(limit));
    System.out.printf(
        Locale.ROOT,
        "%s trace: %d scans, %d distinct; LOPT time limit %d s%n",
        workload,
        trace.totalWeight(),
        trace.scans().size(),
        limit);

    LocalSearchStrategy local =
        new LocalSearchStrategy(Duration.ofSeconds(limit), Duration.ofSeconds(5), 0);
    System.out.println("workload,strategy,sf,budget,solve_s,objective_s,optimal,gap,lp_gap");
    for (int sf : parts.contains("solves") ? new int[] {1, 30, 100} : new int[0]) {
      CostModel model = model(workload + "-sf" + sf);
      double min = BudgetSweep.minimumBudgetCents(model);
      PlacementResult unbounded = lopt.place(PlacementProblem.capacity(model, trace));
      report(workload, sf, "unbounded", unbounded);
      report(workload, sf, "unbounded", local.place(PlacementProblem.capacity(model, trace)));
      // Half way between the cheapest placement and the fastest one: the budget binds.
      double mid = (min + unbounded.prediction().costCents()) / 2;
      String budget = String.format(Locale.ROOT, "%.0f ct", mid);
      report(workload, sf, budget, lopt.place(PlacementProblem.budget(model, trace, mid)));
      report(workload, sf, budget, local.place(PlacementProblem.budget(model, trace, mid)));
    }

    for (int sf : parts.contains("curves") ? new int[] {30, 100} : new int[0]) {
      CostModel model = model(workload + "-sf" + sf);
      long start = System.nanoTime();
      BudgetSweep.Result curve =
          new BudgetSweep(lopt, steps).sweep(model, trace, PlacementOptions.defaults());
      double seconds = (System.nanoTime() - start) / 1e9;
      List<String> devices = model.devices().stream().map(DeviceProfile::id).toList();
      StringBuilder csv = new StringBuilder("budget_cents,cost_cents,predicted_seconds");
      devices.forEach(d -> csv.append(',').append(d).append("_gb"));
      csv.append('\n');
      for (BudgetSweep.Point p : curve.points()) {
        csv.append(
            String.format(
                Locale.ROOT,
                "%.2f,%.2f,%.4f",
                p.budgetCents(),
                p.costCents(),
                p.predictedSeconds()));
        devices.forEach(
            d ->
                csv.append(
                    String.format(
                        Locale.ROOT, ",%.3f", p.bytesPerDevice().getOrDefault(d, 0L) / 1e9)));
        csv.append('\n');
      }
      Path csvFile = outDir.resolve("budget-curve-" + workload + "-sf" + sf + ".csv");
      Path svgFile = outDir.resolve("budget-curve-" + workload + "-sf" + sf + ".svg");
      Files.writeString(csvFile, csv);
      Files.writeString(
          svgFile, ParetoChart.svg(curve.points(), devices, curve.saturationCents()) + "\n");
      System.out.printf(
          Locale.ROOT,
          "%s SF %d sweep: %d Pareto points in %.1f s; minimum %.0f ct (%.2f s), saturation %.0f ct"
              + " (%.2f s); wrote %s, %s%n",
          workload,
          sf,
          curve.points().size(),
          seconds,
          curve.minimumCents(),
          curve.points().get(0).predictedSeconds(),
          curve.saturationCents(),
          curve.bestSeconds(),
          csvFile,
          svgFile);
      System.out.print(csv);
    }
  }

  /** Paper Table 1's devices (zstd everywhere), ratios measured on the sizes themselves. */
  public static CostModel model(String sizesName) {
    ColumnSizes sizes = ColumnSizes.load(sizesName);
    List<DeviceProfile> devices = new ArrayList<>();
    for (CatalogDevice d : DeviceCatalog.load("table1")) {
      devices.add(DeviceProfile.catalog(d, sizes.ratio(d.codec())));
    }
    return CostModel.of(devices, sizes.columns());
  }

  private static void report(String workload, int sf, String budget, PlacementResult r) {
    System.out.printf(
        Locale.ROOT,
        "%s,%s,%d,%s,%.2f,%.4f,%s,%.2e,%.2e%n",
        workload,
        r.strategy(),
        sf,
        budget,
        r.solveTime().toMillis() / 1000.0,
        r.objective(),
        r.optimal(),
        r.gap(),
        r.lpGap());
  }
}
