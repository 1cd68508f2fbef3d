package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.plainDevice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.Placement;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSearchStrategyTest {
  private final LocalSearchStrategy search =
      new LocalSearchStrategy(Duration.ofSeconds(5), Duration.ofMillis(500), 7);

  @Test
  void budgetModeResultIsWithinItsReportedGapOfLopt() {
    PlacementProblem problem =
        PlacementProblem.budget(BudgetSweepTest.MODEL, BudgetSweepTest.TRACE, 900);
    assertWithinGap(problem);
  }

  @Test
  void capacityModeResultIsWithinItsReportedGapOfLopt() {
    CostModel installed =
        CostModel.of(
            List.of(
                plainDevice("nvme", 2.0, 5 * GB, 125),
                plainDevice("ssd", 0.4, 6 * GB, 60),
                plainDevice("hdd", 0.2, 100 * GB, 30)),
            BudgetSweepTest.MODEL.sizes().values());
    PlacementProblem problem =
        PlacementProblem.capacity(installed, BudgetSweepTest.TRACE)
            .withOptions(PlacementOptions.defaults().withPinned(Map.of(col("u.cold"), "hdd")));
    PlacementResult r = assertWithinGap(problem);
    assertThat(r.placement().device(col("u.cold"))).isEqualTo("hdd");
  }

  /** LOPT polishes for what is left of its deadline, a duration in nanoseconds. */
  @Test
  void limitsFinerThanAMillisecondAreAccepted() {
    PlacementProblem problem =
        PlacementProblem.budget(BudgetSweepTest.MODEL, BudgetSweepTest.TRACE, 900);
    LocalSearchStrategy nanos =
        new LocalSearchStrategy(Duration.ofNanos(1_500_000_123), Duration.ofNanos(500_000_001), 7);
    assertThat(Fixtures.feasible(problem, nanos.place(problem).placement())).isTrue();
  }

  @Test
  void optionsOnlyTheExactPathHasAreRefused() {
    PlacementProblem problem =
        PlacementProblem.budget(BudgetSweepTest.MODEL, BudgetSweepTest.TRACE, 900)
            .withOptions(PlacementOptions.defaults().withMaxDevices(2));
    assertThatThrownBy(() -> search.place(problem)).hasMessageContaining("use LOPT");
    CostModel tiny =
        CostModel.of(
            List.of(plainDevice("ssd", 0.4, GB, 60)),
            List.of(ColumnSize.uncompressed(col("t.a"), 2 * GB)));
    assertThatThrownBy(
            () -> search.place(PlacementProblem.capacity(tiny, BudgetSweepTest.TRACE_OF_A)))
        .isInstanceOf(InfeasiblePlacementException.class);
  }

  @Test
  void improvingAnIncumbentKeepsItFeasibleAndNeverWorse() {
    // LOPT hands a time-limited incumbent to the local search; here the worst feasible start:
    // everything on the cheapest device, which the search must improve within the budget.
    PlacementProblem problem =
        PlacementProblem.budget(BudgetSweepTest.MODEL, BudgetSweepTest.TRACE, 900);
    CostModel model = problem.model();
    String cheapest =
        model.devices().stream()
            .min(Comparator.comparingDouble(d -> d.costPerGb().cents()))
            .orElseThrow()
            .id();
    Map<ColumnRef, String> all = new HashMap<>();
    model.columns().forEach(c -> all.put(c, cheapest));
    Placement start = new Placement(all);
    assertThat(Fixtures.feasible(problem, start)).isTrue();

    Placement improved =
        LocalSearchStrategy.improve(problem, start, Duration.ofSeconds(5), Duration.ofMillis(500));
    assertThat(Fixtures.feasible(problem, improved)).isTrue();
    double before = model.totalTime(problem.solveWorkload(), start);
    double after = model.totalTime(problem.solveWorkload(), improved);
    assertThat(after).isLessThan(before);
    assertThat(after)
        .isGreaterThanOrEqualTo(
            new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0).place(problem).objective()
                * (1 - 1e-9));
  }

  private PlacementResult assertWithinGap(PlacementProblem problem) {
    PlacementResult heuristic = search.place(problem);
    PlacementResult exact = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0).place(problem);
    assertThat(Fixtures.feasible(problem, heuristic.placement())).isTrue();
    assertThat(heuristic.lpBound()).isLessThanOrEqualTo(exact.objective() * (1 + 1e-9));
    assertThat(heuristic.objective()).isGreaterThanOrEqualTo(exact.objective() * (1 - 1e-9));
    double fromOptimum = (heuristic.objective() - exact.objective()) / heuristic.objective();
    assertThat(fromOptimum).isLessThanOrEqualTo(heuristic.gap() + 1e-9);
    assertThat(heuristic.gap()).isBetween(0.0, 1.0);
    return heuristic;
  }
}
