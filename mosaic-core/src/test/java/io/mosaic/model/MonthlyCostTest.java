package io.mosaic.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.MosaicException;
import io.mosaic.config.AccessPrice;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.Codec;
import io.mosaic.config.DeviceCatalog;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Budget mode's cost per month (docs/cost-model.md, "Money per month"), hand-computed on the aws
 * catalogue's S3 Standard and Glacier Instant Retrieval:
 *
 * <pre>
 * t.hot  10 GB stored (zstd, real size), read by a scan of weight 3 and one of weight 2
 * t.cold 20 GB stored, read by the scan of weight 2 only
 * the trace runs 100 times a month: hot is read 500 times, cold 200 times
 *
 * all on Glacier IR ($0.004/GB-month, $0.01 per 1,000 GET, $0.03/GB retrieved), in cents:
 *   storage   (10 + 20) x 0.4              =    12
 *   requests  (500 + 200) x 1 / 1000       =     0.7
 *   retrieval (500 x 10 + 200 x 20) x 3    = 27000
 * all on S3 Standard ($0.023/GB-month, $0.0004 per 1,000 GET, no retrieval):
 *   storage   30 x 2.3 = 69, requests 700 x 0.04 / 1000 = 0.028, retrieval 0
 * </pre>
 */
class MonthlyCostTest {
  private static final Offset<Double> EPS = within(1e-9);
  private static final ColumnRef HOT = new ColumnRef("t", "hot");
  private static final ColumnRef COLD = new ColumnRef("t", "cold");

  private static DeviceProfile aws(String id) {
    CatalogDevice d =
        DeviceCatalog.load("aws").stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    return DeviceProfile.catalog(d);
  }

  private static final Workload TRACE =
      new Workload(List.of(DistinctScan.of(3, HOT), DistinctScan.of(2, HOT, COLD)));

  private static CostModel model() {
    DeviceProfile standard = aws("s3-standard");
    DeviceProfile glacier = aws("s3-glacier-ir");
    return CostModel.of(
        List.of(standard, glacier),
        List.of(
            new ColumnSize(HOT, 45_000_000_000L, Map.of(Codec.ZSTD, 10_000_000_000L)),
            new ColumnSize(COLD, 90_000_000_000L, Map.of(Codec.ZSTD, 20_000_000_000L))),
        Optional.empty());
  }

  @Test
  void storageRequestsAndRetrievalOfAPlacement() {
    CostModel model = model().withMonthlyReads(TRACE, 100);
    assertThat(model.monthlyReads(HOT)).isEqualTo(500);
    assertThat(model.monthlyReads(COLD)).isEqualTo(200);

    Placement glacier = new Placement(Map.of(HOT, "s3-glacier-ir", COLD, "s3-glacier-ir"));
    CostModel.Charges g = model.charges(glacier);
    assertThat(g.storageCents()).isCloseTo(12, EPS);
    assertThat(g.requestCents()).isCloseTo(0.7, EPS);
    assertThat(g.retrievalCents()).isCloseTo(27_000, EPS);
    assertThat(model.cost(glacier)).isCloseTo(27_012.7, EPS);

    Placement standard = new Placement(Map.of(HOT, "s3-standard", COLD, "s3-standard"));
    CostModel.Charges s = model.charges(standard);
    assertThat(s.storageCents()).isCloseTo(69, EPS);
    assertThat(s.requestCents()).isCloseTo(0.028, EPS);
    assertThat(s.retrievalCents()).isZero();
    assertThat(model.cost(standard)).isCloseTo(69.028, EPS);

    // Per column and device, the sum the MIP's budget constraint adds up (Eq. 8 stays linear).
    assertThat(model.cents(model.device("s3-glacier-ir"), HOT))
        .isCloseTo(10 * 0.4 + 500 * 0.001 + 500 * 10 * 3, EPS);
  }

  @Test
  void withoutMonthlyReadsTheCostIsEqFiveAlone() {
    CostModel model = model();
    Placement glacier = new Placement(Map.of(HOT, "s3-glacier-ir", COLD, "s3-glacier-ir"));
    assertThat(model.cost(glacier)).isCloseTo(12, EPS);
    // Reads cost nothing on a device without access prices, whatever the trace.
    DeviceProfile disk = DeviceProfile.catalog(DeviceCatalog.load("table1").get(0));
    assertThat(disk.access()).isEqualTo(AccessPrice.NONE);
    CostModel plain =
        CostModel.of(List.of(disk), List.of(ColumnSize.uncompressed(HOT, 1_000_000_000L)))
            .withMonthlyReads(TRACE, 1000);
    assertThat(plain.cost(new Placement(Map.of(HOT, "nvme"))))
        .isEqualTo(disk.costPerGb().cents() * plain.storedBytes(disk, HOT) / 1e9);
  }

  @Test
  void runsPerMonthMustBeANumberOfRuns() {
    assertThatThrownBy(() -> model().withMonthlyReads(TRACE, -1))
        .isInstanceOf(MosaicException.class)
        .hasMessage("the trace must run 0 or more times a month, not -1.0");
  }
}
