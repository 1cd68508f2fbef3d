package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.plainDevice;
import static io.mosaic.placement.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exported model is the one LOPT solves. */
class LoptFormulationTest {
  static final CostModel MODEL =
      CostModel.of(
          List.of(plainDevice("ssd", 0.4, 6 * GB, 60), plainDevice("hdd-1", 0.2, 100 * GB, 30)),
          List.of(
              ColumnSize.uncompressed(col("t.a"), 2 * GB),
              ColumnSize.uncompressed(col("t.b col"), 1 * GB),
              ColumnSize.uncompressed(col("t.never_read"), 4 * GB)));

  static final Workload TRACE =
      Workload.merging(List.of(scan(2, "t.a", "t.b col"), scan(1, "t.a")));

  static final PlacementProblem PROBLEM =
      PlacementProblem.capacity(MODEL, TRACE)
          .withOptions(
              PlacementOptions.defaults().withMaxDevices(2).withMaxBytes(Map.of("hdd-1", 50 * GB)));

  @Test
  void mpsAndLpExportsContainEveryVariable() {
    LoptFormulation formulation = LoptFormulation.of(PROBLEM);
    String mps = formulation.exportMps();
    String lp = formulation.exportLp();

    // I for 2 devices x 3 columns (the unread column too: Eq. 6a), z for 2 scans; no y, since
    // max devices 2 does not constrain a 2-device pool.
    assertThat(formulation.variableNames())
        .hasSize(8)
        .contains("I_ssd_t.a", "I_hdd_1_t.b_col", "I_ssd_t.never_read", "z_0", "z_1");
    for (String name : formulation.variableNames()) {
      assertThat(mps).as("MPS").contains(name);
      assertThat(lp).as("LP").contains(name);
    }
    assertThat(formulation.model().numVariables()).isEqualTo(8);
  }

  @Test
  void aDeviceLimitAddsUseVariables() {
    PlacementProblem oneDevice = PROBLEM.withOptions(PlacementOptions.defaults().withMaxDevices(1));

    LoptFormulation formulation = LoptFormulation.of(oneDevice);

    assertThat(formulation.variableNames()).contains("y_ssd", "y_hdd_1").hasSize(10);
    assertThat(formulation.exportMps()).contains("y_ssd", "y_hdd_1");
  }

  @Test
  void theRelaxationBoundsTheIntegerOptimumFromBelow() {
    PlacementResult result = new LoptStrategy().place(PROBLEM);

    assertThat(result.lpBound()).isLessThanOrEqualTo(result.objective() + 1e-9);
    assertThat(result.lpBound()).isGreaterThan(0);
    assertThat(result.lpGap())
        .isCloseTo((result.objective() - result.lpBound()) / result.objective(), offset(1e-9));
  }
}
