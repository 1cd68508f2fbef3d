package io.mosaic.bench.headline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mosaic.MosaicException;
import io.mosaic.config.CatalogDevice;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.device.DevicePool;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.InstalledPool;
import io.mosaic.table.MosaicTable;
import io.mosaic.warehouse.Warehouse;
import io.mosaic.workload.ColumnSizes;
import io.mosaic.workload.TraceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Java half of {@code benchmarks/headline} (docs/experiments/headline.md): the planning steps
 * the CLI has no command for. The script calls one subcommand at a time:
 *
 * <pre>
 * pool DIR DIVISOR CAPACITY      DIR/devices.toml (Table 1 / DIVISOR, emulate = the OS pool's
 *                                throttle) and DIR/catalog.toml (Table 1 / DIVISOR, for recommend)
 * inputs DEVICES WAREHOUSE OUT   OUT/trace.csv (the scans Trino recorded in namespace tpch) and
 *                                OUT/sizes.csv (the tables' real column sizes)
 * budgets SWEEP_JSON N [DIR]     N budgets (cents) spread over recommend's Pareto sweep; with DIR
 *                                also the price of Parquet alone on each faster device class
 *                                beyond the sweep (where "same time for less money" shows)
 * parquet DIR BUDGET_CENTS OUT   the two Parquet answers at a budget (see {@link ParquetAnswers})
 * report DIR CMD                 docs/experiments/headline-ENGINE.{csv,svg} (see {@link Report})
 * </pre>
 */
public final class Headline {
  private Headline() {}

  public static void main(String[] args) throws IOException {
    String command = args.length > 0 ? args[0] : "";
    try {
      switch (command) {
        case "pool" -> pool(Path.of(args[1]), Double.parseDouble(args[2]), args[3]);
        case "inputs" -> inputs(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]));
        case "budgets" ->
            budgets(
                Path.of(args[1]),
                Integer.parseInt(args[2]),
                args.length > 3 ? Path.of(args[3]) : null);
        case "parquet" ->
            ParquetAnswers.write(Path.of(args[1]), Double.parseDouble(args[2]), Path.of(args[3]));
        case "report" -> Report.write(Path.of(args[1]), args[2]);
        default -> {
          System.err.println(
              "usage: Headline pool|inputs|budgets|parquet|report ... (see the class comment)");
          System.exit(2);
        }
      }
    } catch (MosaicException e) {
      System.err.println("headline: " + e.getMessage());
      System.exit(1);
    }
  }

  /** Table 1's devices with read rates divided by {@code divisor}; prices, seeks kept. */
  static List<CatalogDevice> scaledTable1(double divisor) {
    List<CatalogDevice> scaled = new ArrayList<>();
    for (CatalogDevice d : DeviceCatalog.load("table1")) {
      scaled.add(
          new CatalogDevice(
              d.id(),
              d.name(),
              new io.mosaic.config.Bandwidth(d.read().bytesPerSecond() / divisor),
              d.seek(),
              d.threads(),
              d.codec(),
              d.costPerGb(),
              d.source() + ", read rate / " + fmt(divisor)));
    }
    return scaled;
  }

  private static void pool(Path dir, double divisor, String capacity) throws IOException {
    Path abs = dir.toAbsolutePath().normalize();
    Files.createDirectories(abs);
    StringBuilder devices =
        new StringBuilder(
            "# benchmarks/headline: the paper's Table 1 with read rates / "
                + fmt(divisor)
                + ", emulated by benchmarks/os-pool below every reader (issue 22)\n");
    StringBuilder catalog =
        new StringBuilder(
            "# benchmarks/headline: the built-in table1 catalogue with read rates / "
                + fmt(divisor)
                + " (prices, seeks and threads as in table1)\n");
    for (CatalogDevice d : scaledTable1(divisor)) {
      String rate = String.format(Locale.ROOT, "%.3f MB/s", d.read().megabytesPerSecond());
      String seek = String.format(Locale.ROOT, "%.3f ms", d.seek().nanos() / 1e6);
      String cost = String.format(Locale.ROOT, "%.3f ct", d.costPerGb().cents());
      devices.append(
          String.format(
              Locale.ROOT,
              "%n[[device]]%nid = \"%s\"%npath = \"%s\"%ncapacity = \"%s\"%nthreads = %d%n"
                  + "codec = \"%s\"%ncost_per_gb = \"%s\"%nseek = \"%s\"%n%s"
                  + "emulate = { read = \"%s\", seek = \"%s\" }%n",
              d.id(),
              abs.resolve("mnt").resolve(d.id()),
              capacity,
              d.threads(),
              d.codec().name().toLowerCase(Locale.ROOT),
              cost,
              seek,
              d.id().equals("nvme") ? "metadata = true\n" : "",
              rate,
              seek));
      catalog.append(
          String.format(
              Locale.ROOT,
              "%n[[device]]%nid = \"%s\"%nname = \"%s\"%nread = \"%s\"%nseek = \"%s\"%nthreads = %d%n"
                  + "codec = \"%s\"%ncost_per_gb = \"%s\"%nsource = \"%s\"%n",
              d.id(),
              d.name(),
              rate,
              seek,
              d.threads(),
              d.codec().name().toLowerCase(Locale.ROOT),
              cost,
              d.source()));
    }
    Files.writeString(abs.resolve("devices.toml"), devices);
    Files.writeString(abs.resolve("catalog.toml"), catalog);
    // Both read back with Mosaic's own parsers: a file the CLI would refuse must fail here.
    DeviceCatalog.load(abs.resolve("catalog.toml").toString());
    System.out.println(abs.resolve("devices.toml"));
  }

  /** The trace Trino recorded and the real column sizes of the eight tables, for the CLI. */
  private static void inputs(Path devices, Path warehouse, Path out) throws IOException {
    Warehouse w = Warehouse.open(warehouse, DevicePool.load(devices));
    List<MosaicTable> tables = new ArrayList<>();
    for (String t : w.tables("tpch")) {
      tables.add(w.open("tpch", t));
    }
    Files.createDirectories(out);
    Workload recorded = InstalledPool.workload(tables);
    TraceFile.write(out.resolve("trace.csv"), recorded);
    Files.writeString(
        out.resolve("sizes.csv"), new ColumnSizes(InstalledPool.sizes(tables)).format());
    System.out.printf(
        Locale.ROOT,
        "recorded trace: %d table scans (%d distinct) over %d tables%n",
        recorded.totalWeight(),
        recorded.scans().size(),
        tables.size());
  }

  /**
   * {@code n} budgets from {@code mosaic recommend --json}'s Pareto points: always the cheapest
   * (everything on the HDD) and the last (where more money stops helping), the rest evenly spaced
   * in cost between them, each the point nearest that cost.
   */
  private static void budgets(Path sweepJson, int n, Path dir) throws IOException {
    JsonNode doc = new ObjectMapper().readTree(sweepJson.toFile());
    List<Double> costs = new ArrayList<>();
    doc.get("points").forEach(p -> costs.add(p.get("cost_cents").asDouble()));
    costs.sort(Comparator.naturalOrder());
    if (costs.isEmpty()) {
      throw MosaicException.invalid(sweepJson + " has no points; run recommend without --budget");
    }
    double lo = costs.get(0);
    double hi = costs.get(costs.size() - 1);
    List<Double> chosen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double target = n == 1 ? lo : lo + (hi - lo) * i / (n - 1);
      double best =
          costs.stream()
              .filter(c -> !chosen.contains(c))
              .min(Comparator.comparingDouble(c -> Math.abs(c - target)))
              .orElse(target);
      chosen.add(best);
    }
    if (dir != null) {
      // The sweep stops where Mosaic saturates, usually below what Parquet alone costs on the SSD
      // or the NVMe; the paper's Figure 6 compares against those too
      // (docs/experiments/headline.md).
      Map<String, Map<String, Long>> bytes = parquetBytes(dir);
      for (CatalogDevice d : DeviceCatalog.load(dir.resolve("catalog.toml").toString())) {
        double cents = 0;
        for (Map<String, Long> perDevice : bytes.values()) {
          cents += perDevice.get(d.id()) / 1e9 * d.costPerGb().cents();
        }
        if (cents > hi) {
          chosen.add(cents);
        }
      }
    }
    chosen.stream()
        .sorted()
        .distinct()
        // Rounded up to the next 0.01 ct so the budget admits the point's own cost.
        .forEach(
            c -> System.out.println(String.format(Locale.ROOT, "%.2f", Math.ceil(c * 100) / 100)));
  }

  /** The catalogue model of DIR (scaled Table 1, real sizes, the host's CPU from calibration). */
  static CostModel catalogModel(Path dir) throws IOException {
    List<DeviceProfile> profiles = new ArrayList<>();
    ColumnSizes sizes = ColumnSizes.load(dir.resolve("sizes.csv").toString());
    for (CatalogDevice d : DeviceCatalog.load(dir.resolve("catalog.toml").toString())) {
      profiles.add(DeviceProfile.catalog(d, sizes.ratio(d.codec())));
    }
    Path model = dir.resolve("device-model.toml");
    return CostModel.of(
        profiles,
        sizes.columns(),
        Files.exists(model) ? DeviceModelFile.readCpu(model) : java.util.Optional.empty());
  }

  /** Every column of each table on that table's device. */
  static Placement tablePlacement(CostModel model, Map<String, String> deviceOfTable) {
    Map<ColumnRef, String> deviceOf = new LinkedHashMap<>();
    model.columns().forEach(c -> deviceOf.put(c, deviceOfTable.get(c.table())));
    return new Placement(deviceOf);
  }

  /** table -> device -> bytes of that table's Parquet copy on the device. */
  static Map<String, Map<String, Long>> parquetBytes(Path dir) throws IOException {
    Map<String, Map<String, Long>> bytes = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("parquet-bytes.csv"))) {
      if (line.isBlank() || line.startsWith("table,")) {
        continue;
      }
      String[] f = line.split(",");
      bytes.computeIfAbsent(f[0], t -> new TreeMap<>()).put(f[1], Long.parseLong(f[2]));
    }
    return bytes;
  }

  static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
