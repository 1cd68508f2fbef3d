package io.mosaic.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every legend entry and the title lie inside the chart, however long they are. */
class SvgChartTest {
  private static final Pattern WIDTH = Pattern.compile("<svg [^>]*width=\"(\\d+)\"");
  private static final Pattern TEXT =
      Pattern.compile("<text x=\"([\\d.]+)\" y=\"[\\d.]+\" text-anchor=\"start\"[^>]*>([^<]*)<");

  @Test
  void theLongestLegendEntryAndTheTitleFitInTheWidth() {
    String longName = "Parquet by table (HOT table), three runs, median and spread";
    String svg =
        new SvgChart(
                "TPC-H, 22 queries in Trino (cold cache), Mosaic against Parquet at every budget",
                "budget (ct/h)",
                "time (s)")
            .add(
                new SvgChart.Series(
                    "Mosaic (LOPT)",
                    "#1f77b4",
                    SvgChart.Style.LINE,
                    List.of(new SvgChart.Point(1, 50), new SvgChart.Point(2, 30))))
            .add(
                new SvgChart.Series(
                    longName,
                    "#ff7f0e",
                    SvgChart.Style.MARKERS,
                    List.of(new SvgChart.Point(1, 60), new SvgChart.Point(2, 55))))
            .xy();
    Matcher w = WIDTH.matcher(svg);
    assertThat(w.find()).isTrue();
    int width = Integer.parseInt(w.group(1));
    Matcher t = TEXT.matcher(svg);
    int texts = 0;
    while (t.find()) {
      double x = Double.parseDouble(t.group(1));
      String content = t.group(2);
      // The title is 14 px, the rest 11 px.
      double charW = content.startsWith("TPC-H") ? SvgChart.CHAR_W * 14 / 11 : SvgChart.CHAR_W;
      assertThat(x + charW * content.length()).as(content).isLessThanOrEqualTo(width);
      texts++;
    }
    assertThat(texts).as("title and two legend entries").isEqualTo(3);
    assertThat(svg).contains(longName);
  }

  private static final Pattern BAR =
      Pattern.compile(
          "<line x1=\"([\\d.]+)\" y1=\"([\\d.]+)\" x2=\"\\1\" y2=\"([\\d.]+)\""
              + " stroke=\"#d62728\"/>");

  /**
   * A point's spread is drawn as a vertical bar from its lowest to its highest run, on the point's
   * x, and the y axis reaches the highest run even above every median.
   */
  @Test
  void theSpreadOfAPointsRunsIsAVerticalBarInsideThePlot() {
    String svg =
        new SvgChart("spread", "cost (ct)", "time (s)")
            .add(
                new SvgChart.Series(
                    "median of 3 runs",
                    "#d62728",
                    SvgChart.Style.LINE,
                    List.of(new SvgChart.Point(1, 40, 35, 48), new SvgChart.Point(2, 20, 19, 90))))
            .xy();
    Matcher bar = BAR.matcher(svg);
    List<double[]> bars = new java.util.ArrayList<>();
    while (bar.find()) {
      bars.add(
          new double[] {
            Double.parseDouble(bar.group(1)),
            Double.parseDouble(bar.group(2)),
            Double.parseDouble(bar.group(3))
          });
    }
    assertThat(bars).as("one bar per point").hasSize(2);
    // y grows downwards: the low end is below the high end, and both lie in the plot (top 40).
    for (double[] b : bars) {
      assertThat(b[1]).isGreaterThan(b[2]);
      assertThat(b[2]).isGreaterThanOrEqualTo(40);
    }
    // The second point's bar (19 to 90 s) is longer than the first's (35 to 48 s).
    assertThat(bars.get(1)[1] - bars.get(1)[2])
        .isGreaterThan(5 * (bars.get(0)[1] - bars.get(0)[2]));
  }
}
