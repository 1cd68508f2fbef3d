package io.mosaic.bench.experiments;

import io.mosaic.config.CatalogDevice;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.model.CostModel;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.storage.SeaweedS3;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Calibration of two S3 devices and Figure 12's prediction error on them (docs/experiments,
 * "Object-store devices"): a real SeaweedFS server on loopback holds two prefix devices of one
 * bucket, {@code express} (its objects on SSD-tagged volumes, STACK.md "Distributed storage") and
 * {@code standard} (storage class STANDARD), read by Mosaic through S3A. Each is throttled in
 * Mosaic's I/O path as the {@code aws} catalogue's S3 Express One Zone and S3 Standard, divided by
 * DIVISOR (the catalogue's rate is its streams' sum; a first byte is scaled as the Table 1 pool
 * scales seeks), priced per GB-month as the catalogue prices them; a local metadata device holds no
 * column. Both S3 devices are calibrated against the endpoint as {@code mosaic calibrate} does,
 * LOPT sweeps the budget in money per month over them, and every point is migrated and the 22 TPC-H
 * queries' scans run RUNS times. The prediction is Mosaic's Eq. 3 with the calibrated devices and
 * the host's calibrated CPU (docs/cost-model.md), no fitted constant; the configured throttles'
 * prediction is beside it.
 *
 * <p>Both SeaweedFS volume servers keep their files on this machine's one disk, and loopback has no
 * network delay: the devices differ by their emulated speeds, while calibration and scans pay the
 * real S3 path (HTTP requests through S3A, one per read) on top.
 *
 * <p>Usage: {@code benchmarks/bench experiments.S3Devices [SF] [DIVISOR] [STEPS] [RUNS]
 * [CALIBRATIONS]} (defaults 0.05, 50, 6, 3, 3; each device's profile is the median raw rate of
 * CALIBRATIONS calibrations). Writes {@code docs/experiments/s3-devices.{csv,svg}} ({@code
 * s3-devices-TAG} with {@code EXPERIMENT_TAG}).
 */
public final class S3Devices {
  private S3Devices() {}

  /** A prefix device of the bucket and the catalogue device it is throttled and priced as. */
  record Prefix(String device, String catalogue, String storageClass) {}

  static final List<Prefix> PREFIXES =
      List.of(
          new Prefix("express", "s3-express", ""),
          new Prefix("standard", "s3-standard", "STANDARD"));

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.05;
    double divisor = args.length > 1 ? Double.parseDouble(args[1]) : 50;
    int steps = args.length > 2 ? Integer.parseInt(args[2]) : 6;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    int calibrations = args.length > 4 ? Integer.parseInt(args[4]) : 3;
    Path out = Path.of("docs/experiments");
    Path work = Path.of("mosaic-work/experiments/s3-devices").toAbsolutePath();
    long start = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "S3 devices: TPC-H SF %s, aws catalogue rates / %s, median of %d runs, load average %.2f%n",
        sf,
        divisor,
        runs,
        HdfsScans.load());
    ExperimentPool.deleteTree(work);
    try (SeaweedS3 s3 = SeaweedS3.start(work.resolve("seaweedfs"))) {
      s3.ssdFolder("bench/express");
      System.out.printf(
          Locale.ROOT,
          "  SeaweedFS up in %.1f s at %s; bench/express on ssd volumes%n",
          s3.startTime().toMillis() / 1e3,
          s3.endpoint());
      Path meta = Files.createDirectories(work.resolve("meta"));
      String toml = devicesToml(s3, meta, sf, divisor);
      List<TpchTable<?>> tables = TpchTable.getTables();
      try (ExperimentPool pool =
          ExperimentPool.create(
              work.resolve("pool"),
              sf,
              toml,
              s3.conf(),
              "standard",
              tables,
              ExperimentPool.tpchLoader(sf))) {
        System.out.printf(
            Locale.ROOT,
            "[%4.0f s] loaded TPC-H (%.1f MB zstd) on standard%n",
            HdfsScans.seconds(start),
            pool.storedBytes() / 1e6);
        List<String> ids = PREFIXES.stream().map(Prefix::device).toList();
        List<DeviceProfile> configured =
            pool.configuredProfiles().stream().filter(d -> ids.contains(d.id())).toList();
        List<DeviceProfile> profiles = HdfsScans.calibrate(pool, ids, calibrations);
        CsvFile calibration =
            new CsvFile(
                "device",
                "configured_mb_s",
                "calibrated_raw_mb_s",
                "calibrated_zstd_effective_mb_s",
                "configured_seek_ms",
                "calibrated_seek_ms");
        for (int i = 0; i < ids.size(); i++) {
          DeviceProfile c = configured.get(i);
          DeviceProfile p = profiles.get(i);
          calibration.row(
              p.id(),
              c.raw().megabytesPerSecond(),
              p.raw().megabytesPerSecond(),
              p.effective().megabytesPerSecond(),
              c.seek().nanos() / 1e6,
              p.seek().nanos() / 1e6);
        }
        calibration.write(out.resolve(ExperimentPool.outputName("s3-devices-calibration", "csv")));
        CpuModel cpu = pool.cpu();
        CostModel model = HdfsScans.model(pool, profiles, cpu);
        CostModel throttles = HdfsScans.model(pool, configured, cpu);
        Workload trace = pool.trace();
        // LOPT plans with the configured throttles, as Figure 12 does, so the placements do not
        // depend on the load while calibrating; both models predict the same placements.
        BudgetSweep.Result sweep =
            new BudgetSweep(new LoptStrategy(Duration.ofSeconds(20)), steps)
                .sweep(throttles, trace, PlacementOptions.defaults());
        System.out.printf(
            Locale.ROOT,
            "  sweep: %d Pareto points from %.4f to %.4f ct a month; warm-up run: %.2f s%n",
            sweep.points().size(),
            sweep.minimumCents(),
            sweep.saturationCents(),
            pool.run(trace).seconds());
        CsvFile csv =
            new CsvFile(
                "cost_cents_month",
                "express_share",
                "predicted_calibrated_s",
                "predicted_configured_s",
                "measured_s",
                "cpu_s",
                "load",
                "error_pct");
        List<double[]> rows = new ArrayList<>(); // {cost, calibrated, configured, measured}
        for (BudgetSweep.Point p : sweep.points()) {
          pool.migrate(p.placement());
          ExperimentPool.Measurement m = pool.median(trace, runs);
          double predicted = model.totalTime(trace, p.placement());
          double onThrottles = throttles.totalTime(trace, p.placement());
          double share = expressShare(pool, p.placement());
          double error = 100 * (predicted - m.seconds()) / m.seconds();
          rows.add(new double[] {p.costCents(), predicted, onThrottles, m.seconds()});
          csv.row(
              p.costCents(),
              share,
              predicted,
              onThrottles,
              m.seconds(),
              m.cpuSeconds(),
              m.load(),
              error);
          System.out.printf(
              Locale.ROOT,
              "[%4.0f s] %.4f ct a month (%.0f %% of the bytes on express): predicted %.2f s"
                  + " (throttles %.2f s), measured %.2f s (%+.1f%%), load %.1f%n",
              HdfsScans.seconds(start),
              p.costCents(),
              100 * share,
              predicted,
              onThrottles,
              m.seconds(),
              error,
              m.load());
        }
        csv.write(out.resolve(ExperimentPool.outputName("s3-devices", "csv")));
        double mae = 0;
        double maeThrottles = 0;
        for (double[] r : rows) {
          mae += Math.abs(r[1] - r[3]) / r[3] / rows.size();
          maeThrottles += Math.abs(r[2] - r[3]) / r[3] / rows.size();
        }
        System.out.printf(
            Locale.ROOT,
            "Mean absolute error: %.1f%% calibrated (%.1f%% on the configured throttles; paper:"
                + " 4.1%% on TPC-H)%nDone in %.0f s, load average %.2f.%n",
            100 * mae,
            100 * maeThrottles,
            HdfsScans.seconds(start),
            HdfsScans.load());
        List<SvgChart.Point> measured = new ArrayList<>();
        List<SvgChart.Point> predicted = new ArrayList<>();
        List<SvgChart.Point> onThrottles = new ArrayList<>();
        for (double[] r : rows) {
          predicted.add(new SvgChart.Point(r[0], r[1]));
          onThrottles.add(new SvgChart.Point(r[0], r[2]));
          measured.add(new SvgChart.Point(r[0], r[3]));
        }
        Files.writeString(
            out.resolve(ExperimentPool.outputName("s3-devices", "svg")),
            new SvgChart(
                    String.format(
                        Locale.ROOT,
                        "Figure 12 on two SeaweedFS prefix devices (TPC-H SF %s, MAE %.0f%%)",
                        sf,
                        100 * mae),
                    "cost of the placement, cents per month",
                    "workload scan time (s)")
                .add(new SvgChart.Series("measured", "#d62728", SvgChart.Style.LINE, measured))
                .add(
                    new SvgChart.Series(
                        "predicted (calibrated against the endpoint)",
                        "#1f77b4",
                        SvgChart.Style.DASHED_STEP,
                        predicted))
                .add(
                    new SvgChart.Series(
                        "predicted (configured throttles)",
                        "#7f7f7f",
                        SvgChart.Style.MARKERS,
                        onThrottles))
                .xy());
      }
    }
  }

  /**
   * The pool: a local metadata device that holds no column, and the {@link #PREFIXES} as folders of
   * the server's bucket, each throttled and priced as its catalogue device (read rate / divisor;
   * first byte scaled with the data as {@link ExperimentPool} scales Table 1's seeks).
   */
  static String devicesToml(SeaweedS3 s3, Path meta, double sf, double divisor) {
    Map<String, CatalogDevice> aws = new HashMap<>();
    DeviceCatalog.load("aws").forEach(d -> aws.put(d.id(), d));
    StringBuilder toml =
        new StringBuilder(
            "[[device]]\nid = \"meta\"\npath = \""
                + meta
                + "\"\ncapacity = \"10 GB\"\nthreads = 4\ncodec = \"zstd\"\n"
                + "cost_per_gb = \"20 ct\"\nmetadata = true\n");
    for (Prefix p : PREFIXES) {
      CatalogDevice d = aws.get(p.catalogue());
      double mbps = d.read().bytesPerSecond() / 1e6 / divisor;
      double seekMs = d.seek().seconds() * 1000 * sf / 30 * divisor;
      toml.append(
          String.format(
              Locale.ROOT,
              "%n[[device]]%nid = \"%s\"%nuri = \"%s\"%n%scapacity = \"10 GB\"%nthreads = %d%n"
                  + "codec = \"zstd\"%ncost_per_gb = \"%.2f ct\"%nseek = \"%.3f ms\"%n"
                  + "emulate = { read = \"%.2f MB/s\", seek = \"%.3f ms\" }%n",
              p.device(),
              s3.uri("bench/" + p.device()),
              p.storageClass().isEmpty() ? "" : "storage_class = \"" + p.storageClass() + "\"\n",
              d.threads(),
              // An installed device has one price per GB: here the catalogue's per month.
              d.costPerGb().cents(),
              seekMs,
              mbps,
              seekMs));
    }
    return toml.toString();
  }

  // The share of the stored bytes the placement puts on express.
  private static double expressShare(ExperimentPool pool, io.mosaic.model.Placement placement) {
    double all = 0;
    double express = 0;
    for (var size : pool.sizes()) {
      double bytes = size.stored(io.mosaic.config.Codec.ZSTD).orElse(size.bytes());
      all += bytes;
      if ("express".equals(placement.deviceOf().get(size.column()))) {
        express += bytes;
      }
    }
    return all == 0 ? 0 : express / all;
  }
}
