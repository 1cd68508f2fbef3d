package io.mosaic.bench.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The experiments' charts as standalone SVG: an x/y plot of several series (markers, lines or
 * dashed step lines, as the paper's Figures 6, 11 and 12 draw them) and a bar chart (Figure 7).
 * {@code io.mosaic.cli.ParetoChart} draws one budget curve with its device mix; these figures need
 * several series on shared axes, hence this small writer.
 */
public final class SvgChart {
  /** How a series is drawn. */
  public enum Style {
    MARKERS,
    LINE,
    DASHED_STEP
  }

  /**
   * A point, with the spread of the runs it is the median of ({@code low} to {@code high}, drawn as
   * a vertical bar) or NaN for none.
   */
  public record Point(double x, double y, double low, double high) {
    public Point(double x, double y) {
      this(x, y, Double.NaN, Double.NaN);
    }

    boolean hasSpread() {
      return !Double.isNaN(low) && !Double.isNaN(high);
    }
  }

  public record Series(String name, String color, Style style, List<Point> points) {
    public Series {
      points = List.copyOf(points);
    }
  }

  private static final int H = 420;
  private static final int LEFT = 70;
  private static final int PLOT_W = 520;

  /**
   * Upper bound of an 11 px sans-serif character's advance, so that the longest legend entry fits
   * in the chart's width whatever font a viewer has.
   */
  static final double CHAR_W = 7.0;

  private static final int TOP = 40;
  private static final int BOTTOM = 50;

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series = new ArrayList<>();

  public SvgChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  public SvgChart add(Series s) {
    series.add(s);
    return this;
  }

  /** The x/y plot; axes start at 0 so ratios between points read off the picture. */
  public String xy() {
    double maxX = 0;
    double maxY = 0;
    for (Series s : series) {
      for (Point p : s.points()) {
        maxX = Math.max(maxX, p.x());
        maxY = Math.max(maxY, p.hasSpread() ? Math.max(p.y(), p.high()) : p.y());
      }
    }
    maxX = nice(maxX * 1.05);
    maxY = nice(maxY * 1.05);
    double plotW = PLOT_W;
    double plotH = H - TOP - BOTTOM;
    int width = width();
    StringBuilder s = header(width);
    int baseY = H - BOTTOM;
    s.append(line(LEFT, TOP, LEFT, baseY, "#000", null))
        .append(line(LEFT, baseY, LEFT + plotW, baseY, "#000", null));
    for (int i = 0; i <= 5; i++) {
      double py = baseY - plotH * i / 5;
      double px = LEFT + plotW * i / 5;
      s.append(line(LEFT, py, LEFT + plotW, py, "#eee", null))
          .append(text(LEFT - 6, py + 4, "end", fmt(maxY * i / 5)))
          .append(line(px, baseY, px, baseY + 4, "#000", null))
          .append(text(px, baseY + 16, "middle", fmt(maxX * i / 5)));
    }
    axisLabels(s, plotW, plotH);
    int legendY = TOP + 10;
    for (Series ser : series) {
      List<String> coords = new ArrayList<>();
      Point prev = null;
      for (Point p : ser.points()) {
        double px = LEFT + plotW * p.x() / maxX;
        double py = baseY - plotH * p.y() / maxY;
        if (ser.style() == Style.DASHED_STEP && prev != null) {
          coords.add(f(px) + "," + f(baseY - plotH * prev.y() / maxY));
        }
        coords.add(f(px) + "," + f(py));
        prev = p;
      }
      if (ser.style() != Style.MARKERS && coords.size() > 1) {
        s.append("<polyline fill=\"none\" stroke=\"")
            .append(ser.color())
            .append("\" stroke-width=\"1.8\"")
            .append(ser.style() == Style.DASHED_STEP ? " stroke-dasharray=\"6,4\"" : "")
            .append(" points=\"")
            .append(String.join(" ", coords))
            .append("\"/>\n");
      }
      for (Point p : ser.points()) {
        if (p.hasSpread()) {
          // The runs' spread: a bar from the lowest to the highest, with short caps.
          double px = LEFT + plotW * p.x() / maxX;
          double lo = baseY - plotH * p.low() / maxY;
          double hi = baseY - plotH * p.high() / maxY;
          s.append(line(px, lo, px, hi, ser.color(), null))
              .append(line(px - 4, lo, px + 4, lo, ser.color(), null))
              .append(line(px - 4, hi, px + 4, hi, ser.color(), null));
        }
      }
      if (ser.style() != Style.DASHED_STEP) {
        for (Point p : ser.points()) {
          s.append(
              String.format(
                  Locale.ROOT,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"><title>%s: %s, %s</title>"
                      + "</circle>%n",
                  LEFT + plotW * p.x() / maxX,
                  baseY - plotH * p.y() / maxY,
                  ser.style() == Style.MARKERS ? "3.5" : "2.5",
                  ser.color(),
                  escape(ser.name()),
                  fmt(p.x()),
                  fmt(p.y())));
        }
      }
      double lx = LEFT + plotW + 14;
      s.append(
              ser.style() == Style.MARKERS
                  ? String.format(
                      Locale.ROOT,
                      "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"/>%n",
                      lx + 10,
                      legendY - 4,
                      ser.color())
                  : line(
                      lx,
                      legendY - 4,
                      lx + 20,
                      legendY - 4,
                      ser.color(),
                      ser.style() == Style.DASHED_STEP ? "6,4" : null))
          .append(text(lx + 26, legendY, "start", ser.name()));
      legendY += 18;
    }
    return s.append("</svg>\n").toString();
  }

  /** Horizontal bars, one per label, the value printed at the bar's end. */
  public static String bars(String title, String xLabel, List<String> labels, List<Double> values) {
    return bars(title, xLabel, labels, values, List.of("#7f7f7f", "#ff7f0e", "#1f77b4", "#2ca02c"));
  }

  /** {@link #bars} with the colours cycling through {@code colors}, from the first bar. */
  public static String bars(
      String title, String xLabel, List<String> labels, List<Double> values, List<String> colors) {
    int rowH = 36;
    int left = 170;
    int width = 480;
    double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(1) * 1.15;
    int height = 50 + rowH * labels.size() + 40;
    StringBuilder s = new StringBuilder();
    s.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " font-family=\"sans-serif\" font-size=\"12\">%n"
                    + "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>%n",
                left + width + 60,
                height))
        .append(text(10, 20, "start", title, 14));
    for (int i = 0; i < labels.size(); i++) {
      int y = 40 + i * rowH;
      double w = width * values.get(i) / max;
      s.append(text(left - 8, y + 19, "end", labels.get(i)))
          .append(
              String.format(
                  Locale.ROOT,
                  "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"22\" fill=\"%s\"/>%n",
                  left,
                  y + 4,
                  w,
                  colors.get(i % colors.size())))
          .append(text(left + w + 6, y + 19, "start", fmt(values.get(i))));
    }
    int baseY = 40 + rowH * labels.size() + 6;
    s.append(line(left, 40, left, baseY, "#000", null))
        .append(text(left + width / 2.0, baseY + 22, "middle", xLabel));
    return s.append("</svg>\n").toString();
  }

  /** Wide enough for the plot, the longest legend entry to its right, and the 14 px title. */
  int width() {
    int longest = series.stream().mapToInt(ser -> ser.name().length()).max().orElse(0);
    double legend = LEFT + PLOT_W + 14 + 26 + CHAR_W * longest + 10;
    double title = LEFT + CHAR_W * 14 / 11 * this.title.length() + 10;
    return (int) Math.ceil(Math.max(760, Math.max(legend, title)));
  }

  private StringBuilder header(int width) {
    StringBuilder s = new StringBuilder();
    s.append(
            String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " font-family=\"sans-serif\" font-size=\"11\">%n"
                    + "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>%n",
                width,
                H))
        .append(text(LEFT, 22, "start", title, 14));
    return s;
  }

  private void axisLabels(StringBuilder s, double plotW, double plotH) {
    s.append(text(LEFT + plotW / 2, H - 12, "middle", xLabel))
        .append(
            String.format(
                Locale.ROOT,
                "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\""
                    + " text-anchor=\"middle\">%s</text>%n",
                TOP + plotH / 2,
                TOP + plotH / 2,
                escape(yLabel)));
  }

  /** A round axis maximum: 1, 2, 2.5 or 5 times a power of ten. */
  static double nice(double max) {
    if (max <= 0) {
      return 1;
    }
    double p = Math.pow(10, Math.floor(Math.log10(max)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * p >= max) {
        return m * p;
      }
    }
    return 10 * p;
  }

  private static String fmt(double v) {
    if (v == 0) {
      return "0";
    }
    return Math.abs(v) >= 100
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.3g", v);
  }

  private static String f(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String line(
      double x1, double y1, double x2, double y2, String color, String dash) {
    return String.format(
        Locale.ROOT,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"%s/>%n",
        x1,
        y1,
        x2,
        y2,
        color,
        dash == null ? "" : " stroke-dasharray=\"" + dash + "\" stroke-width=\"1.8\"");
  }

  private static String text(double x, double y, String anchor, String content) {
    return text(x, y, anchor, content, 11);
  }

  private static String text(double x, double y, String anchor, String content, int size) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
        x,
        y,
        anchor,
        size,
        escape(content));
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
