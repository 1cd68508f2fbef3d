package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.plainDevice;
import static io.mosaic.placement.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Impossible problems fail with the reason, before the solver runs. */
class InfeasibleProblemTest {
  static final List<ColumnSize> TEN_GB =
      List.of(
          ColumnSize.uncompressed(col("t.a"), 4 * GB),
          ColumnSize.uncompressed(col("t.b"), 3 * GB),
          ColumnSize.uncompressed(col("t.c"), 3 * GB));

  static final Workload TRACE = Workload.merging(List.of(scan(1, "t.a", "t.b"), scan(1, "t.c")));

  @Test
  void dataLargerThanThePool() {
    CostModel model =
        CostModel.of(
            List.of(plainDevice("ssd", 0.4, 4 * GB, 60), plainDevice("hdd", 0.2, 4 * GB, 30)),
            TEN_GB);

    assertThatThrownBy(() -> new LoptStrategy().place(PlacementProblem.capacity(model, TRACE)))
        .isInstanceOf(InfeasiblePlacementException.class)
        .hasMessage("data needs 10 GB after compression, the pool holds 8 GB: short by 2 GB");
    assertThatThrownBy(() -> new HotColumnStrategy().place(PlacementProblem.capacity(model, TRACE)))
        .hasMessage("data needs 10 GB after compression, the pool holds 8 GB: short by 2 GB");
  }

  @Test
  void budgetBelowTheCheapestPlacement() {
    CostModel model =
        CostModel.of(
            List.of(
                plainDevice("ssd", 0.4, Long.MAX_VALUE, 60),
                plainDevice("hdd", 0.2, Long.MAX_VALUE, 30)),
            TEN_GB);

    // Everything on the HDD: 10 GB * 30 ct.
    assertThatThrownBy(() -> new LoptStrategy().place(PlacementProblem.budget(model, TRACE, 250)))
        .isInstanceOf(InfeasiblePlacementException.class)
        .hasMessage("the cheapest placement costs 300 ct; budget 250 ct is below it");
  }

  @Test
  void pinsThatOverfillADevice() {
    CostModel model =
        CostModel.of(
            List.of(plainDevice("ssd", 0.4, 5 * GB, 60), plainDevice("hdd", 0.2, 50 * GB, 30)),
            TEN_GB);
    PlacementProblem problem =
        PlacementProblem.capacity(model, TRACE)
            .withOptions(
                PlacementOptions.defaults()
                    .withPinned(Map.of(col("t.a"), "ssd", col("t.b"), "ssd")));

    assertThatThrownBy(() -> new LoptStrategy().place(problem))
        .isInstanceOf(InfeasiblePlacementException.class)
        .hasMessage(
            "columns pinned to 'ssd' need 7 GB after compression, 'ssd' holds 5 GB:"
                + " short by 2 GB");
  }

  @Test
  void constraintsThatOnlyTheSolverFindsContradictory() {
    // Each device holds 6 GB: the data fits in two devices, not in one, but only one may be used.
    CostModel model =
        CostModel.of(
            List.of(plainDevice("ssd", 0.4, 6 * GB, 60), plainDevice("hdd", 0.2, 6 * GB, 30)),
            TEN_GB);
    PlacementProblem problem =
        PlacementProblem.capacity(model, TRACE)
            .withOptions(PlacementOptions.defaults().withMaxDevices(1));

    assertThatThrownBy(() -> new LoptStrategy().place(problem))
        .isInstanceOf(InfeasiblePlacementException.class)
        .hasMessage(
            "no placement satisfies all constraints together (device capacities, at most 1"
                + " devices; relax one of them)");
  }
}
