package io.mosaic.bench.experiments;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.CpuModel;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.workload.RangeUnits;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Row-range placement's solve-time goal alone (docs/row-ranges.md: within 2x of column-only LOPT
 * for TPC-H): the models and budgets of {@link RowRangesRecency}, solved by column-only and
 * range-aware LOPT {@code RUNS} times each, without migrating or scanning. Prints per budget the
 * median solve times, their ratio, and both objectives with SCIP's gaps (so equal quality shows).
 *
 * <p>Usage: {@code benchmarks/bench experiments.RowRangesSolveTimes [SF] [DIVISOR] [BUDGETS] [RUNS]
 * [RECENT] [CPU] [BUDGET_LIST]} (defaults 0.05, 50, 5, 3, 0.2, {@code calibrate}). The data is
 * loaded only for its sizes. {@code CPU} is {@code calibrate} (as RowRangesRecency: measured on
 * this machine, so the model changes with its load) or {@code cores,fixed_ms,none_MBps,zstd_MBps}
 * (the line this prints), so runs before and after a change solve the same models. {@code
 * BUDGET_LIST}, comma-separated cents as this prints them, skips the column budget sweep.
 */
public final class RowRangesSolveTimes {
  private RowRangesSolveTimes() {}

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.05;
    double divisor = args.length > 1 ? Double.parseDouble(args[1]) : 50;
    int budgets = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    double recent = args.length > 4 ? Double.parseDouble(args[4]) : 0.2;
    String cpuArg = args.length > 5 ? args[5] : "calibrate";
    try (ExperimentPool pool =
        RowRangesRecency.load(Path.of("mosaic-work/experiments/row-ranges-solve"), sf, divisor)) {
      Workload columnTrace = RowRangesRecency.onTables(pool.trace(), Set.of("lineitem", "orders"));
      List<RangeUnits.RangeScan> scans = RowRangesRecency.recencyScans(pool, columnTrace, recent);
      RowRangesRecency.Split skewed = RowRangesRecency.split(pool, scans);
      CpuModel cpu = cpuArg.equals("calibrate") ? pool.cpu() : parse(cpuArg);
      System.out.printf(
          Locale.ROOT,
          "Row ranges solve times: SF %s, divisor %s, recent %s, %d runs; %d columns, %d units;"
              + " cpu %s%n",
          sf,
          divisor,
          recent,
          runs,
          pool.sizes().size(),
          skewed.units(),
          format(cpu));
      CostModel columnModel =
          CostModel.of(pool.configuredProfiles(), pool.sizes()).withCpu(Optional.of(cpu));
      CostModel rangeModel =
          CostModel.of(pool.configuredProfiles(), skewed.sizes()).withCpu(Optional.of(cpu));
      double[] list;
      if (args.length > 6) {
        list = Arrays.stream(args[6].split(",")).mapToDouble(Double::parseDouble).toArray();
      } else {
        // As RowRangesRecency: the column sweep's ends, the first raised to fit the range model.
        BudgetSweep.Result sweep =
            new BudgetSweep(new LoptStrategy(Duration.ofSeconds(20)), budgets)
                .sweep(columnModel, columnTrace, PlacementOptions.defaults());
        Map<ColumnRef, String> onHdd = new LinkedHashMap<>();
        rangeModel.columns().forEach(c -> onHdd.put(c, "hdd"));
        double low =
            Math.max(sweep.minimumCents(), rangeModel.cost(new Placement(onHdd))) * (1 + 1e-6);
        list = new double[budgets];
        for (int i = 0; i < budgets; i++) {
          list[i] = low + (sweep.saturationCents() - low) * i / Math.max(1, budgets - 1);
        }
      }
      List<String> budgetText = new ArrayList<>();
      for (double b : list) {
        budgetText.add(String.format(Locale.ROOT, "%.10f", b));
      }
      System.out.println("  budgets " + String.join(",", budgetText));
      double columnTotal = 0;
      double rangeTotal = 0;
      for (double budget : list) {
        double[] columnSeconds = new double[runs];
        double[] rangeSeconds = new double[runs];
        PlacementResult column = null;
        PlacementResult range = null;
        // Alternated, so a neighbour's burst of load slows both alike.
        for (int r = 0; r < runs; r++) {
          long t0 = System.nanoTime();
          column = solve(columnModel, columnTrace, budget);
          columnSeconds[r] = (System.nanoTime() - t0) / 1e9;
          t0 = System.nanoTime();
          range = solve(rangeModel, skewed.workload(), budget);
          rangeSeconds[r] = (System.nanoTime() - t0) / 1e9;
        }
        double c = median(columnSeconds);
        double g = median(rangeSeconds);
        columnTotal += c;
        rangeTotal += g;
        System.out.printf(
            Locale.ROOT,
            "budget %.4f ct: columns %.2f s (%s; objective %.6f, gap %.2e), ranges %.2f s (%s;"
                + " objective %.6f, gap %.2e): ranges/columns %.2fx, load %.2f%n",
            budget,
            c,
            runsText(columnSeconds),
            column.objective(),
            column.gap(),
            g,
            runsText(rangeSeconds),
            range.objective(),
            range.gap(),
            g / c,
            loadAverage());
      }
      System.out.printf(
          Locale.ROOT,
          "total of medians: columns %.2f s, ranges %.2f s (%.2fx)%n",
          columnTotal,
          rangeTotal,
          rangeTotal / columnTotal);
    }
  }

  private static PlacementResult solve(CostModel model, Workload workload, double budget) {
    // The time limit of RowRangesRecency's solves.
    return new LoptStrategy(Duration.ofSeconds(60))
        .place(
            new PlacementProblem(
                model, workload, PlacementMode.budget(budget), PlacementOptions.defaults()));
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static String runsText(double[] seconds) {
    List<String> out = new ArrayList<>();
    for (double s : seconds) {
      out.add(String.format(Locale.ROOT, "%.2f", s));
    }
    return String.join(" ", out);
  }

  private static double loadAverage() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static CpuModel parse(String text) {
    String[] p = text.split(",");
    return new CpuModel(
        Double.parseDouble(p[0]),
        Latency.ofMillis(Double.parseDouble(p[1])),
        Map.of(
            Codec.NONE,
            Bandwidth.ofMegabytesPerSecond(Double.parseDouble(p[2])),
            Codec.ZSTD,
            Bandwidth.ofMegabytesPerSecond(Double.parseDouble(p[3]))));
  }

  private static String format(CpuModel cpu) {
    return String.format(
        Locale.ROOT,
        "%.6f,%.6f,%.6f,%.6f",
        cpu.cores(),
        cpu.scanFixed().nanos() / 1e6,
        cpu.decode(Codec.NONE).bytesPerSecond() / 1e6,
        cpu.decode(Codec.ZSTD).bytesPerSecond() / 1e6);
  }
}
