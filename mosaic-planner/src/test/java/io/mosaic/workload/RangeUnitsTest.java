package io.mosaic.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.Latency;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.workload.RangeUnits.RangeScan;
import io.mosaic.workload.RangeUnits.RowGroupSizes;
import io.mosaic.workload.RangeUnits.Split;
import io.mosaic.workload.RangeUnits.Unit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Row-range units from the trace (docs/row-ranges.md), and LOPT over them against LOPT over
 * columns.
 */
class RangeUnitsTest {
  private static final long MB = 1_000_000;

  private static RowGroupSizes even(int groups, long bytes) {
    long[] b = new long[groups];
    java.util.Arrays.fill(b, bytes);
    return new RowGroupSizes(b, Map.of());
  }

  private static Set<Integer> range(int from, int to) {
    Set<Integer> s = new HashSet<>();
    IntStream.range(from, to).forEach(s::add);
    return s;
  }

  private static DeviceProfile device(String id, double mbPerSecond, long capacity) {
    Bandwidth rate = new Bandwidth(mbPerSecond * MB);
    return new DeviceProfile(
        id, Codec.NONE, Latency.ZERO, rate, rate, 1, capacity, Cost.ofCents(1));
  }

  @Test
  void evenReadsKeepOneUnitPerColumnAndTheSameTimes() {
    Map<String, RowGroupSizes> sizes = new LinkedHashMap<>();
    sizes.put("a", even(10, 5 * MB));
    sizes.put("b", even(10, 2 * MB));
    List<RangeScan> scans =
        List.of(
            new RangeScan("t", Set.of("a", "b"), range(0, 10), 3),
            new RangeScan("t", Set.of("a"), range(0, 10), 2));
    Split split = RangeUnits.split("t", sizes, scans);
    assertThat(split.units())
        .containsExactly(
            new Unit(new ColumnRef("t", "a"), 0, 10), new Unit(new ColumnRef("t", "b"), 0, 10));
    assertThat(split.sizes()).extracting(ColumnSize::bytes).containsExactly(50 * MB, 20 * MB);
    assertThat(split.workload().scans()).hasSize(2);
  }

  @Test
  void recencySkewSplitsAtTheBoundaryTheScansDraw() {
    Map<String, RowGroupSizes> sizes = new LinkedHashMap<>();
    sizes.put("a", even(10, MB));
    sizes.put("b", even(10, MB));
    List<RangeScan> scans =
        List.of(
            new RangeScan("t", Set.of("a", "b"), range(8, 10), 10),
            new RangeScan("t", Set.of("a", "b"), range(8, 10), 5), // the same scan: one, weight 15
            new RangeScan("t", Set.of("a"), range(0, 10), 1));
    Split split = RangeUnits.split("t", sizes, scans);
    assertThat(split.units())
        .extracting(Unit::ref)
        .extracting(ColumnRef::column)
        .containsExactly("a[0:8]", "a[8:10]", "b[0:8]", "b[8:10]");
    assertThat(split.workload().scans())
        .containsExactlyInAnyOrder(
            new DistinctScan(
                Set.of(new ColumnRef("t", "a[8:10]"), new ColumnRef("t", "b[8:10]")), 15),
            new DistinctScan(
                Set.of(new ColumnRef("t", "a[0:8]"), new ColumnRef("t", "a[8:10]")), 1));
    assertThat(split.sizes())
        .extracting(ColumnSize::bytes)
        .containsExactly(8 * MB, 2 * MB, 8 * MB, 2 * MB);
  }

  @Test
  void rangeAwareLoptIsNeverSlowerThanColumnLopt() {
    LoptStrategy lopt = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0);
    Random r = new Random(11);
    for (int seed = 0; seed < 12; seed++) {
      int groups = 10;
      int columns = 2 + r.nextInt(3);
      Map<String, RowGroupSizes> sizes = new LinkedHashMap<>();
      long total = 0;
      for (int c = 0; c < columns; c++) {
        long bytes = (1 + r.nextInt(5)) * MB;
        sizes.put("c" + c, even(groups, bytes));
        total += bytes * groups;
      }
      List<RangeScan> scans = new ArrayList<>();
      for (int s = 0; s < 1 + r.nextInt(4); s++) {
        Set<String> read = new HashSet<>();
        read.add("c" + r.nextInt(columns));
        read.add("c" + r.nextInt(columns));
        // Mostly recent row groups (the last 20 %), sometimes all.
        Set<Integer> rows = r.nextInt(3) == 0 ? range(0, groups) : range(8, groups);
        scans.add(new RangeScan("t", read, rows, 1 + r.nextInt(9)));
      }
      List<DeviceProfile> devices =
          List.of(device("fast", 1000, (long) (total * 0.3)), device("slow", 50, 100 * total));
      // Column level: a column is read whole whenever a scan reads any of its row groups.
      List<ColumnSize> columnSizes = new ArrayList<>();
      sizes.forEach(
          (c, s) ->
              columnSizes.add(
                  new ColumnSize(
                      new ColumnRef("t", c), java.util.Arrays.stream(s.bytes()).sum(), Map.of())));
      List<DistinctScan> columnScans = new ArrayList<>();
      for (RangeScan s : scans) {
        Set<ColumnRef> refs = new HashSet<>();
        s.columns().forEach(c -> refs.add(new ColumnRef("t", c)));
        columnScans.add(new DistinctScan(refs, s.weight()));
      }
      double byColumn =
          solve(lopt, CostModel.of(devices, columnSizes), Workload.merging(columnScans));
      Split split = RangeUnits.split("t", sizes, scans);
      // Units see each scan read only its row groups: compare like with like, the column
      // placement's time over the units' workload.
      double byRange = solve(lopt, CostModel.of(devices, split.sizes()), split.workload());
      double columnPlacementOnUnits =
          columnPlacementTime(lopt, devices, columnSizes, columnScans, split);
      assertThat(byRange).as("seed " + seed).isLessThanOrEqualTo(columnPlacementOnUnits + 1e-9);
    }
  }

  @Test
  void underRecencySkewTheRecentRangesGetTheFastDevice() {
    LoptStrategy lopt = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0);
    Map<String, RowGroupSizes> sizes = new LinkedHashMap<>();
    sizes.put("a", even(10, 10 * MB));
    sizes.put("b", even(10, 10 * MB));
    List<RangeScan> scans = List.of(new RangeScan("t", Set.of("a", "b"), range(8, 10), 10));
    // The fast device holds 60 MB: neither whole column (100 MB), both recent ranges (40 MB).
    List<DeviceProfile> devices =
        List.of(device("fast", 1000, 60 * MB), device("slow", 50, 1000 * MB));
    Split split = RangeUnits.split("t", sizes, scans);
    List<ColumnSize> columnSizes =
        List.of(
            new ColumnSize(new ColumnRef("t", "a"), 100 * MB, Map.of()),
            new ColumnSize(new ColumnRef("t", "b"), 100 * MB, Map.of()));
    List<DistinctScan> columnScans =
        List.of(new DistinctScan(Set.of(new ColumnRef("t", "a"), new ColumnRef("t", "b")), 10));
    double byColumn = columnPlacementTime(lopt, devices, columnSizes, columnScans, split);
    double byRange = solve(lopt, CostModel.of(devices, split.sizes()), split.workload());
    // Column level: 10 scans x 40 MB at 50 MB/s = 8 s; by range at 1 GB/s: 0.4 s.
    assertThat(byColumn).isCloseTo(8.0, within(1e-9));
    assertThat(byRange).isCloseTo(0.4, within(1e-9));
  }

  // The column-level optimum, each unit on its column's device, timed over the units' workload.
  private static double columnPlacementTime(
      LoptStrategy lopt,
      List<DeviceProfile> devices,
      List<ColumnSize> columnSizes,
      List<DistinctScan> columnScans,
      Split split) {
    CostModel columnModel = CostModel.of(devices, columnSizes);
    Placement byColumn =
        lopt.place(
                new PlacementProblem(
                    columnModel,
                    Workload.merging(columnScans),
                    PlacementMode.CAPACITY,
                    PlacementOptions.defaults()))
            .placement();
    Map<ColumnRef, String> units = new HashMap<>();
    for (Unit u : split.units()) {
      units.put(u.ref(), byColumn.device(u.column()));
    }
    return CostModel.of(devices, split.sizes()).totalTime(split.workload(), new Placement(units));
  }

  private static double solve(LoptStrategy lopt, CostModel model, Workload workload) {
    return lopt.place(
            new PlacementProblem(
                model, workload, PlacementMode.CAPACITY, PlacementOptions.defaults()))
        .prediction()
        .totalSeconds();
  }

  @Test
  void badInputNamesTheProblem() {
    Map<String, RowGroupSizes> sizes = new LinkedHashMap<>();
    sizes.put("a", even(3, MB));
    sizes.put("b", even(4, MB));
    assertThatThrownBy(() -> RangeUnits.split("t", sizes, List.of()))
        .hasMessageContaining("has 4 row groups, others 3");
    Map<String, RowGroupSizes> one = Map.of("a", even(3, MB));
    assertThatThrownBy(
            () ->
                RangeUnits.split("t", one, List.of(new RangeScan("t", Set.of("x"), Set.of(0), 1))))
        .hasMessageContaining("reads column 'x', which the sizes do not list");
  }
}
