package io.mosaic.placement;

import static io.mosaic.placement.Fixtures.GB;
import static io.mosaic.placement.Fixtures.col;
import static io.mosaic.placement.Fixtures.placement;
import static io.mosaic.placement.Fixtures.plainDevice;
import static io.mosaic.placement.Fixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which columns the planner puts on a cold device (docs/cost-model.md, "Cold devices"). Devices,
 * all uncompressed, 1 GB columns:
 *
 * <pre>
 * fast  2 GB/s,   100 ct/GB   a scan of one column: 0.5 s
 * hdd   0.25 GB/s, 30 ct/GB                          4 s
 * csd   1 GB/s,    10 ct/GB, 12 groups, 8 s switch   1 s + 8 s = 9 s (E(1) = 1)
 * </pre>
 *
 * The csd reads faster than the hdd; only its switches make it the slowest.
 */
class ColdPlacementTest {
  private static final ColdSpec PELICAN =
      new ColdSpec(12, Latency.ofMillis(8000), Bandwidth.ofMegabytesPerSecond(1000));
  private static final DeviceProfile FAST = plainDevice("fast", 2, Long.MAX_VALUE, 100);
  private static final DeviceProfile HDD = plainDevice("hdd", 0.25, Long.MAX_VALUE, 30);
  private static final DeviceProfile CSD =
      plainDevice("csd", 1, Long.MAX_VALUE, 10).withCold(Optional.of(PELICAN));

  private static CostModel model(List<DeviceProfile> devices, String... columns) {
    return CostModel.of(
        devices,
        java.util.Arrays.stream(columns).map(c -> ColumnSize.uncompressed(col(c), GB)).toList());
  }

  private static final LoptStrategy LOPT = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0);

  @Test
  void aScannedColumnStaysWarmAndAnUnscannedOneGoesCold() {
    // 40 ct buys one column on the hdd and one on the csd. Without switches the csd (1 s a scan)
    // would take the scanned column; with them it takes the one never scanned.
    CostModel model = model(List.of(HDD, CSD), "t.hot", "t.never");
    Workload trace = new Workload(List.of(scan(10, "t.hot")));
    PlacementResult r = LOPT.place(PlacementProblem.budget(model, trace, 40));
    assertThat(r.placement().deviceOf())
        .containsEntry(col("t.hot"), "hdd")
        .containsEntry(col("t.never"), "csd");
    assertThat(r.prediction().totalSeconds()).isCloseTo(40, within(1e-6));
    assertThat(r.prediction().expectedSwitches()).isZero();
    // The cold device without its switch model would win: the model, not the prices, decides.
    CostModel warm = model(List.of(HDD, CSD.withCold(Optional.empty())), "t.hot", "t.never");
    assertThat(LOPT.place(PlacementProblem.budget(warm, trace, 40)).placement().deviceOf())
        .containsEntry(col("t.hot"), "csd");
  }

  /**
   * b is scanned 50 times, a w times. 110 ct buys b on fast and a on the csd (25 + 9w s), or both
   * on the hdd (200 + 4w s), or a on fast and b on the csd (0.5w + 450 s): the csd's saving buys
   * b's speed only while a is scanned fewer than 35 times.
   */
  @Test
  void aColumnGoesColdOnlyWhenTheTraceSaysTheSwitchesAreWorthTheSaving() {
    CostModel model = model(List.of(FAST, HDD, CSD), "t.a", "t.b");
    for (int w : new int[] {1, 30, 40, 50, 60}) {
      Workload trace = new Workload(List.of(scan(w, "t.a"), scan(50, "t.b")));
      PlacementResult r = LOPT.place(PlacementProblem.budget(model, trace, 110));
      if (w < 35) {
        assertThat(r.placement()).as("a scanned %d times", w).isEqualTo(place("csd", "fast"));
        assertThat(r.prediction().totalSeconds()).isCloseTo(25 + 9.0 * w, within(1e-6));
        assertThat(r.prediction().expectedSwitches()).isCloseTo(w, within(1e-9));
      } else {
        assertThat(r.placement()).as("a scanned %d times", w).isEqualTo(place("hdd", "hdd"));
        assertThat(r.prediction().totalSeconds()).isCloseTo(200 + 4.0 * w, within(1e-6));
        assertThat(r.prediction().expectedSwitches()).isZero();
      }
      // The local search scores the same function, so it finds the same on this small instance.
      PlacementResult local =
          new LocalSearchStrategy(
                  java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(1), 0)
              .place(PlacementProblem.budget(model, trace, 110));
      assertThat(local.prediction().totalSeconds())
          .isCloseTo(r.prediction().totalSeconds(), within(1e-6));
    }
  }

  @Test
  void noRegressionKeepsAChosenQueryOffTheColdDevice() {
    CostModel model = model(List.of(FAST, HDD, CSD), "t.a", "t.b");
    Workload trace = new Workload(List.of(scan(1, "t.a"), scan(50, "t.b")));
    // Today a is on the hdd (4 s) and b already cold (9 s): a may not get 50 % slower, so it
    // cannot go to the csd (9 s); b's bound (13.5 s) leaves it free.
    Placement today = placement("t.a", "hdd", "t.b", "csd");
    PlacementProblem bounded =
        PlacementProblem.budget(model, trace, 110)
            .withOptions(
                PlacementOptions.defaults().withNoRegression(new NoRegression(today, 0.5)));
    PlacementResult r = LOPT.place(bounded);
    assertThat(r.placement().deviceOf()).containsEntry(col("t.a"), "hdd");
    assertThat(r.placement()).isEqualTo(place("hdd", "hdd"));
    assertThat(Fixtures.bruteForceOptimum(bounded))
        .hasValueSatisfying(best -> assertThat(r.objective()).isCloseTo(best, within(1e-6)));
    // Unbounded, a would go cold (the test above).
    assertThat(LOPT.place(PlacementProblem.budget(model, trace, 110)).placement())
        .isEqualTo(place("csd", "fast"));
  }

  @Test
  void hotColumnFillsTheColdDeviceLast() {
    // Capacity mode: the csd reads faster than the 0.5 GB/s ssd, but HOT puts the hot column on
    // the ssd and only what does not fit on the csd.
    DeviceProfile ssd = plainDevice("ssd", 0.5, GB, 60);
    DeviceProfile csd = plainDevice("csd", 1, 10 * GB, 10).withCold(Optional.of(PELICAN));
    CostModel model = model(List.of(csd, ssd), "t.hot", "t.rare");
    Workload trace = new Workload(List.of(scan(10, "t.hot"), scan(1, "t.rare")));
    PlacementResult hot = new HotColumnStrategy().place(PlacementProblem.capacity(model, trace));
    assertThat(hot.placement().deviceOf())
        .containsEntry(col("t.hot"), "ssd")
        .containsEntry(col("t.rare"), "csd");
    // Its prediction includes the switches: 10 * 2 s + 1 * (1 s + 8 s).
    assertThat(hot.prediction().totalSeconds()).isCloseTo(29, within(1e-6));
    assertThat(LOPT.place(PlacementProblem.capacity(model, trace)).placement())
        .isEqualTo(hot.placement());
  }

  private static Placement place(String a, String b) {
    return placement("t.a", a, "t.b", b);
  }
}
