package io.mosaic.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.mosaic.MosaicException;
import io.mosaic.config.Cost;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.operations.MaintenanceSyntax;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.InfeasiblePlacementException;
import io.mosaic.placement.LocalSearchStrategy;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementResult;
import io.mosaic.placement.PlacementStrategy;
import io.mosaic.workload.PlacementFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic recommend}: what to buy (paper Section 3.4, budget mode, Eq. 8). With {@code
 * --budget}, LOPT's placement for that budget; otherwise the budget sweep of Figure 5, from the
 * cheapest feasible budget to where more money stops helping.
 */
@Command(
    name = "recommend",
    mixinStandardHelpOptions = true,
    description = {
      "Recommend devices to buy: LOPT in budget mode (paper Section 3.4, Figure 5).",
      "Without --budget, sweeps budgets from the cheapest feasible one up to where more money"
          + " stops lowering the predicted scan time, keeping the Pareto-optimal points."
    })
public final class RecommendCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PlanningInputs inputs;

  @Mixin ConstraintOptions constraints;

  @Option(
      names = "--budget",
      paramLabel = "COST",
      description =
          "One budget, e.g. \"350 ct\" or \"3.5 EUR\" (prices are per GB in the catalogue);"
              + " per month for a catalogue priced per month, e.g. \"12 USD\" with aws.")
  String budget;

  @Option(
      names = "--steps",
      defaultValue = "8",
      description = "Budgets solved along the sweep (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(
      names = "--time-limit",
      defaultValue = "60s",
      paramLabel = "DURATION",
      description =
          "Time limit of the solve for each budget, polish included: 10s, 2m, ISO-8601 PT60S or"
              + " a number of seconds (default: ${DEFAULT-VALUE}).")
  String timeLimit;

  enum Strategy {
    lopt,
    local
  }

  @Option(
      names = "--strategy",
      defaultValue = "lopt",
      description =
          "lopt: the exact MIP (SCIP); local: OptaPlanner local search for instances too large"
              + " for it, with its gap to the LP bound (default: ${DEFAULT-VALUE}).")
  Strategy strategy;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the result as JSON.")
  Path json;

  @Option(
      names = "--chart",
      paramLabel = "FILE.html",
      description = "Also write an HTML page with the Pareto chart (SVG) and the device mixes.")
  Path chart;

  @Option(
      names = "--placement-out",
      paramLabel = "FILE",
      description = "With --budget: write the placement (table,column,device) for `predict`.")
  Path placementOut;

  /** Runs {@code recommend ARGS} as the CLI would; returns the exit status. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Commands.run(new RecommendCommand(), args, out, err);
  }

  @Override
  public Integer call() throws IOException {
    if (!inputs.catalogMode()) {
      throw MosaicException.invalid(
          "recommend chooses devices to buy: give --catalog (table1, ebs, table1,csd, aws or a file); for installed"
              + " devices use `mosaic place`");
    }
    PrintWriter out = spec.commandLine().getOut();
    Workload workload = inputs.workload();
    Money money = inputs.money();
    double runs = inputs.runsPerMonth();
    CostModel model = inputs.costModel(workload);
    model.validate(workload);
    Duration limit = MaintenanceSyntax.duration(timeLimit, "--time-limit");
    PlacementOptions options = constraints.options(model.columns());
    PlacementStrategy lopt =
        strategy == Strategy.lopt
            ? new LoptStrategy(limit)
            : new LocalSearchStrategy(
                limit,
                limit.compareTo(Duration.ofSeconds(5)) < 0 ? limit : Duration.ofSeconds(5),
                0);
    List<BudgetSweep.Point> points;
    Double saturation = null;
    double minimum = BudgetSweep.minimumBudgetCents(model);
    if (budget != null) {
      double cents = Cost.parse(budget).cents();
      PlacementResult r;
      try {
        r = lopt.place(inputs.problem(model, workload, cents, options));
      } catch (InfeasiblePlacementException e) {
        throw new InfeasiblePlacementException(
            e.getMessage() + "; the minimum budget is " + money.format(minimum));
      }
      points =
          List.of(
              new BudgetSweep.Point(
                  cents,
                  r.prediction().costCents(),
                  r.prediction().totalSeconds(),
                  r.prediction().bytesPerDevice(),
                  r.placement()));
      if (placementOut != null) {
        PlacementFile.write(placementOut, r.placement());
      }
    } else {
      if (placementOut != null) {
        throw MosaicException.invalid(
            "--placement-out needs one --budget; a sweep has many placements (see --json)");
      }
      BudgetSweep.Result result = new BudgetSweep(lopt, steps).sweep(model, workload, options);
      points = result.points();
      saturation = result.saturationCents();
    }

    List<String> devices = model.devices().stream().map(DeviceProfile::id).toList();
    if (money == Money.MONTHLY) {
      // A cloud catalogue offers many classes; show those some point buys.
      List<BudgetSweep.Point> curve = points;
      devices =
          devices.stream()
              .filter(d -> curve.stream().anyMatch(p -> p.bytesPerDevice().getOrDefault(d, 0L) > 0))
              .toList();
    }
    out.printf(
        Locale.ROOT,
        "%d table scans (%d distinct) over %d columns; devices: %s%n",
        workload.totalWeight(),
        workload.scans().size(),
        model.columns().size(),
        String.join(", ", model.devices().stream().map(DeviceProfile::id).toList()));
    if (money == Money.MONTHLY) {
      out.printf(
          Locale.ROOT,
          "Costs per month: storage, plus GET requests and GB retrieved for the trace run %s"
              + " times a month (--runs-per-month).%n",
          new java.math.BigDecimal(runs).stripTrailingZeros().toPlainString());
    }
    out.printf(Locale.ROOT, "Cheapest feasible budget: %s%n", money.format(minimum));
    if (saturation != null) {
      out.printf(
          Locale.ROOT,
          "More than %s buys no faster scans (the paper's vertical line).%n",
          money.format(saturation));
    }
    out.print(table(points, devices, money).render());
    if (money == Money.MONTHLY) {
      for (BudgetSweep.Point p : points) {
        printPlacement(out, model, p, money);
      }
    }
    if (placementOut != null) {
      out.println("Wrote " + placementOut);
    }
    if (json != null) {
      writeJson(json, model, workload, points, minimum, saturation, money, runs);
      out.println("Wrote " + json);
    }
    if (chart != null) {
      Files.writeString(
          chart,
          ParetoChart.html(
              money == Money.MONTHLY
                  ? "Mosaic recommendation, money per month"
                  : "Mosaic purchase recommendation",
              points,
              devices,
              saturation,
              money));
      out.println("Wrote " + chart);
    }
    return 0;
  }

  /**
   * Where a point puts each column, device by device, and what the month costs by kind: the classes
   * and volumes to rent, and for which columns.
   */
  private static void printPlacement(
      PrintWriter out, CostModel model, BudgetSweep.Point p, Money money) {
    CostModel.Charges c = model.charges(p.placement());
    out.printf(
        Locale.ROOT,
        "%s, %.3f s: storage %s, requests %s, retrieval %s%n",
        money.format(p.costCents()),
        p.predictedSeconds(),
        money.format(c.storageCents()),
        money.format(c.requestCents()),
        money.format(c.retrievalCents()));
    Map<String, List<String>> columns = new LinkedHashMap<>();
    model.devices().forEach(d -> columns.put(d.id(), new ArrayList<>()));
    p.placement()
        .deviceOf()
        .forEach((column, device) -> columns.get(device).add(column.toString()));
    columns.forEach(
        (device, list) -> {
          if (!list.isEmpty()) {
            out.printf(Locale.ROOT, "  %s: %s%n", device, String.join(", ", list));
          }
        });
  }

  private static TextTable table(
      List<BudgetSweep.Point> points, List<String> devices, Money money) {
    List<String> header =
        new ArrayList<>(
            List.of(
                "budget", money == Money.MONTHLY ? "cost per month" : "cost", "predicted time"));
    devices.forEach(d -> header.add(d + " GB"));
    TextTable table = new TextTable(header.toArray(String[]::new));
    for (BudgetSweep.Point p : points) {
      List<String> row =
          new ArrayList<>(
              List.of(
                  money.format(p.budgetCents()),
                  money.format(p.costCents()),
                  String.format(Locale.ROOT, "%.3f s", p.predictedSeconds())));
      devices.forEach(d -> row.add(Commands.gb(p.bytesPerDevice().getOrDefault(d, 0L))));
      table.row(row.toArray(String[]::new));
    }
    return table;
  }

  private static void writeJson(
      Path file,
      CostModel model,
      Workload workload,
      List<BudgetSweep.Point> points,
      double minimum,
      Double saturation,
      Money money,
      double runs)
      throws IOException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("per_month", money == Money.MONTHLY);
    if (money == Money.MONTHLY) {
      doc.put("runs_per_month", runs);
    }
    doc.put("devices", model.devices().stream().map(DeviceProfile::id).toList());
    doc.put("scans", workload.totalWeight());
    doc.put("distinct_scans", workload.scans().size());
    doc.put("minimum_budget_cents", minimum);
    doc.put("saturation_cents", saturation);
    List<Map<String, Object>> list = new ArrayList<>();
    for (BudgetSweep.Point p : points) {
      Map<String, Object> point = new LinkedHashMap<>();
      point.put("budget_cents", p.budgetCents());
      point.put("cost_cents", p.costCents());
      point.put("predicted_seconds", p.predictedSeconds());
      point.put("bytes_per_device", p.bytesPerDevice());
      if (money == Money.MONTHLY) {
        CostModel.Charges c = model.charges(p.placement());
        point.put("storage_cents", c.storageCents());
        point.put("request_cents", c.requestCents());
        point.put("retrieval_cents", c.retrievalCents());
      }
      Map<String, String> placement = new LinkedHashMap<>();
      p.placement().deviceOf().forEach((c, d) -> placement.put(c.toString(), d));
      point.put("placement", placement);
      list.add(point);
    }
    doc.put("points", list);
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), doc);
  }
}
