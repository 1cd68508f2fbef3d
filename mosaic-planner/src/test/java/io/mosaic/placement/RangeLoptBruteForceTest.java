package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.RowRange;
import io.mosaic.workload.RangeUnits;
import io.mosaic.workload.RangeUnits.RangeScan;
import io.mosaic.workload.RangeUnits.RowGroupSizes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Range-aware LOPT is exact (docs/row-ranges.md): on small random tables whose scans read uneven
 * row ranges, LOPT over the units {@link RangeUnits} draws matches enumerating every placement of
 * the units, in capacity and budget mode.
 */
class RangeLoptBruteForceTest {
  private static final long MB = 1_000_000;

  @Test
  void rangeAwareLoptMatchesBruteForceOnRandomSkewedTables() {
    check(false);
  }

  /**
   * The same with the slow device cold (2-5 groups, 2-20 ms switches, of the order of a unit's
   * read): a ranged scan's switches come after its ranges (docs/cost-model.md, "Cold devices").
   */
  @Test
  void withAColdDevice() {
    check(true);
  }

  private void check(boolean cold) {
    int switching = 0;
    int rangedCold = 0;
    LoptStrategy lopt = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0);
    int compared = 0;
    int split = 0;
    int ranged = 0;
    for (int seed = 0; seed < 20; seed++) {
      Random r = new Random(2600 + seed);
      int groups = 6;
      Map<String, RowGroupSizes> sizes = new LinkedHashMap<>();
      long total = 0;
      for (int c = 0; c < 2; c++) {
        long[] bytes = new long[groups];
        for (int g = 0; g < groups; g++) {
          bytes[g] = (1 + r.nextInt(4)) * MB;
          total += bytes[g];
        }
        sizes.put("c" + c, new RowGroupSizes(bytes, Map.of()));
      }
      List<RangeScan> scans = new ArrayList<>();
      for (int s = 0; s < 1 + r.nextInt(3); s++) {
        Set<String> columns = new HashSet<>();
        columns.add("c" + r.nextInt(2));
        columns.add("c" + r.nextInt(2));
        int from = r.nextInt(3) == 0 ? 0 : groups - 1 - r.nextInt(2); // mostly the recent rows
        Set<Integer> rows = new TreeSet<>();
        for (int g = from; g < groups; g++) {
          rows.add(g);
        }
        scans.add(new RangeScan("t", columns, rows, 1 + r.nextInt(9)));
      }
      RangeUnits.Split units = RangeUnits.split("t", sizes, scans);
      if (units.units().size() > 7) {
        continue; // 3^units placements to enumerate
      }
      if (units.units().size() > 2) {
        split++;
      }
      if (units.workload().scans().stream()
          .anyMatch(sc -> RowRange.shares(new ArrayList<>(sc.sortedColumns())) != null)) {
        ranged++; // a scan whose units cut its rows into ranges read one after another
      }
      List<DeviceProfile> devices =
          List.of(
              device("fast", 1000, 0.05, (long) (total * (0.2 + 0.3 * r.nextDouble()))),
              device("mid", 200, 0.02, total),
              cold
                  ? device("slow", 50, 0.005, 10 * total)
                      .withCold(
                          Optional.of(
                              new ColdSpec(
                                  2 + r.nextInt(4),
                                  Latency.ofMillis(2 + r.nextInt(18)),
                                  new Bandwidth(50 * MB))))
                  : device("slow", 50, 0.005, 10 * total));
      CostModel model = CostModel.of(devices, units.sizes());
      PlacementMode mode =
          seed % 2 == 0
              ? PlacementMode.CAPACITY
              // With a cold device, budgets that cannot buy the mid device for everything.
              : PlacementMode.budget(
                  total
                      / 1e9
                      * (cold ? 0.006 + 0.014 * r.nextDouble() : 0.01 + 0.03 * r.nextDouble()));
      PlacementProblem problem =
          new PlacementProblem(model, units.workload(), mode, PlacementOptions.defaults());
      Optional<Double> best = Fixtures.bruteForceOptimum(problem);
      if (best.isEmpty()) {
        continue;
      }
      PlacementResult result = lopt.place(problem);
      assertThat(result.prediction().totalSeconds())
          .as("instance %d (%s, %d units)", seed, mode, units.units().size())
          .isCloseTo(best.get(), Offset.offset(1e-6 * Math.max(1, best.get())));
      assertThat(Fixtures.feasible(problem, result.placement())).isTrue();
      compared++;
      if (result.prediction().expectedSwitches() > 0) {
        switching++;
      }
      if (problem.workload().scans().stream()
          .anyMatch(
              sc ->
                  RowRange.shares(new ArrayList<>(sc.sortedColumns())) != null
                      && sc.columns().stream()
                          .anyMatch(
                              c -> model.device(result.placement().deviceOf().get(c)).isCold()))) {
        rangedCold++; // the MIP's switches after a ranged scan's ranges
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(10);
    assertThat(split).as("instances whose columns split into ranges").isGreaterThanOrEqualTo(5);
    assertThat(ranged).as("instances with scans over several row ranges").isGreaterThanOrEqualTo(3);
    if (cold) {
      assertThat(switching).as("optima that read the cold device").isGreaterThanOrEqualTo(3);
      assertThat(rangedCold).as("optima with a ranged scan on it").isGreaterThanOrEqualTo(1);
    }
  }

  private static DeviceProfile device(String id, double mbPerSecond, double centsPerGb, long cap) {
    Bandwidth rate = new Bandwidth(mbPerSecond * MB);
    return new DeviceProfile(
        id, Codec.NONE, Latency.ZERO, rate, rate, 1, cap, Cost.ofCents(centsPerGb));
  }
}
