package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.placement;
import static io.mosaic.placement.Fixtures.plainDevice;
import static io.mosaic.placement.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The no-regression bound (Section 5.4) and scan sampling (Section 5.5). */
class LoptOptionsTest {
  /** An SSD with room for one of two equal columns; y is scanned three times as often as x. */
  static final CostModel ONE_SLOT =
      CostModel.of(
          List.of(plainDevice("ssd", 0.4, 2 * GB, 60), plainDevice("hdd", 0.2, 10 * GB, 30)),
          List.of(
              ColumnSize.uncompressed(col("t.x"), 2 * GB),
              ColumnSize.uncompressed(col("t.y"), 2 * GB)));

  static final Workload TRACE = Workload.merging(List.of(scan(1, "t.x"), scan(3, "t.y")));

  /** Today x is on the SSD: x's scan takes 5 s, y's 10 s. */
  static final Placement CURRENT = placement("t.x", "ssd", "t.y", "hdd");

  @Test
  void withoutTheBoundLoptSlowsDownTheRarerScan() {
    PlacementResult free = new LoptStrategy().place(PlacementProblem.capacity(ONE_SLOT, TRACE));

    assertThat(free.placement()).isEqualTo(placement("t.x", "hdd", "t.y", "ssd"));
    assertThat(free.prediction().perScanSeconds().get(0)).isGreaterThan(5.0 * 1.5);
  }

  @Test
  void noRegressionBoundsEveryScanByItsReferenceTime() {
    for (double slack : new double[] {0, 0.5, 1.0}) {
      PlacementProblem problem =
          PlacementProblem.capacity(ONE_SLOT, TRACE)
              .withOptions(
                  PlacementOptions.defaults().withNoRegression(new NoRegression(CURRENT, slack)));

      PlacementResult result = new LoptStrategy().place(problem);

      List<Double> now = result.prediction().perScanSeconds();
      List<Double> before = ONE_SLOT.predict(TRACE, CURRENT).perScanSeconds();
      for (int i = 0; i < now.size(); i++) {
        assertThat(now.get(i))
            .as("scan %d, slack %s", i, slack)
            .isLessThanOrEqualTo((1 + slack) * before.get(i) + 1e-9);
      }
      // Slack 1 allows x's scan to double (5 s -> 10 s), and LOPT takes the better placement.
      assertThat(result.placement())
          .isEqualTo(slack >= 1 ? placement("t.x", "hdd", "t.y", "ssd") : CURRENT);
    }
  }

  @Test
  void aGapLimitStopsWithinItAndIsNotReportedAsOptimal() {
    PlacementProblem problem = PlacementProblem.capacity(manyColumns(), tenScans());
    PlacementResult exact = new LoptStrategy(Duration.ofSeconds(60), 0).place(problem);
    PlacementResult standard = new LoptStrategy().place(problem);
    PlacementResult loose = new LoptStrategy(Duration.ofSeconds(60), 0.2).place(problem);
    assertThat(exact.optimal()).isTrue();
    assertThat(exact.gap()).isBetween(0.0, 1e-9);
    // The default stops at Gurobi's optimality tolerance and says so.
    assertThat(standard.optimal()).isTrue();
    assertThat(standard.gap()).isBetween(0.0, LoptStrategy.OPTIMALITY_GAP);
    assertThat(standard.objective())
        .isBetween(exact.objective() - 1e-9, exact.objective() / (1 - LoptStrategy.OPTIMALITY_GAP));
    assertThat(loose.gap()).isBetween(0.0, 0.2);
    assertThat(loose.objective()).isBetween(exact.objective() - 1e-9, exact.objective() / 0.8);
    if (loose.gap() > 0) {
      assertThat(loose.optimal()).isFalse();
    }
    assertThatThrownBy(() -> new LoptStrategy(Duration.ofSeconds(1), 1.0))
        .hasMessageContaining("relative gap must be in [0, 1)");
  }

  @Test
  void aTimeLimitTooShortForAnyIncumbentStillGivesAFeasiblePlacement() {
    PlacementProblem problem = PlacementProblem.capacity(manyColumns(), tenScans());
    PlacementResult result = new LoptStrategy(Duration.ofNanos(1000)).place(problem);
    assertThat(Fixtures.feasible(problem, result.placement())).isTrue();
    assertThat(result.placement().deviceOf()).hasSize(problem.model().columns().size());
  }

  @Test
  void samplingIsDeterministicBySeedAndKeepsWeights() {
    Workload trace = tenScans();
    PlacementProblem problem = PlacementProblem.capacity(manyColumns(), trace);

    Workload a =
        problem.withOptions(PlacementOptions.defaults().withSample(0.5, 7)).solveWorkload();
    Workload again =
        problem.withOptions(PlacementOptions.defaults().withSample(0.5, 7)).solveWorkload();
    Set<Workload> samples = new HashSet<>();
    for (long seed = 0; seed < 5; seed++) {
      samples.add(
          problem.withOptions(PlacementOptions.defaults().withSample(0.5, seed)).solveWorkload());
    }

    assertThat(trace.scans()).hasSize(10);
    assertThat(a.scans()).hasSize(5);
    assertThat(trace.scans()).containsAll(a.scans()); // same column sets, same weights
    assertThat(again).isEqualTo(a);
    assertThat(samples).hasSizeGreaterThan(1);
    assertThat(problem.solveWorkload()).isEqualTo(trace);
  }

  @Test
  void sampledLoptSolvesOnTheSampleAndPredictsTheWholeTrace() {
    Workload trace = tenScans();
    PlacementProblem problem =
        PlacementProblem.capacity(manyColumns(), trace)
            .withOptions(PlacementOptions.defaults().withSample(0.6, 3));

    PlacementResult first = new LoptStrategy().place(problem);
    PlacementResult second = new LoptStrategy().place(problem);

    assertThat(second.placement()).isEqualTo(first.placement());
    assertThat(first.prediction().perScanSeconds()).hasSize(10);
    assertThat(first.objective())
        .isCloseTo(
            problem.model().totalTime(problem.solveWorkload(), first.placement()), offset(1e-9))
        .isLessThan(first.prediction().totalSeconds());
  }

  private static CostModel manyColumns() {
    List<ColumnSize> sizes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      sizes.add(ColumnSize.uncompressed(col("t.c" + i), (i + 1) * GB));
    }
    return CostModel.of(
        List.of(plainDevice("ssd", 0.4, 12 * GB, 60), plainDevice("hdd", 0.2, 100 * GB, 30)),
        sizes);
  }

  private static Workload tenScans() {
    List<DistinctScan> scans = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      // (c0,c1), (c1,c2), ... (c7,c0), then (c0,c2), (c1,c3): ten distinct pairs.
      scans.add(scan(i + 1, "t.c" + (i % 8), "t.c" + ((i % 8 + 1 + i / 8) % 8)));
    }
    return Workload.merging(scans);
  }
}
