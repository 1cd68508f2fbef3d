package io.mosaic.bench.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CloudCacheChartTest {
  private static final List<String> CSV =
      List.of(
          "# benchmarks/cloud-cache --sf 0.01",
          "system,budget_usd_month,cost_usd_month,seconds_22_queries,setup",
          "hive+cache,0.0001000000,0.0000990000,40.000,1 MB cache on NVMe",
          "hive+cache,0.0002000000,0.0001700000,30.000,2 MB cache on NVMe",
          "mosaic,0.0001000000,0.0000800000,20.000,s3-standard 1.000 MB; nvme-i4i 0 MB",
          "mosaic,0.0002000000,0.0001500000,10.000,s3-standard 0 MB; nvme-i4i 2.000 MB");

  @Test
  void fractionsOfACentAreDrawnInMillionthsOfAUsdWithBothSystemsInTheLegend() {
    String svg = CloudCacheChart.svg(CSV);
    assertThat(svg)
        .contains("money per month (millionths of a USD)")
        .contains("Mosaic, S3 + NVMe")
        .contains("Hive + FS cache")
        // The largest cost, 170 millionths, rounds the axis up to 200 and is a tick's label.
        .contains(">200<")
        .doesNotContain("e-0");
    // One line per system, two points each.
    assertThat(svg.split("<polyline", -1)).hasSize(3);
    assertThat(svg.split("<circle", -1)).hasSize(5);
  }

  @Test
  void aMonthOfDollarsStaysInUsd() {
    List<String> csv =
        List.of(
            "system,budget_usd_month,cost_usd_month,seconds_22_queries,setup",
            "mosaic,12,11.5,20,x");
    assertThat(CloudCacheChart.svg(csv)).contains("money per month (USD)");
  }
}
