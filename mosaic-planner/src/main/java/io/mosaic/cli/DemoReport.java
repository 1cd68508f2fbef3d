package io.mosaic.cli;

import io.mosaic.model.ColumnRef;
import io.mosaic.placement.BudgetSweep;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The demo's report.html: the Pareto curve, the strategies' times, and LOPT's column map. */
final class DemoReport {
  private static final List<String> DEVICES = List.of("nvme", "ssd", "raid5", "hdd");
  private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#7f7f7f"};

  private DemoReport() {}

  static String html(
      double sf,
      double allOnHdd,
      BudgetSweep.Result sweep,
      List<String[]> strategies,
      Map<ColumnRef, String> lopt) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Mosaic demo</title>\n")
        .append("<style>body{font-family:sans-serif;margin:2em;max-width:60em}")
        .append(
            "table{border-collapse:collapse}td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:left}")
        .append("</style></head><body>\n<h1>Mosaic demo: TPC-H SF ")
        .append(sf)
        .append(" on four emulated devices</h1>\n")
        .append(
            "<p>Devices: the paper's Table 1 (NVMe, SATA SSD, RAID 5, HDD), throughputs divided by 10.")
        .append(" Workload: the table scans of TPC-H's 22 queries (87 scans).</p>\n");
    h.append("<h2>What to buy: predicted scan time by budget (LOPT, budget mode)</h2>\n")
        .append(ParetoChart.svg(sweep.points(), DEVICES, sweep.saturationCents()))
        .append(
            "\n<h2>Placement on the installed pool: predicted and measured workload time</h2>\n")
        .append(bars(allOnHdd, strategies))
        .append("\n<table><tr><th>strategy</th><th>predicted (s)</th><th>measured (s)</th></tr>\n")
        .append("<tr><td>everything on the HDD</td><td>-</td><td>")
        .append(String.format(Locale.ROOT, "%.3f", allOnHdd))
        .append("</td></tr>\n");
    for (String[] r : strategies) {
      h.append("<tr><td>")
          .append(r[0])
          .append("</td><td>")
          .append(r[1])
          .append("</td><td>")
          .append(r[2])
          .append("</td></tr>\n");
    }
    h.append(
        "</table>\n<h2>LOPT's placement: column &rarr; device</h2>\n<table><tr><th>table</th><th>columns</th></tr>\n");
    Map<String, StringBuilder> byTable = new TreeMap<>();
    new TreeMap<>(
            Map.copyOf(
                lopt.entrySet().stream()
                    .collect(
                        java.util.stream.Collectors.toMap(
                            e -> e.getKey().toString(), Map.Entry::getValue))))
        .forEach(
            (column, device) -> {
              String table = column.substring(0, column.indexOf('.'));
              byTable
                  .computeIfAbsent(table, t -> new StringBuilder())
                  .append("<span style=\"color:")
                  .append(COLORS[Math.max(0, DEVICES.indexOf(device))])
                  .append("\">")
                  .append(column.substring(column.indexOf('.') + 1))
                  .append(" (")
                  .append(device)
                  .append(")</span> ");
            });
    byTable.forEach(
        (t, cols) ->
            h.append("<tr><td>").append(t).append("</td><td>").append(cols).append("</td></tr>\n"));
    return h.append("</table>\n</body></html>\n").toString();
  }

  /** Horizontal bars: measured (solid) and predicted (outline) per strategy. */
  private static String bars(double allOnHdd, List<String[]> strategies) {
    int rowH = 34;
    int left = 190;
    int width = 520;
    double max = allOnHdd;
    for (String[] r : strategies) {
      max = Math.max(max, Math.max(Double.parseDouble(r[1]), Double.parseDouble(r[2])));
    }
    StringBuilder s = new StringBuilder();
    int height = rowH * (strategies.size() + 1) + 30;
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"")
        .append(height)
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
    int y = 10;
    s.append(bar("everything on HDD", allOnHdd, -1, max, left, width, y));
    for (String[] r : strategies) {
      y += rowH;
      s.append(bar(r[0], Double.parseDouble(r[2]), Double.parseDouble(r[1]), max, left, width, y));
    }
    s.append("<text x=\"")
        .append(left)
        .append("\" y=\"")
        .append(height - 6)
        .append("\">solid: measured, outline: predicted (Eq. 4), seconds</text>\n</svg>\n");
    return s.toString();
  }

  private static String bar(
      String label, double measured, double predicted, double max, int left, int width, int y) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
            left - 8,
            y + 16,
            label));
    s.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"#1f77b4\"/>%n",
            left,
            y + 6,
            width * measured / max));
    s.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\">%.2f s</text>%n",
            left + width * measured / max + 4,
            y + 16,
            measured));
    if (predicted >= 0) {
      s.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"8\" fill=\"none\" stroke=\"#d62728\"/>%n",
              left,
              y + 20,
              width * predicted / max));
    }
    return s.toString();
  }
}
