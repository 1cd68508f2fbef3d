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
}
