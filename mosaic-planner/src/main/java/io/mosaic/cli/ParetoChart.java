package io.mosaic.cli;

import io.mosaic.placement.BudgetSweep;
import java.util.List;
import java.util.Locale;

/**
 * The budget curve of paper Figure 5 as a self-contained HTML page: an SVG of predicted scan time
 * over cost, one point per Pareto-optimal purchase, a dashed line where more money stops helping,
 * and under each point a stacked bar of the GB to buy per device (the device mix).
 */
public final class ParetoChart {
  private static final String[] COLORS = {
    "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"
  };
  private static final int W = 760;
  private static final int PLOT_H = 300;
  private static final int MIX_H = 140;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 20;

  private ParetoChart() {}

  public static String html(
      String title, List<BudgetSweep.Point> points, List<String> devices, Double saturation) {
    return html(title, points, devices, saturation, Money.ONCE);
  }

  /** The page with costs written as {@code money} says (per month for a monthly catalogue). */
  static String html(
      String title,
      List<BudgetSweep.Point> points,
      List<String> devices,
      Double saturation,
      Money money) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
        .append(escape(title))
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em}")
        .append("table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}")
        .append("</style></head><body>\n<h1>")
        .append(escape(title))
        .append("</h1>\n")
        .append(svg(points, devices, saturation, money))
        .append("\n<table><tr><th>")
        .append(money == Money.MONTHLY ? "cost per month" : "cost")
        .append("</th><th>predicted time</th>");
    devices.forEach(d -> h.append("<th>").append(escape(d)).append(" GB</th>"));
    h.append("</tr>\n");
    for (BudgetSweep.Point p : points) {
      h.append("<tr><td>")
          .append(escape(money.format(p.costCents())))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%.3f s", p.predictedSeconds()))
          .append("</td>");
      devices.forEach(
          d ->
              h.append("<td>")
                  .append(Commands.gb(p.bytesPerDevice().getOrDefault(d, 0L)))
                  .append("</td>"));
      h.append("</tr>\n");
    }
    return h.append("</table>\n</body></html>\n").toString();
  }

  /** The chart alone: time over cost above, device mix per point below. */
  public static String svg(
      List<BudgetSweep.Point> points, List<String> devices, Double saturation) {
    return svg(points, devices, saturation, Money.ONCE);
  }

  static String svg(
      List<BudgetSweep.Point> points, List<String> devices, Double saturation, Money money) {
    double minX = points.stream().mapToDouble(BudgetSweep.Point::costCents).min().orElse(0);
    double maxX = points.stream().mapToDouble(BudgetSweep.Point::costCents).max().orElse(1);
    if (saturation != null) {
      maxX = Math.max(maxX, saturation);
    }
    double span = Math.max(maxX - minX, 1e-9);
    minX -= span * 0.05;
    maxX += span * 0.05;
    if (money == Money.MONTHLY) {
      // No tick at a negative amount: money per month starts at $0.
      minX = Math.max(minX, 0);
    }
    double maxY =
        points.stream().mapToDouble(BudgetSweep.Point::predictedSeconds).max().orElse(1) * 1.1;
    double plotW = W - LEFT - RIGHT;
    int height = TOP + PLOT_H + 40 + MIX_H + 60;
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"11\">%n",
            W,
            height));
    // Axes and ticks.
    int baseY = TOP + PLOT_H;
    s.append(line(LEFT, TOP, LEFT, baseY, "#000"))
        .append(line(LEFT, baseY, W - RIGHT, baseY, "#000"));
    for (int i = 0; i <= 5; i++) {
      double y = maxY * i / 5;
      double py = baseY - PLOT_H * i / 5.0;
      s.append(line(LEFT - 4, py, LEFT, py, "#000"))
          .append(
              text(
                  LEFT - 6,
                  py + 4,
                  "end",
                  // %.3g turns 1160 into 1.16e+03; whole seconds read better from 100 s up.
                  String.format(Locale.ROOT, y >= 100 ? "%.0f s" : "%.3g s", y)));
      double x = minX + (maxX - minX) * i / 5;
      double px = LEFT + plotW * i / 5;
      s.append(line(px, baseY, px, baseY + 4, "#000"))
          .append(text(px, baseY + 16, "middle", money.tick(x, maxX - minX)));
    }
    s.append(text(LEFT + plotW / 2, baseY + 32, "middle", money.axisLabel()))
        .append(
            String.format(
                Locale.ROOT,
                "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">"
                    + "predicted scan time (Eq. 4)</text>%n",
                TOP + PLOT_H / 2,
                TOP + PLOT_H / 2));
    if (saturation != null) {
      double px = LEFT + plotW * (saturation - minX) / (maxX - minX);
      s.append(
              String.format(
                  Locale.ROOT,
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#c00\""
                      + " stroke-dasharray=\"5,4\"/>%n",
                  px,
                  TOP,
                  px,
                  baseY))
          // Labelled on the side with room: the line is often near the right edge.
          .append(
              px > LEFT + plotW / 2
                  ? text(px - 4, TOP + 12, "end", "more budget does not help")
                  : text(px + 4, TOP + 12, "start", "more budget does not help"));
    }
    // The Pareto curve: a step down at each point (time only changes where the purchase does).
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < points.size(); i++) {
      BudgetSweep.Point p = points.get(i);
      double px = LEFT + plotW * (p.costCents() - minX) / (maxX - minX);
      double py = baseY - PLOT_H * p.predictedSeconds() / maxY;
      if (i > 0) {
        double prevY = baseY - PLOT_H * points.get(i - 1).predictedSeconds() / maxY;
        path.append(String.format(Locale.ROOT, " L%.1f,%.1f", px, prevY));
      }
      path.append(String.format(Locale.ROOT, "%s%.1f,%.1f", i == 0 ? "M" : " L", px, py));
    }
    s.append("<path d=\"")
        .append(path)
        .append("\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\"/>\n");
    for (BudgetSweep.Point p : points) {
      double px = LEFT + plotW * (p.costCents() - minX) / (maxX - minX);
      double py = baseY - PLOT_H * p.predictedSeconds() / maxY;
      s.append(
          String.format(
              Locale.ROOT,
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#333\"><title>%s: %.3f s</title>"
                  + "</circle>%n",
              px,
              py,
              escape(money.format(p.costCents())),
              p.predictedSeconds()));
    }
    // Device mix: one stacked bar per point, the share of bytes bought per device.
    int mixTop = baseY + 50;
    s.append(text(LEFT, mixTop - 6, "start", "device mix (share of GB bought)"));
    double bar = Math.max(4, Math.min(24, plotW / Math.max(1, points.size()) * 0.6));
    for (BudgetSweep.Point p : points) {
      double px = LEFT + plotW * (p.costCents() - minX) / (maxX - minX);
      long total = p.bytesPerDevice().values().stream().mapToLong(Long::longValue).sum();
      double y = mixTop + MIX_H;
      for (int d = 0; d < devices.size(); d++) {
        long bytes = p.bytesPerDevice().getOrDefault(devices.get(d), 0L);
        double h = total == 0 ? 0 : MIX_H * (double) bytes / total;
        y -= h;
        if (h > 0) {
          s.append(
              String.format(
                  Locale.ROOT,
                  "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                      + "<title>%s: %s GB</title></rect>%n",
                  px - bar / 2,
                  y,
                  bar,
                  h,
                  COLORS[d % COLORS.length],
                  escape(devices.get(d)),
                  Commands.gb(bytes)));
        }
      }
    }
    // Legend.
    double lx = LEFT;
    int ly = mixTop + MIX_H + 24;
    for (int d = 0; d < devices.size(); d++) {
      s.append(
              String.format(
                  Locale.ROOT,
                  "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
                  lx,
                  ly - 9,
                  COLORS[d % COLORS.length]))
          .append(text(lx + 14, ly, "start", devices.get(d)));
      lx += 24 + 7 * devices.get(d).length();
    }
    return s.append("</svg>").toString();
  }

  /** A cost tick with as many decimals as the axis span needs to tell ticks apart. */
  static String tickCents(double cents, double span) {
    if (span >= 50) {
      return Commands.cents(Math.round(cents));
    }
    int decimals = span >= 5 ? 1 : span >= 0.5 ? 2 : 3;
    return String.format(Locale.ROOT, "%." + decimals + "f ct", cents);
  }

  private static String line(double x1, double y1, double x2, double y2, String color) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n",
        x1,
        y1,
        x2,
        y2,
        color);
  }

  private static String text(double x, double y, String anchor, String content) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n",
        x,
        y,
        anchor,
        escape(content));
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
