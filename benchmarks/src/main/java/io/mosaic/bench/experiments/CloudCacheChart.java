package io.mosaic.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The chart of {@code benchmarks/cloud-cache} (docs/experiments/cloud-cache.md): total time of the
 * 22 TPC-H queries against money per month, one line per system, drawn by {@link SvgChart} from the
 * CSV that {@code io.mosaic.trino.bench.CloudCacheBenchmark} writes.
 *
 * <p>Arguments: {@code CSV SVG}. The money axis takes the unit its largest cost reads best in: USD,
 * US cents, or millionths of a USD, since at a smoke run's scale factor a month of a few MB costs a
 * fraction of a cent and {@link SvgChart}'s ticks would round such amounts to nothing.
 */
public final class CloudCacheChart {
  private static final Map<String, String> NAMES =
      Map.of(
          "mosaic", "Mosaic, S3 + NVMe",
          "hive+cache", "Hive + FS cache");
  private static final Map<String, String> COLORS =
      Map.of("mosaic", "#1f77b4", "hive+cache", "#d62728");

  private CloudCacheChart() {}

  /** A unit of money per month for the x axis: its name and how many of it make one USD. */
  record Unit(String name, double perUsd) {
    static Unit of(double maxUsd) {
      if (maxUsd >= 1) {
        return new Unit("USD", 1);
      }
      if (maxUsd >= 0.01) {
        return new Unit("US cents", 100);
      }
      return new Unit("millionths of a USD", 1e6);
    }
  }

  public static void main(String[] args) throws IOException {
    Path csv = Path.of(args[0]);
    Path svg = Path.of(args[1]);
    Files.writeString(svg, svg(Files.readAllLines(csv)));
    System.out.println("wrote " + svg);
  }

  /** The SVG for the CSV's lines (comment lines start with '#', then a header). */
  static String svg(List<String> lines) {
    Map<String, List<double[]>> bySystem = new LinkedHashMap<>();
    boolean header = true;
    double maxUsd = 0;
    for (String line : lines) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      if (header) {
        header = false;
        continue;
      }
      // system,budget_usd_month,cost_usd_month,seconds_22_queries,setup
      String[] f = line.split(",", 5);
      double cost = Double.parseDouble(f[2]);
      double seconds = Double.parseDouble(f[3]);
      bySystem.computeIfAbsent(f[0], k -> new ArrayList<>()).add(new double[] {cost, seconds});
      maxUsd = Math.max(maxUsd, cost);
    }
    Unit unit = Unit.of(maxUsd);
    SvgChart chart =
        new SvgChart(
            "TPC-H, 22 queries: time against money per month",
            "money per month (" + unit.name() + ")",
            "time of the 22 queries (s)");
    for (Map.Entry<String, List<double[]>> e : bySystem.entrySet()) {
      List<SvgChart.Point> points = new ArrayList<>();
      e.getValue().stream()
          .sorted(Comparator.comparingDouble(p -> p[0]))
          .forEach(p -> points.add(new SvgChart.Point(p[0] * unit.perUsd(), p[1])));
      chart.add(
          new SvgChart.Series(
              NAMES.getOrDefault(e.getKey(), e.getKey()),
              COLORS.getOrDefault(e.getKey(), "#333333"),
              SvgChart.Style.LINE,
              points));
    }
    return chart.xy();
  }
}
