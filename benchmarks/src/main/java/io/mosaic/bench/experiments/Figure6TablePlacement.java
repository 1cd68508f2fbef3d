package io.mosaic.bench.experiments;

import io.mosaic.bench.PlannerBenchmark;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.workload.TraceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Paper Figure 6 (Section 5.2), predicted by the cost model at the paper's scale: every
 * table-granular placement of the four largest TPC-H tables on HDD, SATA SSD and NVMe (3^4 = 81,
 * the other tables on NVMe, as the paper's footnote 2 says), the Pareto line of table placement,
 * and LOPT's budget curve; then, for each Pareto-optimal table placement, the cheapest LOPT budget
 * with the same predicted time ("same time at x% of the cost") and LOPT's time at the same budget
 * ("x% of the runtime"). Prices and throughputs of Table 1, sizes {@code tpch-sf30}.
 *
 * <p>Usage: {@code benchmarks/bench experiments.Figure6TablePlacement [SIZES] [SOLVE_SECONDS]}
 * (default {@code tpch-sf30}, LOPT time limit 10 s per solve). Writes {@code
 * docs/experiments/figure6-table-placement.{csv,svg}}.
 */
public final class Figure6TablePlacement {
  private Figure6TablePlacement() {}

  private static final List<String> TABLE_DEVICES = List.of("hdd", "ssd", "nvme");

  public static void main(String[] args) throws IOException {
    String sizes = args.length > 0 ? args[0] : "tpch-sf30";
    Path out = Path.of("docs/experiments");
    CostModel model = PlannerBenchmark.model(sizes);
    Workload trace = TraceFile.load("tpch");
    LoptStrategy lopt =
        new LoptStrategy(Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 10));

    Map<String, Long> tableBytes = new HashMap<>();
    for (ColumnRef c : model.columns()) {
      tableBytes.merge(c.table(), model.storedBytes(model.device("nvme"), c), Long::sum);
    }
    List<String> largest =
        tableBytes.keySet().stream()
            .sorted(Comparator.comparingLong((String t) -> tableBytes.get(t)).reversed())
            .limit(4)
            .toList();
    System.out.println("Figure 6 (" + sizes + "): table placements of " + largest);

    CsvFile csv = new CsvFile("kind", "placement", "cost_cents", "predicted_s", "pareto");
    List<double[]> tablePoints = new ArrayList<>();
    List<String> tableLabels = new ArrayList<>();
    int n = TABLE_DEVICES.size();
    for (int code = 0; code < Math.pow(n, largest.size()); code++) {
      Map<String, String> tableDevice = new HashMap<>();
      StringBuilder label = new StringBuilder();
      for (int t = 0, rest = code; t < largest.size(); t++, rest /= n) {
        tableDevice.put(largest.get(t), TABLE_DEVICES.get(rest % n));
        label.append(label.isEmpty() ? "" : " ").append(largest.get(t)).append('=');
        label.append(TABLE_DEVICES.get(rest % n));
      }
      Map<ColumnRef, String> deviceOf = new HashMap<>();
      model.columns().forEach(c -> deviceOf.put(c, tableDevice.getOrDefault(c.table(), "nvme")));
      Placement p = new Placement(deviceOf);
      tablePoints.add(new double[] {model.cost(p), model.totalTime(trace, p)});
      tableLabels.add(label.toString());
    }
    List<Integer> front = paretoFront(tablePoints);
    for (int i = 0; i < tablePoints.size(); i++) {
      csv.row(
          "table",
          tableLabels.get(i),
          tablePoints.get(i)[0],
          tablePoints.get(i)[1],
          front.contains(i));
    }

    BudgetSweep.Result sweep =
        new BudgetSweep(lopt, 8).sweep(model, trace, PlacementOptions.defaults());
    for (BudgetSweep.Point p : sweep.points()) {
      csv.row(
          "lopt",
          "budget " + Math.round(p.budgetCents()),
          p.costCents(),
          p.predictedSeconds(),
          true);
    }

    // Dotted arrows of the figure: same time for less money, less time for the same money.
    CsvFile arrows =
        new CsvFile(
            "table_placement",
            "table_cost_cents",
            "table_s",
            "lopt_cost_same_time_cents",
            "cost_share",
            "lopt_s_same_budget",
            "time_share");
    double bestCostShare = 1;
    String near536 = "";
    double nearest = Double.MAX_VALUE;
    for (int i : front) {
      double cost = tablePoints.get(i)[0];
      double time = tablePoints.get(i)[1];
      double sameBudget;
      try {
        sameBudget =
            lopt.place(PlacementProblem.budget(model, trace, cost)).prediction().totalSeconds();
      } catch (RuntimeException e) {
        continue; // cheaper than LOPT's cheapest placement
      }
      double cheapest = cheapestBudgetFor(lopt, model, trace, time, cost, sweep);
      arrows.row(
          tableLabels.get(i), cost, time, cheapest, cheapest / cost, sameBudget, sameBudget / time);
      String line =
          String.format(
              Locale.ROOT,
              "  %-60s %7.0f ct %8.1f s | LOPT same time at %7.0f ct (%3.0f%% of the cost), same"
                  + " budget in %7.1f s (%3.0f%% of the time)",
              tableLabels.get(i),
              cost,
              time,
              cheapest,
              100 * cheapest / cost,
              sameBudget,
              100 * sameBudget / time);
      System.out.println(line);
      bestCostShare = Math.min(bestCostShare, cheapest / cost);
      if (Math.abs(cost - 536) < nearest) {
        nearest = Math.abs(cost - 536);
        near536 = line.strip();
      }
    }
    System.out.printf(
        Locale.ROOT,
        "Table placement nearest the paper's 536 ct: %s%nBest: same time at %.0f%% of the cost"
            + " (paper: 60%% at 536 ct, 41%% of the runtime at the same budget)%n",
        near536,
        100 * bestCostShare);
    csv.write(out.resolve("figure6-table-placement.csv"));
    arrows.write(out.resolve("figure6-same-time-less-cost.csv"));

    List<SvgChart.Point> all = new ArrayList<>();
    List<SvgChart.Point> pareto = new ArrayList<>();
    tablePoints.forEach(p -> all.add(new SvgChart.Point(p[0], p[1])));
    front.forEach(
        i -> pareto.add(new SvgChart.Point(tablePoints.get(i)[0], tablePoints.get(i)[1])));
    List<SvgChart.Point> curve = new ArrayList<>();
    sweep.points().forEach(p -> curve.add(new SvgChart.Point(p.costCents(), p.predictedSeconds())));
    Files.writeString(
        out.resolve("figure6-table-placement.svg"),
        new SvgChart(
                "Figure 6: LOPT vs table placement (TPC-H " + sizes + ", predicted)",
                "cost of the placement (Eq. 5), cents",
                "predicted workload scan time (s)")
            .add(new SvgChart.Series("table placement", "#ff7f0e", SvgChart.Style.MARKERS, all))
            .add(
                new SvgChart.Series(
                    "table Pareto line", "#ff7f0e", SvgChart.Style.DASHED_STEP, pareto))
            .add(new SvgChart.Series("LOPT (budget mode)", "#1f77b4", SvgChart.Style.LINE, curve))
            .xy());
  }

  /** Indices of the points no cheaper point beats, by increasing cost. */
  static List<Integer> paretoFront(List<double[]> points) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      order.add(i);
    }
    order.sort(
        Comparator.comparingDouble((Integer i) -> points.get(i)[0])
            .thenComparingDouble(i -> points.get(i)[1]));
    List<Integer> front = new ArrayList<>();
    double fastest = Double.MAX_VALUE;
    for (int i : order) {
      if (points.get(i)[1] < fastest * (1 - 1e-9)) {
        front.add(i);
        fastest = points.get(i)[1];
      }
    }
    return front;
  }

  /**
   * The cheapest budget at which LOPT predicts at most {@code time}: bracketed by the sweep's
   * points (the dearest one still slower, the cheapest one fast enough or {@code hi}), then 5
   * bisection steps.
   */
  static double cheapestBudgetFor(
      LoptStrategy lopt,
      CostModel model,
      Workload trace,
      double time,
      double hi,
      BudgetSweep.Result sweep) {
    double lo = BudgetSweep.minimumBudgetCents(model);
    double best = hi;
    for (BudgetSweep.Point p : sweep.points()) {
      if (p.predictedSeconds() > time) {
        lo = Math.max(lo, p.costCents());
      } else {
        best = Math.min(best, p.costCents());
      }
    }
    hi = Math.min(hi, best);
    for (int i = 0; i < 2 && lo < hi; i++) {
      double mid = (lo + hi) / 2;
      PlacementResult r = lopt.place(PlacementProblem.budget(model, trace, mid));
      if (r.prediction().totalSeconds() <= time * (1 + 1e-6)) {
        hi = mid;
        best = Math.min(best, r.prediction().costCents());
      } else {
        lo = mid;
      }
    }
    return best;
  }
}
