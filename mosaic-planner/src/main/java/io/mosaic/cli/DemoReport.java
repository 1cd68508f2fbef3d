package io.mosaic.cli;

import io.mosaic.placement.BudgetSweep;
import io.mosaic.table.MosaicTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The demo's report.html: the Pareto curve, the strategies' times, and LOPT's placement as the
 * tables' manifests store it.
 */
final class DemoReport {
  private static final List<String> DEVICES = List.of("nvme", "ssd", "raid5", "hdd");
  private static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#7f7f7f"};

  private DemoReport() {}

  static String html(
      double sf,
      double allOnHdd,
      BudgetSweep.Result sweep,
      List<String[]> strategies,
      List<MosaicTable> tables) {
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
    h.append("</table>\n<h2>LOPT's placement as stored: column &rarr; device</h2>\n")
        .append("<p>A column split across devices shows each device's row groups")
        .append(" (<code>0:6</code>: row groups 0 to 5).</p>\n")
        .append("<table><tr><th>table</th><th>columns</th></tr>\n");
    for (MosaicTable t : byName(tables)) {
      StringBuilder cols = new StringBuilder();
      new TreeMap<>(ColumnPart.of(t.latest()))
          .forEach(
              (column, parts) -> {
                if (parts.size() == 1) {
                  ColumnPart whole = parts.get(0);
                  cols.append(colored(whole.device(), column + " (" + whole + ")")).append(' ');
                } else {
                  cols.append(column).append(" (");
                  for (int i = 0; i < parts.size(); i++) {
                    ColumnPart p = parts.get(i);
                    cols.append(i == 0 ? "" : ", ").append(colored(p.device(), p.toString()));
                  }
                  cols.append(") ");
                }
              });
      h.append("<tr><td>").append(t.name()).append("</td><td>").append(cols).append("</td></tr>\n");
    }
    return h.append("</table>\n</body></html>\n").toString();
  }

  /**
   * The console's part of the placement: each column split across devices, with its devices' row
   * groups ({@code orders.o_orderdate: hdd 0:6, nvme 6:8}).
   */
  static List<String> splitColumns(List<MosaicTable> tables) {
    List<String> lines = new ArrayList<>();
    for (MosaicTable t : byName(tables)) {
      new TreeMap<>(ColumnPart.of(t.latest()))
          .forEach(
              (column, parts) -> {
                if (parts.size() > 1) {
                  lines.add(t.name() + "." + column + ": " + ColumnPart.describe(parts));
                }
              });
    }
    return lines;
  }

  private static List<MosaicTable> byName(List<MosaicTable> tables) {
    return tables.stream().sorted(Comparator.comparing(MosaicTable::name)).toList();
  }

  private static String colored(String device, String text) {
    return "<span style=\"color:"
        + COLORS[Math.max(0, DEVICES.indexOf(device))]
        + "\">"
        + text
        + "</span>";
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
