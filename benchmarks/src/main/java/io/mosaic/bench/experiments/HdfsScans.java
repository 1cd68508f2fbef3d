package io.mosaic.bench.experiments;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.storage.MiniHdfs;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * Scans on HDFS against the same scans on local folders (docs/distributed-storage.md,
 * "Performance"): an in-process MiniDFS (core's {@link MiniHdfs}: DataNodes with SSD, DISK and
 * ARCHIVE storage, one replica) holds three devices with the storage policies ALL_SSD, HOT and
 * COLD; a local pool has three folders with the same specs. TPC-H is loaded into both, each device
 * is calibrated as {@code mosaic calibrate} does, and for each device in turn every column is moved
 * onto it in both pools and the 22 queries' scans (the planner's TPC-H trace) run RUNS times on
 * each pool, interleaved scan by scan so both see the same load. Reports each scan's median, the
 * MiniDFS/local ratio, and the cost model's prediction (docs/cost-model.md: each pool's calibrated
 * devices, the host's calibrated CPU) against the measured workload time per policy.
 *
 * <p>Neither pool is throttled: the figures are the storage paths' own. On MiniDFS all three
 * storage types are folders of one local disk, so the policies differ only by HDFS's path (the
 * block placement, the DataNode serving them), not by their media.
 *
 * <p>Usage: {@code benchmarks/bench experiments.HdfsScans [SF] [RUNS] [CALIBRATIONS]} (defaults
 * 0.05, 3, 1; with CALIBRATIONS above 1 each device's profile is the median of that many). Writes
 * {@code docs/experiments/hdfs-scans.{csv,svg}} ({@code hdfs-scans-TAG} with {@code
 * EXPERIMENT_TAG}).
 */
public final class HdfsScans {
  private HdfsScans() {}

  /** A device of both pools, and the storage policy its HDFS folder has. */
  record Policy(String device, String policy, String storageType) {}

  static final List<Policy> POLICIES =
      List.of(
          new Policy("ssd", "ALL_SSD", "SSD"),
          new Policy("hot", "HOT", "DISK"),
          new Policy("cold", "COLD", "ARCHIVE"));

  /** One scan's median seconds on each pool, and each pool's predicted seconds. */
  record ScanTimes(double local, double hdfs, double predictedLocal, double predictedHdfs) {}

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.05;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int calibrations = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    Path out = Path.of("docs/experiments");
    Path work = Path.of("mosaic-work/experiments/hdfs-scans").toAbsolutePath();
    long start = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "HDFS scans: TPC-H SF %s, median of %d runs, load average %.2f%n",
        sf,
        runs,
        load());
    try (MiniHdfs hdfs = MiniHdfs.start()) {
      System.out.printf(
          Locale.ROOT, "  MiniDFS started in %.1f s%n", hdfs.startTime().toMillis() / 1e3);
      List<TpchTable<?>> tables = TpchTable.getTables();
      try (ExperimentPool local =
              ExperimentPool.create(
                  work.resolve("local"),
                  sf,
                  devicesToml(null, folders(work.resolve("local-devices"))),
                  new Configuration(),
                  POLICIES.get(0).device(),
                  tables,
                  ExperimentPool.tpchLoader(sf));
          ExperimentPool dfs =
              ExperimentPool.create(
                  work.resolve("hdfs"),
                  sf,
                  devicesToml(hdfs.uri(), folders(work.resolve("hdfs-devices"))),
                  hdfs.conf(),
                  POLICIES.get(0).device(),
                  tables,
                  ExperimentPool.tpchLoader(sf))) {
        System.out.printf(
            Locale.ROOT,
            "[%4.0f s] loaded TPC-H into both pools (%.1f MB zstd each)%n",
            seconds(start),
            dfs.storedBytes() / 1e6);
        List<String> ids = POLICIES.stream().map(Policy::device).toList();
        CpuModel cpu = local.cpu();
        System.out.println("  local devices:");
        CostModel localModel = model(local, calibrate(local, ids, calibrations), cpu);
        System.out.println("  HDFS devices:");
        CostModel hdfsModel = model(dfs, calibrate(dfs, ids, calibrations), cpu);
        Workload trace = local.trace();
        CsvFile csv =
            new CsvFile(
                "device",
                "storage_policy",
                "scan",
                "columns",
                "weight",
                "local_s",
                "hdfs_s",
                "hdfs_over_local",
                "predicted_local_s",
                "predicted_hdfs_s",
                "hdfs_error_pct",
                "load");
        Map<Policy, ScanTimes> totals = new LinkedHashMap<>();
        for (Policy p : POLICIES) {
          Placement placement = allOn(hdfsModel, p.device());
          local.migrate(placement);
          dfs.migrate(placement);
          // One unmeasured run each: the first scans after a migration pay the JIT and the
          // readers' first opens.
          local.run(trace);
          dfs.run(trace);
          List<DistinctScan> scans = trace.scans();
          double[][] localTimes = new double[scans.size()][runs];
          double[][] hdfsTimes = new double[scans.size()][runs];
          for (int r = 0; r < runs; r++) {
            for (int i = 0; i < scans.size(); i++) {
              localTimes[i][r] = local.run(scans.get(i)).seconds();
              hdfsTimes[i][r] = dfs.run(scans.get(i)).seconds();
            }
          }
          double loadNow = load();
          double[] sum = new double[4];
          for (int i = 0; i < scans.size(); i++) {
            DistinctScan scan = scans.get(i);
            ScanTimes t =
                new ScanTimes(
                    median(localTimes[i]),
                    median(hdfsTimes[i]),
                    scan.weight() * localModel.scanTime(scan, placement),
                    scan.weight() * hdfsModel.scanTime(scan, placement));
            sum[0] += t.local();
            sum[1] += t.hdfs();
            sum[2] += t.predictedLocal();
            sum[3] += t.predictedHdfs();
            csv.row(
                p.device(),
                p.policy(),
                i + 1,
                scan.sortedColumns().stream().map(ColumnRef::toString).toList().toString(),
                scan.weight(),
                t.local(),
                t.hdfs(),
                t.hdfs() / t.local(),
                t.predictedLocal(),
                t.predictedHdfs(),
                100 * (t.predictedHdfs() - t.hdfs()) / t.hdfs(),
                loadNow);
          }
          ScanTimes total = new ScanTimes(sum[0], sum[1], sum[2], sum[3]);
          totals.put(p, total);
          csv.row(
              p.device(),
              p.policy(),
              "all",
              scans.size() + " scans",
              "",
              total.local(),
              total.hdfs(),
              total.hdfs() / total.local(),
              total.predictedLocal(),
              total.predictedHdfs(),
              100 * (total.predictedHdfs() - total.hdfs()) / total.hdfs(),
              loadNow);
          System.out.printf(
              Locale.ROOT,
              "[%4.0f s] %-4s %-7s local %.3f s, MiniDFS %.3f s (x%.2f); predicted MiniDFS %.3f s"
                  + " (%+.1f%%), local %.3f s (%+.1f%%); load %.2f%n",
              seconds(start),
              p.device(),
              p.policy(),
              total.local(),
              total.hdfs(),
              total.hdfs() / total.local(),
              total.predictedHdfs(),
              100 * (total.predictedHdfs() - total.hdfs()) / total.hdfs(),
              total.predictedLocal(),
              100 * (total.predictedLocal() - total.local()) / total.local(),
              loadNow);
        }
        String name = "hdfs-scans";
        csv.write(out.resolve(ExperimentPool.outputName(name, "csv")));
        double maeHdfs = 0;
        double maeLocal = 0;
        for (ScanTimes t : totals.values()) {
          maeHdfs += Math.abs(t.predictedHdfs() - t.hdfs()) / t.hdfs() / totals.size();
          maeLocal += Math.abs(t.predictedLocal() - t.local()) / t.local() / totals.size();
        }
        System.out.printf(
            Locale.ROOT,
            "Mean absolute prediction error over the 3 policies: MiniDFS %.1f%%, local %.1f%%%n"
                + "Done in %.0f s, load average %.2f.%n",
            100 * maeHdfs,
            100 * maeLocal,
            seconds(start),
            load());
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        totals.forEach(
            (p, t) -> {
              labels.addAll(
                  List.of(
                      p.policy() + ": local folder",
                      p.policy() + ": MiniDFS",
                      p.policy() + ": predicted"));
              values.addAll(List.of(t.local(), t.hdfs(), t.predictedHdfs()));
            });
        Files.writeString(
            out.resolve(ExperimentPool.outputName(name, "svg")),
            SvgChart.bars(
                String.format(
                    Locale.ROOT,
                    "TPC-H SF %s scans: MiniDFS vs local, median of %d; prediction MAE %.0f%%",
                    sf,
                    runs,
                    100 * maeHdfs),
                "scan time (s), sum of medians; ALL_SSD=SSD, HOT=DISK, COLD=ARCHIVE",
                labels,
                values,
                // Each policy's three bars in the same colours: local, MiniDFS, predicted.
                List.of("#7f7f7f", "#ff7f0e", "#1f77b4")));
      }
    }
  }

  /**
   * Three devices with the same specs, the {@link #POLICIES}, as folders of {@code hdfs} with their
   * storage policy, or local folders when it is null; and a local metadata device (metadata stays
   * local, docs/distributed-storage.md) that holds no column.
   */
  static String devicesToml(URI hdfs, Path folders) {
    StringBuilder toml =
        new StringBuilder(
            "[[device]]\nid = \"meta\"\npath = \""
                + folders.resolve("meta")
                + "\"\ncapacity = \"10 GB\"\n"
                + "threads = 4\ncodec = \"zstd\"\ncost_per_gb = \"20 ct\"\nmetadata = true\n");
    for (Policy p : POLICIES) {
      toml.append(
          String.format(
              Locale.ROOT,
              "%n[[device]]%nid = \"%s\"%n%scapacity = \"10 GB\"%nthreads = 4%ncodec = \"zstd\"%n"
                  + "cost_per_gb = \"20 ct\"%n",
              p.device(),
              hdfs == null
                  ? "path = \"" + folders.resolve(p.device()) + "\"\n"
                  : "uri = \""
                      + hdfs.resolve("/bench/" + p.device())
                      + "\"\nstorage_policy = \""
                      + p.policy()
                      + "\"\n"));
    }
    return toml.toString();
  }

  // Empty folders for the local devices (the metadata device and, without HDFS, the others).
  private static Path folders(Path dir) throws IOException {
    ExperimentPool.deleteTree(dir);
    Files.createDirectories(dir.resolve("meta"));
    for (Policy p : POLICIES) {
      Files.createDirectories(dir.resolve(p.device()));
    }
    return dir;
  }

  /**
   * Each device's profile as {@code mosaic calibrate} measures it, or with {@code times} above 1
   * the profile of median raw throughput among that many calibrations: on a shared machine one
   * calibration can land on a neighbour's build and be off by a factor of several.
   */
  static List<DeviceProfile> calibrate(ExperimentPool pool, List<String> ids, int times)
      throws IOException {
    List<List<DeviceProfile>> all = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      all.add(pool.calibrate(8L << 20, ids));
    }
    List<DeviceProfile> median = new ArrayList<>();
    for (int d = 0; d < ids.size(); d++) {
      int device = d;
      List<DeviceProfile> byRate =
          all.stream()
              .map(profiles -> profiles.get(device))
              .sorted(Comparator.comparingDouble(p -> p.raw().bytesPerSecond()))
              .toList();
      median.add(byRate.get(times / 2));
    }
    return median;
  }

  // The cost model of `pool`'s calibrated devices, unbounded, with the host's CPU.
  static CostModel model(ExperimentPool pool, List<DeviceProfile> profiles, CpuModel cpu) {
    Map<String, Long> unbounded = new HashMap<>();
    profiles.forEach(d -> unbounded.put(d.id(), Long.MAX_VALUE));
    return CostModel.of(ExperimentPool.withCapacities(profiles, unbounded), pool.sizes())
        .withCpu(Optional.of(cpu));
  }

  private static Placement allOn(CostModel model, String device) {
    Map<ColumnRef, String> deviceOf = new LinkedHashMap<>();
    model.columns().forEach(c -> deviceOf.put(c, device));
    return new Placement(deviceOf);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
