package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.placement;
import static io.mosaic.placement.Fixtures.plainDevice;
import static io.mosaic.placement.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HOT baselines of Sections 4.3 and 4.4. */
class HotStrategiesTest {
  // Listed slowest first: "fastest" must come from the numbers, not the order.
  static final CostModel MODEL =
      CostModel.of(
          List.of(
              plainDevice("hdd", 0.2, 100 * GB, 30),
              plainDevice("nvme", 2.0, 3 * GB, 125),
              plainDevice("ssd", 0.4, 4 * GB, 60)),
          List.of(
              ColumnSize.uncompressed(col("orders.key"), 1 * GB),
              ColumnSize.uncompressed(col("orders.comment"), 3 * GB),
              ColumnSize.uncompressed(col("lineitem.qty"), 2 * GB),
              ColumnSize.uncompressed(col("lineitem.price"), 2 * GB)));

  // orders is touched by 5 scans, lineitem by 3; orders.key is the hottest column (5).
  static final Workload TRACE =
      Workload.merging(
          List.of(
              scan(3, "orders.key"),
              scan(2, "orders.key", "lineitem.qty"),
              scan(1, "lineitem.price", "lineitem.qty")));

  @Test
  void hotTableMovesWholeTablesHottestFirstToTheFastestDeviceWithRoom() {
    PlacementResult result = new HotTableStrategy().place(PlacementProblem.capacity(MODEL, TRACE));

    // orders (4 GB) misses nvme (3 GB) and fits ssd; lineitem (4 GB) fits no fast device any more.
    assertThat(result.placement())
        .isEqualTo(
            placement(
                "orders.key", "ssd",
                "orders.comment", "ssd",
                "lineitem.qty", "hdd",
                "lineitem.price", "hdd"));
    assertThat(result.strategy()).isEqualTo("HOT table");
    assertThat(result.lowerBound()).isNaN();
  }

  @Test
  void hotColumnMovesHottestColumnsFirst() {
    PlacementResult result = new HotColumnStrategy().place(PlacementProblem.capacity(MODEL, TRACE));

    // key (5 scans) and qty (3) to nvme (3 GB), price (1) to ssd, never-read comment to what's
    // left.
    assertThat(result.placement())
        .isEqualTo(
            placement(
                "orders.key", "nvme",
                "lineitem.qty", "nvme",
                "lineitem.price", "ssd",
                "orders.comment", "hdd"));
    assertThat(result.objective())
        .isEqualTo(MODEL.totalTime(TRACE, result.placement()))
        .isEqualTo(result.prediction().totalSeconds());
  }

  @Test
  void pinsAreHonoured() {
    PlacementProblem problem =
        PlacementProblem.capacity(MODEL, TRACE)
            .withOptions(PlacementOptions.defaults().withPinned(Map.of(col("orders.key"), "hdd")));

    assertThat(new HotColumnStrategy().place(problem).placement().device(col("orders.key")))
        .isEqualTo("hdd");
    assertThat(new HotTableStrategy().place(problem).placement().device(col("orders.key")))
        .isEqualTo("hdd");
  }

  @Test
  void budgetModeIsForLoptOnly() {
    PlacementProblem problem = PlacementProblem.budget(MODEL, TRACE, 500);

    assertThatThrownBy(() -> new HotColumnStrategy().place(problem))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.UNSUPPORTED)
        .hasMessage(
            "HOT column needs installed devices with known capacities (capacity mode); in budget"
                + " mode use LOPT, which chooses device sizes (paper Section 4.4)");
    assertThatThrownBy(() -> new HotTableStrategy().place(problem))
        .isInstanceOf(MosaicException.class)
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.UNSUPPORTED)
        .hasMessageStartingWith("HOT table needs installed devices");
  }
}
