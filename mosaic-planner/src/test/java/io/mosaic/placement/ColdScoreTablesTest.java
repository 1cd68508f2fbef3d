package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.RowRange;
import io.mosaic.model.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The local search scores a placement with cold devices exactly as the cost model predicts it
 * (docs/cost-model.md, "Cold devices"): whole columns and row-range units, with and without a CPU
 * model.
 */
class ColdScoreTablesTest {
  @Test
  void scoresMatchTheCostModelWithColdDevices() {
    int withSwitches = 0;
    int ranged = 0;
    for (int seed = 0; seed < 20; seed++) {
      Random r = new Random(99 + seed);
      PlacementProblem problem = problem(r, seed);
      CostModel model = problem.model();
      List<ColumnRef> columns = model.columns();
      ScoreTables tables = new ScoreTables(problem, columns);
      for (int trial = 0; trial < 10; trial++) {
        int[] at = new int[columns.size()];
        Map<ColumnRef, String> map = new HashMap<>();
        for (int c = 0; c < at.length; c++) {
          at[c] = r.nextInt(model.devices().size());
          map.put(columns.get(c), model.devices().get(at[c]).id());
        }
        Placement p = new Placement(map);
        double expected = model.totalTime(problem.solveWorkload(), p);
        assertThat(tables.totalSeconds(at))
            .as("seed %d", seed)
            .isCloseTo(expected, within(1e-9 * expected + 1e-12));
        if (model.predict(problem.solveWorkload(), p).expectedSwitches() > 0) {
          withSwitches++;
        }
      }
      if (seed % 2 == 1) {
        ranged++;
      }
    }
    assertThat(withSwitches).isGreaterThan(100);
    assertThat(ranged).isEqualTo(10);
  }

  /**
   * A warm and a cold device (and, every third seed, a second cold one); 4 columns, or on odd seeds
   * 2 columns cut into units [0:2] and [2:5] and [0:5] so scans read several row ranges; a CPU
   * model on even seeds.
   */
  private static PlacementProblem problem(Random r, int seed) {
    List<DeviceProfile> devices = new ArrayList<>();
    devices.add(device("warm", r, Optional.empty()));
    devices.add(device("cold", r, Optional.of(cold(r))));
    if (seed % 3 == 0) {
      devices.add(device("cold2", r, Optional.of(cold(r))));
    }
    List<ColumnSize> sizes = new ArrayList<>();
    for (int c = 0; c < (seed % 2 == 1 ? 2 : 4); c++) {
      ColumnRef column = new ColumnRef("t", "c" + c);
      long bytes = (long) ((0.1 + 3 * r.nextDouble()) * 1e9);
      if (seed % 2 == 1) {
        sizes.add(ColumnSize.uncompressed(RowRange.unit(column, 0, 2), bytes * 2 / 5));
        sizes.add(ColumnSize.uncompressed(RowRange.unit(column, 2, 5), bytes * 3 / 5));
      } else {
        sizes.add(ColumnSize.uncompressed(column, bytes));
      }
    }
    CostModel model = CostModel.of(devices, sizes);
    if (seed % 2 == 0) {
      Map<Codec, Bandwidth> decode = new HashMap<>();
      for (Codec codec : Codec.values()) {
        decode.put(codec, new Bandwidth((150 + 1500 * r.nextDouble()) * 1e6));
      }
      model = model.withCpu(Optional.of(new CpuModel(1.5, Latency.ofMillis(2), decode)));
    }
    List<ColumnRef> columns = model.columns();
    List<DistinctScan> scans = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      Set<ColumnRef> read = new HashSet<>();
      int n = 1 + r.nextInt(columns.size());
      while (read.size() < n) {
        read.add(columns.get(r.nextInt(columns.size())));
      }
      scans.add(new DistinctScan(read, 1 + r.nextInt(5)));
    }
    return PlacementProblem.capacity(model, Workload.merging(scans));
  }

  private static ColdSpec cold(Random r) {
    return new ColdSpec(
        2 + r.nextInt(10),
        Latency.ofMillis(100 + r.nextInt(8000)),
        Bandwidth.ofMegabytesPerSecond(1000));
  }

  private static DeviceProfile device(String id, Random r, Optional<ColdSpec> cold) {
    Codec codec = Codec.values()[r.nextInt(3)];
    double ratio = codec == Codec.NONE ? 1 : 2 + 2 * r.nextDouble();
    double raw = (100 + 1900 * r.nextDouble()) * 1e6;
    return new DeviceProfile(
        id,
        codec,
        Latency.ofMillis(r.nextInt(2) * 8),
        new Bandwidth(raw),
        new Bandwidth(raw * ratio),
        ratio,
        Long.MAX_VALUE,
        Cost.ofCents(5 + 100 * r.nextDouble()),
        cold);
  }
}
