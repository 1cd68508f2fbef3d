package io.mosaic.bench.experiments;

import io.mosaic.cli.ParetoChart;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Prediction;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementOptions;
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
 * The planner on cold devices (docs/cold-storage.md, "The planner"): the predicted budget curve
 * (paper Figure 5) of the built-in TPC-H trace over paper Table 1's devices, without and with the
 * cold storage device of the {@code csd} catalogue (Skipper's figures: 10 ct/GB, 1 GB/s, 12 groups,
 * 8 s switches). Model predictions only, nothing is timed (docs/experiments/cold.md, "The planner's
 * budget curve").
 *
 * <p>Usage: {@code benchmarks/bench experiments.ColdBudgetCurves [OUT_DIR] [SF] [TIME_LIMIT_S]
 * [STEPS]} (defaults docs/experiments, 30, 60, 8). Writes {@code cold-budget-curves-tpch-sfN.csv}
 * (both curves, with each point's expected group switches), {@code .svg} (both curves over cost)
 * and {@code cold-budget-curve-csd-tpch-sfN.svg} (the curve with the csd and its device mix).
 */
public final class ColdBudgetCurves {
  private ColdBudgetCurves() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/experiments");
    int sf = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    long limit = args.length > 2 ? Long.parseLong(args[2]) : 60;
    int steps = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    Files.createDirectories(out);
    Workload trace = TraceFile.load("tpch");
    ColumnSizes sizes = ColumnSizes.load("tpch-sf" + sf);
    String name = "tpch-sf" + sf;
    CsvFile csv =
        new CsvFile(
            "catalogue",
            "budget_cents",
            "cost_cents",
            "predicted_seconds",
            "expected_switches",
            "nvme_gb",
            "ssd_gb",
            "raid5_gb",
            "hdd_gb",
            "csd_gb",
            "sweep_seconds");
    List<List<SvgChart.Point>> lines = new ArrayList<>();
    for (String catalogue : List.of("table1", "table1,csd")) {
      List<DeviceProfile> devices = new ArrayList<>();
      for (CatalogDevice d : DeviceCatalog.load(catalogue)) {
        devices.add(DeviceProfile.catalog(d, sizes.ratio(d.codec())));
      }
      CostModel model = CostModel.of(devices, sizes.columns());
      long start = System.nanoTime();
      BudgetSweep.Result curve =
          new BudgetSweep(new LoptStrategy(Duration.ofSeconds(limit)), steps)
              .sweep(model, trace, PlacementOptions.defaults());
      double seconds = (System.nanoTime() - start) / 1e9;
      List<SvgChart.Point> line = new ArrayList<>();
      for (BudgetSweep.Point p : curve.points()) {
        Prediction prediction = model.predict(trace, p.placement());
        List<Object> row = new ArrayList<>();
        row.add(catalogue.replace(",", "+"));
        row.add(String.format(Locale.ROOT, "%.2f", p.budgetCents()));
        row.add(String.format(Locale.ROOT, "%.2f", p.costCents()));
        row.add(String.format(Locale.ROOT, "%.4f", p.predictedSeconds()));
        row.add(String.format(Locale.ROOT, "%.2f", prediction.expectedSwitches()));
        for (String d : List.of("nvme", "ssd", "raid5", "hdd", "csd")) {
          row.add(String.format(Locale.ROOT, "%.3f", p.bytesPerDevice().getOrDefault(d, 0L) / 1e9));
        }
        row.add(String.format(Locale.ROOT, "%.1f", seconds));
        csv.row(row.toArray());
        line.add(new SvgChart.Point(p.costCents(), p.predictedSeconds()));
        System.out.println(String.join(",", row.stream().map(Object::toString).toList()));
      }
      System.out.printf(
          Locale.ROOT,
          "%s: %d Pareto points in %.1f s; cheapest %.0f ct (%.2f s), vertical line %.0f ct"
              + " (%.2f s)%n",
          catalogue,
          curve.points().size(),
          seconds,
          curve.minimumCents(),
          curve.points().get(0).predictedSeconds(),
          curve.saturationCents(),
          curve.bestSeconds());
      lines.add(line);
      if (catalogue.contains("csd")) {
        Files.writeString(
            out.resolve("cold-budget-curve-csd-" + name + ".svg"),
            ParetoChart.svg(
                    curve.points(),
                    devices.stream().map(DeviceProfile::id).toList(),
                    curve.saturationCents())
                + "\n");
      }
    }
    csv.write(out.resolve("cold-budget-curves-" + name + ".csv"));
    // The cheapest points with the csd (everything cold, every scan switching) are an order of
    // magnitude slower than the rest: the chart stops at 1.2x the slowest point without it.
    double cap = 1.2 * lines.get(0).stream().mapToDouble(SvgChart.Point::y).max().orElse(1);
    List<SvgChart.Point> cold = lines.get(1).stream().filter(p -> p.y() <= cap).toList();
    int off = lines.get(1).size() - cold.size();
    SvgChart chart =
        new SvgChart(
            "TPC-H SF "
                + sf
                + " budget curves, predicted"
                + (off == 0 ? "" : " (" + off + " cheaper csd point(s) above the chart: CSV)"),
            "cost of the devices to buy (cents, Eq. 5)",
            "predicted workload scan time (s, Eq. 4)");
    chart.add(new SvgChart.Series("Table 1", "#1f77b4", SvgChart.Style.LINE, lines.get(0)));
    chart.add(new SvgChart.Series("Table 1 + csd", "#d62728", SvgChart.Style.LINE, cold));
    Files.writeString(out.resolve("cold-budget-curves-" + name + ".svg"), chart.xy());
  }
}
