package io.mosaic.bench.experiments;

import io.mosaic.calibration.DeviceCalibrator;
import io.mosaic.cli.CalibrationSample;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.Codec;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.Migrator;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.InstalledPool;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpch.CpuCalibration;
import io.mosaic.tpch.TpchTables;
import io.mosaic.workload.RangeUnits;
import io.mosaic.workload.TraceFile;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * The measured experiments' fixture: the four devices of the paper's Table 1 emulated by throttled
 * local directories (throughputs divided by {@code divisor}, seeks scaled with the data, prices as
 * in the table, zstd everywhere as in Section 5), TPC-H at a small scale factor loaded once, and
 * the three things every measured figure does with them: calibrate (Eq. 1's inputs, as {@code
 * mosaic calibrate} measures them), migrate to a placement (core's {@link Migrator}), and run the
 * workload's scans through the {@link Retriever}.
 *
 * <p>Devices are physically unbounded; the capacities of a configuration (Figure 7) live only in
 * the cost model the strategies plan with, so one loaded copy of TPC-H serves every configuration.
 */
public final class ExperimentPool implements AutoCloseable {
  /** The paper's devices in pool order (fastest first), as the built-in catalogue lists them. */
  public static final List<String> DEVICES = List.of("nvme", "ssd", "raid5", "hdd");

  /**
   * The name of an output file: {@code base}, or {@code base-TAG} when the environment sets {@code
   * EXPERIMENT_TAG}, so one figure run in two regimes (docs/experiments) keeps both results.
   */
  public static String outputName(String base, String extension) {
    String tag = System.getenv().getOrDefault("EXPERIMENT_TAG", "").trim();
    return (tag.isEmpty() ? base : base + "-" + tag) + "." + extension;
  }

  private final Path work;
  private final double sf;
  private final DevicePool pool;
  private final List<MosaicTable> tables = new ArrayList<>();
  private final Map<String, MosaicTable> byName = new LinkedHashMap<>();
  private final Retriever retriever;
  private final Workload trace = TraceFile.load("tpch");

  private ExperimentPool(Path work, double sf, DevicePool pool) {
    this.work = work;
    this.sf = sf;
    this.pool = pool;
    this.retriever = new Retriever(pool);
  }

  /**
   * Creates the pool under {@code work} (replaced), and loads the eight TPC-H tables with every
   * column on the HDD.
   */
  public static ExperimentPool create(Path work, double sf, double divisor) throws IOException {
    return create(work, sf, divisor, TpchTable.getTables(), tpchLoader(sf));
  }

  /** Loads TPC-H's generated rows at scale factor {@code sf}. */
  public static Loader tpchLoader(double sf) {
    return (t, root, pool, properties) ->
        TpchTables.load(t, sf, root, pool, properties, rows -> {});
  }

  /** Loads one TPC-H table into a new Mosaic table at {@code root}, with {@code properties}. */
  public interface Loader {
    MosaicTable load(TpchTable<?> table, Path root, DevicePool pool, Map<String, String> properties)
        throws IOException;
  }

  /**
   * Creates the pool under {@code work} (replaced), and loads {@code tables} by {@code loader} with
   * every column on the HDD.
   */
  public static ExperimentPool create(
      Path work, double sf, double divisor, List<TpchTable<?>> tpch, Loader loader)
      throws IOException {
    StringBuilder toml =
        new StringBuilder(
            String.format(
                Locale.ROOT, "# The paper's Table 1, read rates divided by %s.%n", divisor));
    for (CatalogDevice d : DeviceCatalog.load("table1")) {
      double mbps = d.read().bytesPerSecond() / 1e6 / divisor;
      // Seeks shrink with the data: at SF 30 a column chunk takes ~100x a seek to read; keeping
      // 8 ms at SF 0.05 would make seeks, not throughput, decide every figure.
      double seekMs = d.seek().seconds() * 1000 * sf / 30 * divisor;
      toml.append(
          String.format(
              Locale.ROOT,
              "%n[[device]]%nid = \"%s\"%npath = \"devices/%s\"%ncapacity = \"100 GB\"%n"
                  + "threads = %d%ncodec = \"zstd\"%ncost_per_gb = \"%d ct\"%nseek = \"%.3f ms\"%n%s"
                  + "emulate = { read = \"%.2f MB/s\", seek = \"%.3f ms\" }%n",
              d.id(),
              d.id(),
              d.threads(),
              Math.round(d.costPerGb().cents()),
              seekMs,
              d.id().equals("nvme") ? "metadata = true\n" : "",
              mbps,
              seekMs));
    }
    return create(work, sf, toml.toString(), new Configuration(), "hdd", tpch, loader);
  }

  /**
   * Creates the pool of {@code devicesToml} (its local paths relative to {@code work}, which is
   * replaced; devices on HDFS opened with {@code hadoop}), and loads {@code tpch} by {@code loader}
   * with every column on {@code device}. The tables' roots are local folders under {@code work}.
   */
  public static ExperimentPool create(
      Path work,
      double sf,
      String devicesToml,
      Configuration hadoop,
      String device,
      List<TpchTable<?>> tpch,
      Loader loader)
      throws IOException {
    deleteTree(work);
    Files.createDirectories(work);
    Path config = work.resolve("devices.toml");
    Files.writeString(config, devicesToml);
    ExperimentPool p = new ExperimentPool(work, sf, DevicePool.load(config, hadoop));
    for (TpchTable<?> t : tpch) {
      MosaicTable table =
          loader.load(
              t,
              work.resolve("tables").resolve(t.getTableName()),
              p.pool,
              Map.of(TableProperties.DEFAULT_DEVICE, device));
      p.tables.add(table);
      p.byName.put(table.name(), table);
    }
    return p;
  }

  /** The pool's devices, in configuration order. */
  public List<Device> devices() {
    return pool.devices();
  }

  public double scaleFactor() {
    return sf;
  }

  public Path work() {
    return work;
  }

  /** TPC-H's 22 queries' table scans (the planner's built-in trace, derived from Trino's plans). */
  public Workload trace() {
    return trace;
  }

  /**
   * Calibrates every device as {@code mosaic calibrate} does (raw and zstd throughput, seek), on a
   * sample of TPC-H lineitem values, and returns the cost model's device profiles with the given
   * capacities (bytes per device id; absent means unbounded).
   */
  public List<DeviceProfile> calibrate(long sampleBytes) throws IOException {
    return calibrate(sampleBytes, pool.devices().stream().map(Device::id).toList());
  }

  /** {@link #calibrate(long)} of the devices {@code ids} only, in their order. */
  public List<DeviceProfile> calibrate(long sampleBytes, List<String> ids) throws IOException {
    DeviceCalibrator calibrator =
        new DeviceCalibrator(
            CalibrationSample.generate(sampleBytes),
            new DeviceCalibrator.Options(List.of(Codec.ZSTD), 8),
            new DeviceCalibrator.Listener() {});
    List<DeviceProfile> profiles = new ArrayList<>();
    for (String id : ids) {
      Device d = pool.device(id);
      DeviceModel m = calibrator.calibrate(d);
      profiles.add(DeviceProfile.installed(d.spec(), m));
      System.out.printf(
          Locale.ROOT,
          "  calibrated %-6s raw %7.2f MB/s, zstd effective %7.2f MB/s, seek %.1f ms%n",
          d.id(),
          m.raw().megabytesPerSecond(),
          m.codecs().get(Codec.ZSTD).effective().megabytesPerSecond(),
          m.seek().nanos() / 1e6);
    }
    return profiles;
  }

  /**
   * Calibrates the host's processors as {@code mosaic calibrate} does (docs/cost-model.md):
   * decoding of zstd and uncompressed TPC-H lineitem per core, cores per scan, fixed cost per scan.
   * The sample is lineitem at the experiment's own scale, so its column chunks are as large as the
   * ones the workload decodes (a chunk's fixed work is amortised over its size).
   */
  public CpuModel cpu() throws IOException {
    return CpuCalibration.measure(
        pool,
        Math.min(sf, 1),
        List.of(Codec.NONE, Codec.ZSTD),
        CpuCalibration.DEFAULT_SECONDS_PER_FIGURE,
        new java.io.PrintWriter(System.out, true));
  }

  /**
   * The same devices as the paper's Eq. 2 alone sees them: seek and raw rate as configured, and no
   * decompression limit (effective rate far above any device). Devices without a throttle are left
   * out.
   */
  public List<DeviceProfile> configuredProfiles() {
    List<DeviceProfile> out = new ArrayList<>();
    for (Device d : pool.devices()) {
      if (d.spec().emulation().isEmpty()) {
        continue; // a device with no throttle (a metadata device holding no column)
      }
      var e = d.spec().emulation().get();
      out.add(
          new DeviceProfile(
              d.id(),
              Codec.ZSTD,
              e.seek(),
              e.read(),
              new Bandwidth(e.read().bytesPerSecond() * 1e3),
              DeviceProfile.DEFAULT_ZSTD_RATIO,
              Long.MAX_VALUE,
              d.spec().costPerGb()));
    }
    return out;
  }

  /**
   * Real sizes: uncompressed and zstd stored bytes, values and their kind ({@link
   * InstalledPool#sizes}; every device here stores zstd).
   */
  public List<ColumnSize> sizes() {
    return InstalledPool.sizes(tables);
  }

  /** Total zstd bytes of the data set: "100% of the data set size" of Section 5.3. */
  public long storedBytes() {
    return sizes().stream().mapToLong(s -> s.stored(Codec.ZSTD).orElse(s.bytes())).sum();
  }

  /** Profiles with capacities (bytes per device; missing devices get 0). */
  public static List<DeviceProfile> withCapacities(
      List<DeviceProfile> profiles, Map<String, Long> capacity) {
    return profiles.stream().map(d -> d.withCapacity(capacity.getOrDefault(d.id(), 0L))).toList();
  }

  /** Moves every column to its device in {@code placement}; returns the bytes moved. */
  public long migrate(Placement placement) throws IOException {
    long moved = 0;
    for (MosaicTable table : tables) {
      Map<String, String> target = new LinkedHashMap<>();
      placement
          .deviceOf()
          .forEach(
              (c, d) -> {
                if (c.table().equals(table.name())) {
                  target.put(c.column(), d);
                }
              });
      Migrator migrator = new Migrator(table);
      Migrator.Plan plan = migrator.plan(target);
      if (!plan.moves().isEmpty()) {
        migrator.apply(plan, new Migrator.Listener() {});
        moved += plan.bytesToRead();
      }
    }
    return moved;
  }

  /**
   * Runs every scan of {@code workload} (weights included) through the retriever, unrecorded so the
   * experiment does not grow the trace; returns its measurement (paper Section 5.1's "run").
   */
  public Measurement run(Workload workload) {
    return measure(
        () -> {
          for (DistinctScan scan : workload.scans()) {
            scanWeighted(scan);
          }
        });
  }

  /** Runs one distinct scan of a workload ({@code weight} times), unrecorded; its measurement. */
  public Measurement run(DistinctScan scan) {
    return measure(() -> scanWeighted(scan));
  }

  private void scanWeighted(DistinctScan scan) {
    List<String> columns = new ArrayList<>();
    String table = null;
    for (ColumnRef c : scan.sortedColumns()) {
      table = c.table();
      columns.add(c.column());
    }
    for (long i = 0; i < scan.weight(); i++) {
      scanAll(table, ScanRequest.of(columns).recorded(false));
    }
  }

  private void scanAll(String table, ScanRequest request) {
    try (Scan s = retriever.scan(byName.get(table), request)) {
      while (s.hasNext()) {
        s.next();
      }
    }
  }

  // Wall and CPU seconds of `work`, with the load average at its end.
  private static Measurement measure(Runnable work) {
    var os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long start = System.nanoTime();
    work.run();
    return new Measurement(
        (System.nanoTime() - start) / 1e9,
        (os.getProcessCpuTime() - cpu) / 1e9,
        os.getSystemLoadAverage());
  }

  /** The loaded tables, in load order. */
  public List<MosaicTable> tables() {
    return List.copyOf(tables);
  }

  /**
   * Runs scans that read only some row groups (as min/max skipping leaves them; the recency-skewed
   * workload of docs/row-ranges.md), weights included, unrecorded; each reads its row groups from
   * the first to the last it names.
   */
  public Measurement runRanges(List<RangeUnits.RangeScan> scans) {
    return measure(
        () -> {
          for (RangeUnits.RangeScan scan : scans) {
            int from = scan.rowGroups().stream().mapToInt(Integer::intValue).min().orElseThrow();
            int to = scan.rowGroups().stream().mapToInt(Integer::intValue).max().orElseThrow() + 1;
            ScanRequest request =
                ScanRequest.of(scan.columns().stream().sorted().toList())
                    .rowGroups(from, to)
                    .recorded(false);
            for (long i = 0; i < scan.weight(); i++) {
              scanAll(scan.table(), request);
            }
          }
        });
  }

  /**
   * One run of the workload: wall seconds (the figure), the JVM's CPU seconds meanwhile (decoding
   * and decompression, which Eq. 2-4 do not model), and the machine's load average at the end
   * (other builders share these 2 cores).
   */
  public record Measurement(double seconds, double cpuSeconds, double load) {}

  /**
   * The run of median wall time among {@code runs} runs of {@code workload}: on a shared machine
   * one run slowed by a collection or a neighbour does not move the figure.
   */
  public Measurement median(Workload workload, int runs) {
    List<Measurement> all = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      all.add(run(workload));
    }
    all.sort(Comparator.comparingDouble(Measurement::seconds));
    return all.get(runs / 2);
  }

  @Override
  public void close() {
    retriever.close();
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
