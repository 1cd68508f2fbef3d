package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.placement;
import static io.mosaic.placement.Fixtures.plainDevice;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.Placement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementRepairTest {
  private static final CostModel INSTALLED =
      CostModel.of(
          List.of(
              plainDevice("nvme", 2.0, 6 * GB, 125),
              plainDevice("ssd", 0.4, 6 * GB, 60),
              plainDevice("hdd", 0.2, 100 * GB, 30)),
          BudgetSweepTest.MODEL.sizes().values());

  @Test
  void anOverfullDeviceGivesUpTheColumnWhoseMoveCostsLeast() {
    PlacementProblem problem = PlacementProblem.capacity(INSTALLED, BudgetSweepTest.TRACE);
    // 4 + 3 GB on a 6 GB NVMe. u.cold (5 GB) is on the HDD, so the cheapest fix moves a hot
    // column: u.x (one scan of weight 2) costs less time on the SSD than t.a does.
    Placement over =
        placement("t.a", "nvme", "u.x", "nvme", "t.b", "ssd", "t.c", "ssd", "u.cold", "hdd");
    Placement repaired = PlacementRepair.repair(problem, over);

    assertThat(repaired).isNotNull();
    assertThat(Fixtures.feasible(problem, repaired)).isTrue();
    assertThat(repaired.device(col("t.a"))).isEqualTo("nvme");
    assertThat(repaired.device(col("u.x"))).isNotEqualTo("nvme");
    assertThat(
            repaired.deviceOf().entrySet().stream()
                .filter(e -> !e.getValue().equals(over.device(e.getKey())))
                .count())
        .isEqualTo(1);
  }

  @Test
  void aPlacementOverTheBudgetIsMovedWithinIt() {
    PlacementProblem problem =
        PlacementProblem.budget(BudgetSweepTest.MODEL, BudgetSweepTest.TRACE, 900);
    Placement over =
        placement("t.a", "nvme", "u.x", "nvme", "t.b", "nvme", "t.c", "nvme", "u.cold", "nvme");
    assertThat(problem.model().cost(over)).isGreaterThan(900);

    Placement repaired = PlacementRepair.repair(problem, over);
    assertThat(repaired).isNotNull();
    assertThat(problem.model().cost(repaired)).isLessThanOrEqualTo(900);
    // The cold column is the first to go: moving it costs no scan any time.
    assertThat(repaired.device(col("u.cold"))).isNotEqualTo("nvme");
  }

  @Test
  void pinsStayAndNoRoomAnywhereMeansNoRepair() {
    CostModel tight =
        CostModel.of(
            List.of(plainDevice("ssd", 0.4, 2 * GB, 60), plainDevice("hdd", 0.2, 3 * GB / 2, 30)),
            List.of(
                ColumnSize.uncompressed(col("t.a"), 2 * GB),
                ColumnSize.uncompressed(col("t.b"), GB)));
    PlacementProblem problem =
        PlacementProblem.capacity(tight, BudgetSweepTest.TRACE_OF_A)
            .withOptions(PlacementOptions.defaults().withPinned(Map.of(col("t.b"), "ssd")));
    // t.b is pinned to the full SSD and t.a fills the HDD: nothing can move.
    assertThat(PlacementRepair.repair(problem, placement("t.a", "ssd", "t.b", "ssd"))).isNull();
  }
}
