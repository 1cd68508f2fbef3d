package io.mosaic.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Cold devices in the cost model (docs/cost-model.md, "Cold devices"): a scan reading {@code k}
 * columns of a device with {@code G} groups and switch {@code s} waits {@code s G (1 - (1 -
 * 1/G)^k)} more on that device.
 */
class ColdCostModelTest {
  private static final Offset<Double> EPS = within(1e-9);
  private static final ColdSpec FOUR_GROUPS =
      new ColdSpec(4, Latency.ofMillis(10_000), Bandwidth.ofMegabytesPerSecond(100));

  static DeviceProfile device(String id, double mbPerSecond, Optional<ColdSpec> cold) {
    Bandwidth rate = Bandwidth.ofMegabytesPerSecond(mbPerSecond);
    return new DeviceProfile(
        id, Codec.NONE, Latency.ZERO, rate, rate, 1, Long.MAX_VALUE, Cost.ofCents(10), cold);
  }

  @Test
  void expectedSwitchesCountDistinctGroups() {
    // E(k) = G (1 - (1 - 1/G)^k): by hand for G = 4.
    assertThat(FOUR_GROUPS.expectedSwitches(0)).isCloseTo(0, EPS);
    assertThat(FOUR_GROUPS.expectedSwitches(1)).isCloseTo(1, EPS);
    assertThat(FOUR_GROUPS.expectedSwitches(2)).isCloseTo(1.75, EPS); // 4 (1 - 9/16)
    assertThat(FOUR_GROUPS.expectedSwitches(3)).isCloseTo(2.3125, EPS); // 4 (1 - 27/64)
    for (int k = 1; k < 40; k++) {
      double e = FOUR_GROUPS.expectedSwitches(k);
      assertThat(e).isLessThanOrEqualTo(Math.min(k, 4) + 1e-12);
      assertThat(e - FOUR_GROUPS.expectedSwitches(k - 1))
          .as("increments telescope")
          .isCloseTo(FOUR_GROUPS.switchIncrement(k), EPS);
      assertThat(FOUR_GROUPS.switchIncrement(k + 1)).isLessThan(FOUR_GROUPS.switchIncrement(k));
    }
    assertThat(FOUR_GROUPS.expectedSwitches(200)).isCloseTo(4, within(1e-6));
    // Exactly the brute-force mean over every assignment of 3 segments to 4 groups.
    double distinct = 0;
    for (int a = 0; a < 4; a++) {
      for (int b = 0; b < 4; b++) {
        for (int c = 0; c < 4; c++) {
          distinct += new java.util.HashSet<>(List.of(a, b, c)).size();
        }
      }
    }
    assertThat(distinct / 64).isCloseTo(FOUR_GROUPS.expectedSwitches(3), EPS);
  }

  @Test
  void aTableLayoutCostsAScanOneSwitchWhateverItReads() {
    ColdSpec tables =
        new ColdSpec(
            4,
            Latency.ofMillis(10_000),
            Bandwidth.ofMegabytesPerSecond(100),
            Optional.of(ColdSpec.DEFAULT_POLICY),
            ColdSpec.Layout.TABLE);
    assertThat(tables.expectedSwitches(0)).isCloseTo(0, EPS);
    for (int k = 1; k < 10; k++) {
      assertThat(tables.expectedSwitches(k)).isCloseTo(1, EPS);
      assertThat(tables.switchIncrement(k)).isCloseTo(k == 1 ? 1 : 0, EPS);
    }
    assertThat(tables.switchSeconds(7)).isCloseTo(10, EPS);
  }

  @Test
  void aScanWaitsForItsSwitchesOnTheColdDevice() {
    DeviceProfile warm = device("hdd", 200, Optional.empty());
    DeviceProfile cold = device("csd", 1000, Optional.of(FOUR_GROUPS));
    ColumnRef a = new ColumnRef("t", "a");
    ColumnRef b = new ColumnRef("t", "b");
    ColumnRef c = new ColumnRef("t", "c");
    CostModel model =
        CostModel.of(
            List.of(warm, cold),
            List.of(
                ColumnSize.uncompressed(a, 1_000_000_000L),
                ColumnSize.uncompressed(b, 2_000_000_000L),
                ColumnSize.uncompressed(c, 500_000_000L)));
    DistinctScan scan = new DistinctScan(Set.of(a, b, c), 3);
    // All warm: Eq. 3 as before, 3.5 GB at 200 MB/s.
    Placement allWarm = new Placement(java.util.Map.of(a, "hdd", b, "hdd", c, "hdd"));
    assertThat(model.scanTime(scan, allWarm)).isCloseTo(17.5, EPS);
    assertThat(model.predict(new Workload(List.of(scan)), allWarm).expectedSwitches()).isZero();
    // b and c cold: the csd reads 2.5 GB in 2.5 s and switches E(2) = 1.75 times, 10 s each;
    // slower than the hdd's 5 s for a.
    Placement twoCold = new Placement(java.util.Map.of(a, "hdd", b, "csd", c, "csd"));
    assertThat(model.scanTime(scan, twoCold)).isCloseTo(2.5 + 17.5, EPS);
    Prediction p = model.predict(new Workload(List.of(scan)), twoCold);
    assertThat(p.expectedSwitches()).isCloseTo(3 * 1.75, EPS); // weighted as Eq. 4
    assertThat(p.totalSeconds()).isCloseTo(3 * 20, EPS);
    // A scan that reads nothing of the cold device pays nothing for it.
    assertThat(model.scanTime(new DistinctScan(Set.of(a), 1), twoCold)).isCloseTo(5, EPS);
  }

  @Test
  void profilesKeepTheirColdSpec() {
    DeviceProfile cold = device("csd", 1000, Optional.of(FOUR_GROUPS));
    assertThat(cold.isCold()).isTrue();
    assertThat(cold.withId("csd2").cold()).contains(FOUR_GROUPS);
    assertThat(cold.withCapacity(5).cold()).contains(FOUR_GROUPS);
    assertThat(cold.withCold(Optional.empty()).isCold()).isFalse();
    assertThat(CostModel.switchSeconds(cold, 2)).isCloseTo(17.5, EPS);
    assertThat(CostModel.switchSeconds(device("ssd", 1, Optional.empty()), 5)).isZero();
  }

  @Test
  void invalidGroupsOrSwitchAreRefused() {
    assertThatThrownBy(
            () -> new ColdSpec(1, Latency.ofMillis(8000), Bandwidth.ofMegabytesPerSecond(100)))
        .isInstanceOf(MosaicException.class)
        .hasMessage("a cold device needs 2 to 1024 disk groups, not 1");
    assertThatThrownBy(() -> new ColdSpec(4, Latency.ZERO, Bandwidth.ofMegabytesPerSecond(100)))
        .isInstanceOf(MosaicException.class)
        .hasMessageStartingWith("a cold device's group switch must be above 0");
  }
}
