package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.CatalogDevice;
import io.mosaic.config.Codec;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * LOPT in budget mode with money per month (docs/cost-model.md, "Money per month"): the budget
 * constraint (Eq. 8) counts an object store's requests and retrieval for each column's monthly
 * reads, so a column read often stays off Glacier Instant Retrieval although its storage is cheaper
 * there.
 *
 * <pre>
 * t.hot  1 GB stored, read by a scan of weight 100; t.cold 10 GB stored, never read
 * the trace runs 730 times a month: t.hot is read 73,000 times
 * t.hot  on S3 Standard: 2.3 + 73,000 x 0.00004          =      5.22 ct a month
 *        on Glacier IR:  0.4 + 73,000 x 0.001 + 73,000 x 3 = 219,073.4 ct a month
 * t.cold on S3 Standard: 23 ct; on Glacier IR: 4 ct
 * </pre>
 */
class MonthlyBudgetTest {
  private static final ColumnRef HOT = new ColumnRef("t", "hot");
  private static final ColumnRef COLD = new ColumnRef("t", "cold");
  private static final Workload TRACE = new Workload(List.of(DistinctScan.of(100, HOT)));

  private static DeviceProfile aws(String id) {
    CatalogDevice d =
        DeviceCatalog.load("aws").stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    return DeviceProfile.catalog(d);
  }

  private static CostModel storageOnly() {
    return CostModel.of(
        List.of(aws("s3-standard"), aws("s3-glacier-ir")),
        List.of(
            new ColumnSize(HOT, 4_500_000_000L, Map.of(Codec.ZSTD, 1_000_000_000L)),
            new ColumnSize(COLD, 45_000_000_000L, Map.of(Codec.ZSTD, 10_000_000_000L))),
        Optional.empty());
  }

  private static Placement cheapest(CostModel model) {
    double minimum = BudgetSweep.minimumBudgetCents(model);
    PlacementResult r =
        new LoptStrategy()
            .place(
                new PlacementProblem(
                    model, TRACE, PlacementMode.budget(minimum), PlacementOptions.defaults()));
    assertThat(model.cost(r.placement())).isLessThanOrEqualTo(minimum * (1 + 1e-9));
    return r.placement();
  }

  @Test
  void aColumnReadOftenStaysOffGlacierWhenItsReadsCostMoreThanTheStorageSaves() {
    CostModel monthly = storageOnly().withMonthlyReads(TRACE, 730);
    assertThat(BudgetSweep.minimumBudgetCents(monthly)).isCloseTo(2.3 + 2.92 + 4, within(1e-9));
    Placement p = cheapest(monthly);
    assertThat(p.deviceOf()).containsEntry(HOT, "s3-standard").containsEntry(COLD, "s3-glacier-ir");
    assertThat(monthly.cost(p)).isCloseTo(9.22, within(1e-9));

    // Storage alone (the paper's Eq. 5) would put the hot column on Glacier IR too: the reads
    // are what keeps it off.
    Placement paper = cheapest(storageOnly());
    assertThat(paper.deviceOf()).containsEntry(HOT, "s3-glacier-ir");
    assertThat(monthly.cost(paper)).isGreaterThan(219_000);
  }

  @Test
  void everyBudgetOfTheSweepHoldsWithRequestsAndRetrievalCounted() {
    CostModel monthly =
        CostModel.of(
                List.of(aws("s3-standard"), aws("s3-glacier-ir"), aws("s3-express")),
                storageOnly().sizes().values(),
                Optional.empty())
            .withMonthlyReads(TRACE, 730);
    BudgetSweep.Result curve =
        new BudgetSweep(new LoptStrategy(), 4).sweep(monthly, TRACE, PlacementOptions.defaults());
    assertThat(curve.points()).isNotEmpty();
    for (BudgetSweep.Point point : curve.points()) {
      assertThat(monthly.cost(point.placement()))
          .isLessThanOrEqualTo(point.budgetCents() * (1 + 1e-9) + 1e-9)
          .isCloseTo(point.costCents(), within(1e-9));
      // Never worth it: 73,000 retrievals of 1 GB.
      assertThat(point.placement().deviceOf().get(HOT)).isNotEqualTo("s3-glacier-ir");
    }
    // The fastest point reads the hot column from Express One Zone (5 ms to the first byte).
    BudgetSweep.Point last = curve.points().get(curve.points().size() - 1);
    assertThat(last.placement().deviceOf()).containsEntry(HOT, "s3-express");
  }
}
