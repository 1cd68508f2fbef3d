package io.mosaic.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.config.Latency;
import io.mosaic.config.Link;
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
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Placement with devices that share a link (docs/cost-model.md, "Shared links"): LOPT's per-link
 * constraints and the local search's scores give what the cost model predicts, and a budget that
 * Eq. 3 alone spends on "parallel" S3 bandwidth goes where it gains once the network is modelled.
 *
 * <pre>
 * t.a, t.b 1 GB stored each (zstd). Scan {a, b} weight 1, the trace run 10 times a month.
 * S3 Standard and Standard-IA from the aws catalogue: 16 streams of 85 MB/s = 1.36 GB/s each, a
 * GET's 30 ms first byte over the 16 streams (docs/cost-model.md, "First bytes that overlap"),
 * network 1.5625 GB/s; instance NVMe 1 GB/s on no link.
 * A column on Standard or IA: 0.03 / 16 + 1 / 1.36 = 0.73717 s, on the NVMe 1 s.
 * Budget: both on Standard plus 10 ct a month, which buys one of
 *   b on Standard-IA:  1.25 + 10 x (0.0001 + 1) - 2.3004  =  8.95 ct more
 *   b on the NVMe:     7.09 - 2.3004                      =  4.79 ct more
 * Eq. 3 alone:   b on IA: max(0.73717, 0.73717) = 0.73717 s; b on the NVMe: max(0.73717, 1) = 1 s
 * With the link: b on IA: max(0.73717, 2 / 1.5625) = 1.28 s;  b on the NVMe: still 1 s.
 * </pre>
 */
class LinkPlacementTest {
  private static final ColumnRef A = new ColumnRef("t", "a");
  private static final ColumnRef B = new ColumnRef("t", "b");
  private static final Workload TRACE = new Workload(List.of(DistinctScan.of(1, A, B)));
  private static final double S3 = 0.03 / 16 + 1 / 1.36;
  private static final double NVME = 1;

  private static DeviceProfile aws(String id, boolean linked) {
    CatalogDevice d =
        DeviceCatalog.load("aws").stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    DeviceProfile device = DeviceProfile.catalog(d);
    return linked ? device : device.withLink(Optional.empty());
  }

  private static CostModel model(boolean linked) {
    List<ColumnSize> sizes = new ArrayList<>();
    for (ColumnRef column : List.of(A, B)) {
      sizes.add(new ColumnSize(column, 4_500_000_000L, Map.of(Codec.ZSTD, 1_000_000_000L)));
    }
    return CostModel.of(
            List.of(
                aws("s3-standard", linked), aws("s3-standard-ia", linked), aws("nvme-i4i", linked)),
            sizes,
            Optional.empty())
        .withMonthlyReads(TRACE, 10);
  }

  private static Placement lopt(CostModel model) {
    double base = model.cost(new Placement(Map.of(A, "s3-standard", B, "s3-standard")));
    assertThat(base).isCloseTo(2 * 2.3 + 20 * 0.00004, within(1e-9));
    PlacementResult r =
        new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0)
            .place(
                new PlacementProblem(
                    model, TRACE, PlacementMode.budget(base + 10), PlacementOptions.defaults()));
    assertThat(r.prediction().totalSeconds())
        .isCloseTo(model.totalTime(TRACE, r.placement()), within(1e-9));
    return r.placement();
  }

  @Test
  void aSecondS3ClassGivesWayToTheNvmeOnceTheNetworkIsShared() {
    CostModel paper = model(false);
    Placement spread = lopt(paper);
    // a and b on the two S3 classes, read "in parallel".
    assertThat(Set.of(spread.deviceOf().get(A), spread.deviceOf().get(B)))
        .containsExactlyInAnyOrder("s3-standard", "s3-standard-ia");
    assertThat(paper.totalTime(TRACE, spread)).isCloseTo(S3, within(1e-9));

    CostModel linked = model(true);
    Placement p = lopt(linked);
    assertThat(Set.of(p.deviceOf().get(A), p.deviceOf().get(B)))
        .containsExactlyInAnyOrder("s3-standard", "nvme-i4i");
    assertThat(linked.totalTime(TRACE, p)).isCloseTo(NVME, within(1e-9));
    // What the spread placement really takes: the two classes share 1.5625 GB/s.
    assertThat(linked.totalTime(TRACE, spread)).isCloseTo(2 / 1.5625, within(1e-9));
  }

  /**
   * LOPT matches enumerating every placement, and the local search's score tables match the cost
   * model, on random instances: two devices on a link, one on another or on none; whole columns or
   * row-range units (several ranges a scan), with a CPU model on odd seeds; capacity and budget.
   */
  @Test
  void loptAndScoreTablesMatchTheCostModelWithLinks() {
    LoptStrategy lopt = new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0);
    int compared = 0;
    int bound = 0;
    for (int seed = 0; seed < 16; seed++) {
      Random r = new Random(4100 + seed);
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
        double expected = model.totalTime(problem.solveWorkload(), new Placement(map));
        assertThat(tables.totalSeconds(at))
            .as("seed %d", seed)
            .isCloseTo(expected, within(1e-9 * expected + 1e-12));
      }
      Optional<Double> best = Fixtures.bruteForceOptimum(problem);
      if (best.isEmpty()) {
        continue;
      }
      PlacementResult result = lopt.place(problem);
      assertThat(result.prediction().totalSeconds())
          .as("seed %d (%s)", seed, problem.mode())
          .isCloseTo(best.get(), Offset.offset(1e-6 * Math.max(1, best.get())));
      assertThat(Fixtures.feasible(problem, result.placement())).isTrue();
      compared++;
      // Whether a link binds at the optimum: without links the same placement would be faster.
      CostModel unlinked =
          CostModel.of(
              model.devices().stream().map(d -> d.withLink(Optional.empty())).toList(),
              model.sizes().values(),
              model.cpu());
      if (unlinked.totalTime(problem.solveWorkload(), result.placement())
          < best.get() * (1 - 1e-9)) {
        bound++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(12);
    assertThat(bound).as("optima where a link binds").isGreaterThanOrEqualTo(3);
  }

  private static PlacementProblem problem(Random r, int seed) {
    Link shared = new Link("net", new Bandwidth((300 + 900 * r.nextDouble()) * 1e6));
    List<DeviceProfile> devices = new ArrayList<>();
    devices.add(device("s3a", r).withLink(Optional.of(shared)));
    devices.add(device("s3b", r).withLink(Optional.of(shared)));
    devices.add(
        seed % 4 == 0
            ? device("ebs", r)
                .withLink(
                    Optional.of(new Link("ebs", new Bandwidth(200e6 + 400e6 * r.nextDouble()))))
            : device("nvme", r));
    List<ColumnSize> sizes = new ArrayList<>();
    boolean ranged = seed % 2 == 0;
    for (int c = 0; c < (ranged ? 2 : 4); c++) {
      ColumnRef column = new ColumnRef("t", "c" + c);
      long bytes = (long) ((0.1 + 3 * r.nextDouble()) * 1e9);
      if (ranged) {
        sizes.add(ColumnSize.uncompressed(RowRange.unit(column, 0, 2), bytes * 2 / 5));
        sizes.add(ColumnSize.uncompressed(RowRange.unit(column, 2, 5), bytes * 3 / 5));
      } else {
        sizes.add(ColumnSize.uncompressed(column, bytes));
      }
    }
    CostModel model = CostModel.of(devices, sizes);
    if (seed % 2 == 1) {
      Map<Codec, Bandwidth> decode = new HashMap<>();
      for (Codec codec : Codec.values()) {
        decode.put(codec, new Bandwidth((500 + 3000 * r.nextDouble()) * 1e6));
      }
      model = model.withCpu(Optional.of(new CpuModel(2, Latency.ofMillis(2), decode)));
    }
    List<ColumnRef> columns = model.columns();
    List<DistinctScan> scans = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      Set<ColumnRef> read = new HashSet<>();
      int n = 2 + r.nextInt(columns.size() - 1);
      while (read.size() < n) {
        read.add(columns.get(r.nextInt(columns.size())));
      }
      scans.add(new DistinctScan(read, 1 + r.nextInt(5)));
    }
    double total = sizes.stream().mapToLong(ColumnSize::bytes).sum() / 1e9;
    PlacementMode mode =
        seed % 3 == 0
            ? PlacementMode.budget(total * (20 + 40 * r.nextDouble()))
            : PlacementMode.budget(1e9);
    return new PlacementProblem(model, Workload.merging(scans), mode, PlacementOptions.defaults());
  }

  private static DeviceProfile device(String id, Random r) {
    Codec codec = Codec.values()[r.nextInt(3)];
    double ratio = codec == Codec.NONE ? 1 : 2 + 2 * r.nextDouble();
    double raw = (200 + 800 * r.nextDouble()) * 1e6;
    return new DeviceProfile(
        id,
        codec,
        Latency.ofMillis(r.nextInt(3) * 10),
        new Bandwidth(raw),
        new Bandwidth(raw * ratio),
        ratio,
        Long.MAX_VALUE,
        Cost.ofCents(5 + 100 * r.nextDouble()));
  }
}
