package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ScanLowerBoundTest {
  @Test
  void equalsTheBestOfEveryPlacementOfTheScansColumns() {
    Random random = new Random(7);
    for (int instance = 0; instance < 200; instance++) {
      int columns = 1 + random.nextInt(7);
      int devices = 1 + random.nextInt(4);
      double[][] times = randomTimes(random, columns, devices);
      if (devices > 1 && random.nextBoolean()) {
        // A twin device (Figure 9's copies): the search skips it at equal loads.
        for (double[] t : times) {
          t[devices - 1] = t[0];
        }
      }
      String context = "instance " + instance;
      assertThat(ScanLowerBound.of(times, 1_000_000))
          .as(context)
          .isCloseTo(bruteForce(times), within(1e-12));
      int c = random.nextInt(columns);
      int d = random.nextInt(devices);
      assertThat(ScanLowerBound.of(ScanLowerBound.fixed(times, c, d), 1_000_000))
          .as(context + ", column " + c + " on device " + d)
          .isCloseTo(bruteForceWith(times, c, d), within(1e-12));
    }
  }

  @Test
  void withinCapacitiesAndABudgetEqualsTheBestPlacementThatFits() {
    Random random = new Random(11);
    int bounded = 0;
    for (int instance = 0; instance < 200; instance++) {
      int columns = 1 + random.nextInt(6);
      int devices = 1 + random.nextInt(4);
      double[][] times = randomTimes(random, columns, devices);
      long[][] bytes = new long[columns][devices];
      double[][] cents = new double[columns][devices];
      long[] capacity = new long[devices];
      for (int d = 0; d < devices; d++) {
        capacity[d] = 1 + random.nextInt(columns * 10);
        for (int c = 0; c < columns; c++) {
          bytes[c][d] = 1 + random.nextInt(10);
          cents[c][d] = bytes[c][d] * (d + 1); // the faster, the dearer
        }
      }
      var limits =
          new ScanLowerBound.Limits(bytes, capacity, cents, random.nextInt(columns * 20 + 1));
      double expected = bruteForce(times, limits, -1, -1);
      double actual = ScanLowerBound.of(times, limits, 1_000_000);
      if (Double.isNaN(expected)) {
        assertThat(actual).as("instance " + instance + " has no placement").isNaN();
      } else {
        assertThat(actual).as("instance " + instance).isCloseTo(expected, within(1e-12));
        bounded++;
      }
      int c = random.nextInt(columns);
      int d = random.nextInt(devices);
      double fixedExpected = bruteForce(times, limits, c, d);
      double fixedActual = ScanLowerBound.of(ScanLowerBound.fixed(times, c, d), limits, 1_000_000);
      if (Double.isNaN(fixedExpected)) {
        assertThat(fixedActual).isNaN();
      } else {
        assertThat(fixedActual).isCloseTo(fixedExpected, within(1e-12));
      }
    }
    assertThat(bounded).isGreaterThan(50);
  }

  @Test
  void threeEqualColumnsOnAFastAndASlowDeviceTakeThreeColumnTimes() {
    // What the LP relaxation prices at 2.7: 3 units of work over speeds 1 and 1/9.
    double[][] times = {{1, 9}, {1, 9}, {1, 9}};
    assertThat(ScanLowerBound.of(times, 1000)).isEqualTo(3.0);
    assertThat(ScanLowerBound.of(ScanLowerBound.fixed(times, 0, 1), 1000)).isEqualTo(9.0);
  }

  @Test
  void aScanOfNoColumnsTakesNoTimeAndASearchTooLargeGivesNoBound() {
    assertThat(ScanLowerBound.of(new double[0][], 10)).isZero();
    double[][] large = randomTimes(new Random(3), 30, 4);
    assertThat(ScanLowerBound.of(large, 10)).isNaN();
  }

  private static double[][] randomTimes(Random random, int columns, int devices) {
    double[] speed = new double[devices];
    for (int d = 0; d < devices; d++) {
      speed[d] = 0.5 + 9 * random.nextDouble();
    }
    double[][] times = new double[columns][devices];
    for (int c = 0; c < columns; c++) {
      double size = 0.1 + random.nextDouble();
      for (int d = 0; d < devices; d++) {
        times[c][d] = 0.01 * d + size / speed[d];
      }
    }
    return times;
  }

  private static double bruteForce(double[][] times) {
    return bruteForceWith(times, -1, -1);
  }

  private static double bruteForceWith(double[][] times, int c, int d) {
    return bruteForce(times, null, c, d);
  }

  /**
   * Eq. 3 minimised over every assignment of columns to devices ({@code c} on {@code d}) within
   * {@code limits} (null: none); NaN if none fits.
   */
  private static double bruteForce(double[][] times, ScanLowerBound.Limits limits, int c, int d) {
    int devices = times[0].length;
    int assignments = (int) Math.pow(devices, times.length);
    double best = Double.POSITIVE_INFINITY;
    for (int a = 0; a < assignments; a++) {
      double[] load = new double[devices];
      long[] used = new long[devices];
      double spent = 0;
      int code = a;
      boolean allowed = true;
      for (int col = 0; col < times.length; col++) {
        int dev = code % devices;
        code /= devices;
        allowed &= col != c || dev == d;
        load[dev] += times[col][dev];
        if (limits != null) {
          used[dev] += limits.bytes()[col][dev];
          spent += limits.cents()[col][dev];
          allowed &= used[dev] <= limits.capacity()[dev];
        }
      }
      allowed &= limits == null || spent <= limits.budget();
      if (allowed) {
        double max = 0;
        for (double l : load) {
          max = Math.max(max, l);
        }
        best = Math.min(best, max);
      }
    }
    return best == Double.POSITIVE_INFINITY ? Double.NaN : best;
  }
}
