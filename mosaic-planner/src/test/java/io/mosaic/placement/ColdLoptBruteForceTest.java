package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * LOPT stays exact with a cold device (docs/cost-model.md, "Cold devices"): on {@link
 * LoptBruteForceTest}'s random instances with one device (and its copies) made cold, a cheap one
 * with 2-6 groups and switches of 0.2-5 s, spreading segments over its groups or keeping a table
 * per group (every other instance: {@code E(k) = 1}), it matches enumerating every placement,
 * no-regression bounds included.
 */
class ColdLoptBruteForceTest {
  private static final int INSTANCES = 30;

  @Test
  void loptMatchesBruteForceWithAColdDevice() {
    LoptStrategy lopt = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0);
    int compared = 0;
    int budgetCompared = 0;
    int withRegressionBound = 0;
    int severalColdColumnsInAScan = 0;
    int coldUnused = 0;
    int tableLayout = 0;
    for (int seed = 0; seed < INSTANCES; seed++) {
      Random r = new Random(777 + seed);
      PlacementProblem problem = coldProblem(r, seed);
      String context = "instance " + seed + " (" + problem.mode() + ", " + problem.options() + ")";
      Optional<Double> best = Fixtures.bruteForceOptimum(problem);
      if (best.isEmpty()) {
        assertThatThrownBy(() -> lopt.place(problem))
            .as(context)
            .isInstanceOf(InfeasiblePlacementException.class);
        continue;
      }
      PlacementResult result = lopt.place(problem);
      double optimum = best.get();
      assertThat(result.objective()).as(context).isCloseTo(optimum, tolerance(optimum));
      assertThat(result.optimal()).as(context).isTrue();
      assertThat(result.lowerBound()).as(context).isLessThanOrEqualTo(optimum + 1e-6);
      assertThat(result.lpBound()).as(context).isLessThanOrEqualTo(optimum + 1e-6);
      assertThat(Fixtures.feasible(problem, result.placement())).as(context).isTrue();
      compared++;
      if (seed % 2 == 1) {
        tableLayout++;
      }
      if (problem.budgetMode()) {
        budgetCompared++;
      }
      if (problem.options().noRegression() != null) {
        withRegressionBound++;
      }
      CostModel model = problem.model();
      int most = 0;
      for (DistinctScan scan : problem.solveWorkload().scans()) {
        Map<String, Integer> perCold = new HashMap<>();
        for (ColumnRef c : scan.columns()) {
          DeviceProfile d = model.device(result.placement().deviceOf().get(c));
          if (d.isCold()) {
            most = Math.max(most, perCold.merge(d.id(), 1, Integer::sum));
          }
        }
      }
      if (most >= 2) {
        severalColdColumnsInAScan++; // where E(k) is not linear: the ordered binaries matter
      }
      if (model.devices().stream()
          .filter(DeviceProfile::isCold)
          .allMatch(d -> result.placement().columnsOn(d.id()).isEmpty())) {
        coldUnused++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(20);
    assertThat(budgetCompared).isGreaterThanOrEqualTo(8);
    assertThat(withRegressionBound).isGreaterThanOrEqualTo(5);
    assertThat(severalColdColumnsInAScan).isGreaterThanOrEqualTo(4);
    assertThat(coldUnused).as("the cold device must not always win").isGreaterThanOrEqualTo(1);
    assertThat(tableLayout).as("instances with a table per group").isGreaterThanOrEqualTo(8);
  }

  private static Offset<Double> tolerance(double value) {
    return Offset.offset(1e-6 * Math.max(1, Math.abs(value)));
  }

  /**
   * {@link LoptBruteForceTest#randomProblem} with its first device cold (and cheap: 3-15 ct/GB, so
   * budgets push columns there), its copies too; every third instance bounds regressions against a
   * random placement with 0-50 % slack; every other instance keeps a table per group.
   */
  static PlacementProblem coldProblem(Random r, int seed) {
    PlacementProblem warm = LoptBruteForceTest.randomProblem(r, seed);
    CostModel model = warm.model();
    String coldId = model.devices().get(0).id();
    ColdSpec cold =
        new ColdSpec(
            2 + r.nextInt(5),
            Latency.ofMillis(200 + r.nextInt(4800)),
            Bandwidth.ofMegabytesPerSecond(1000),
            Optional.of(ColdSpec.DEFAULT_POLICY),
            seed % 2 == 1 ? ColdSpec.Layout.TABLE : ColdSpec.Layout.SEGMENT);
    Cost price = Cost.ofCents(3 + 12 * r.nextDouble());
    List<DeviceProfile> devices = new ArrayList<>();
    for (DeviceProfile d : model.devices()) {
      devices.add(
          d.id().startsWith(coldId)
              ? new DeviceProfile(
                  d.id(),
                  d.codec(),
                  d.seek(),
                  d.raw(),
                  d.effective(),
                  d.ratio(),
                  d.capacityBytes(),
                  price,
                  Optional.of(cold))
              : d);
    }
    CostModel coldModel = new CostModel(devices, model.sizes(), model.cpu());
    PlacementOptions options = warm.options();
    if (seed % 3 == 1) {
      Map<ColumnRef, String> reference = new HashMap<>();
      for (ColumnRef c : coldModel.columns()) {
        reference.put(c, devices.get(r.nextInt(devices.size())).id());
      }
      options =
          options.withNoRegression(
              new NoRegression(new Placement(reference), 0.5 * r.nextDouble()));
    }
    return new PlacementProblem(coldModel, warm.workload(), warm.mode(), options);
  }
}
