package io.mosaic.bench.headline;

import io.mosaic.bench.experiments.CsvFile;
import io.mosaic.bench.experiments.SvgChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns one headline run's raw measurements into {@code docs/experiments/headline-ENGINE.csv} and
 * {@code .svg} (the paper's Figure 6 in an engine: total time of the 22 queries against what the
 * storage costs, for Mosaic and the two Parquet answers).
 *
 * <p>Inputs in DIR: {@code plan.tsv} (budget, answer, cost_cents, predicted_s, model_s, placement,
 * note; one line per answer and budget, written by the script) and {@code results-ENGINE.csv}
 * (budget, answer, query, run, seconds, rows, load; one line per measured query, written by the
 * engine's runner). Per query the median over the runs counts; an answer's total is the sum of its
 * 22 medians, drawn with the spread of the runs' own totals (the fastest and slowest run).
 */
final class Report {
  private Report() {}

  /** One answer at one budget, as planned. */
  record Planned(
      String budget,
      String answer,
      double costCents,
      double predictedSeconds,
      double modelSeconds,
      String placement,
      String note) {}

  static final List<String> ANSWERS = List.of("mosaic", "parquet-alone", "parquet-table");

  static void write(Path dir, String command) throws IOException {
    Map<String, Planned> plan = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve("plan.tsv"))) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      plan.put(
          f[0] + "/" + f[1],
          new Planned(
              f[0],
              f[1],
              Double.parseDouble(f[2]),
              f[3].isEmpty() ? Double.NaN : Double.parseDouble(f[3]),
              Double.parseDouble(f[4]),
              f[5],
              f.length > 6 ? f[6] : ""));
    }
    for (String engine : List.of("trino", "spark")) {
      Path results = dir.resolve("results-" + engine + ".csv");
      if (Files.exists(results)) {
        engine(dir, engine, plan, results, command);
      }
    }
  }

  private static void engine(
      Path dir, String engine, Map<String, Planned> plan, Path results, String command)
      throws IOException {
    // budget/answer -> query -> seconds of each run; and the load averages seen.
    Map<String, Map<Integer, List<Double>>> times = new TreeMap<>();
    // budget/answer -> run -> the run's seconds over all queries: the spread of a point.
    Map<String, Map<Integer, Double>> runTotals = new TreeMap<>();
    Map<String, Map<Integer, Long>> rows = new TreeMap<>();
    Map<String, List<Double>> loads = new TreeMap<>();
    for (String line : Files.readAllLines(results)) {
      if (line.isBlank() || line.startsWith("budget,")) {
        continue;
      }
      String[] f = line.split(",");
      String key = f[0] + "/" + f[1];
      int query = Integer.parseInt(f[2]);
      times
          .computeIfAbsent(key, k -> new TreeMap<>())
          .computeIfAbsent(query, q -> new ArrayList<>())
          .add(Double.parseDouble(f[4]));
      rows.computeIfAbsent(key, k -> new TreeMap<>()).put(query, Long.parseLong(f[5]));
      runTotals
          .computeIfAbsent(key, k -> new TreeMap<>())
          .merge(Integer.parseInt(f[3]), Double.parseDouble(f[4]), Double::sum);
      loads.computeIfAbsent(key, k -> new ArrayList<>()).add(Double.parseDouble(f[6]));
    }
    CsvFile csv =
        new CsvFile(
            "kind",
            "budget_cents",
            "answer",
            "query",
            "cost_cents",
            "seconds",
            "predicted_s",
            "runs",
            "rows",
            "load",
            "placement",
            "note",
            "runs_min_s",
            "runs_max_s");
    Map<String, List<SvgChart.Point>> series = new LinkedHashMap<>();
    ANSWERS.forEach(a -> series.put(a, new ArrayList<>()));
    List<SvgChart.Point> predicted = new ArrayList<>();
    for (var e : times.entrySet()) {
      Planned p = plan.get(e.getKey());
      if (p == null) {
        continue;
      }
      double total = 0;
      int runs = 0;
      for (var q : e.getValue().entrySet()) {
        double median = median(q.getValue());
        total += median;
        runs = q.getValue().size();
        csv.row(
            "query",
            p.budget(),
            p.answer(),
            "q" + q.getKey(),
            p.costCents(),
            median,
            "",
            runs,
            rows.get(e.getKey()).get(q.getKey()),
            "",
            "",
            "",
            min(q.getValue()),
            max(q.getValue()));
      }
      double load = median(loads.get(e.getKey()));
      List<Double> totals = new ArrayList<>(runTotals.get(e.getKey()).values());
      csv.row(
          "total",
          p.budget(),
          p.answer(),
          "all " + e.getValue().size(),
          p.costCents(),
          total,
          Double.isNaN(p.predictedSeconds()) ? "" : p.predictedSeconds(),
          runs,
          "",
          load,
          p.placement(),
          p.note(),
          min(totals),
          max(totals));
      if (series.containsKey(p.answer())) {
        // The sum of the queries' medians, with the spread of the runs' totals around it.
        series
            .get(p.answer())
            .add(
                totals.size() > 1
                    ? new SvgChart.Point(p.costCents(), total, min(totals), max(totals))
                    : new SvgChart.Point(p.costCents(), total));
      }
      if (!Double.isNaN(p.predictedSeconds())) {
        predicted.add(new SvgChart.Point(p.costCents(), p.predictedSeconds()));
      }
    }
    csv.row("meta", "", "", "", "", "", "", "", "", "", "command: " + command, "", "", "");
    Path docs = Path.of("docs/experiments");
    csv.write(docs.resolve("headline-" + engine + ".csv"));
    SvgChart chart =
        new SvgChart(
            "TPC-H, 22 queries in "
                + (engine.equals("trino") ? "Trino" : "Spark")
                + " (cold cache)",
            "storage cost (ct)",
            "total time (s)");
    String[] colors = {"#1f77b4", "#d62728", "#2ca02c"};
    String[] names = {"Mosaic (LOPT)", "Parquet alone", "Parquet by table (HOT table)"};
    for (int i = 0; i < ANSWERS.size(); i++) {
      List<SvgChart.Point> points = new ArrayList<>(series.get(ANSWERS.get(i)));
      points.sort((a, b) -> Double.compare(a.x(), b.x()));
      chart.add(
          new SvgChart.Series(
              names[i], colors[i], i == 0 ? SvgChart.Style.LINE : SvgChart.Style.MARKERS, points));
    }
    predicted.sort((a, b) -> Double.compare(a.x(), b.x()));
    chart.add(
        new SvgChart.Series(
            "Mosaic, predicted scans", "#9467bd", SvgChart.Style.DASHED_STEP, predicted));
    Files.writeString(docs.resolve("headline-" + engine + ".svg"), chart.xy());
    System.out.printf(
        Locale.ROOT, "wrote %s and .svg%n", docs.resolve("headline-" + engine + ".csv"));
  }

  static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
