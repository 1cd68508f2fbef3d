package io.mosaic.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.device.ByteSize;
import io.mosaic.device.Codec;
import io.mosaic.device.Device;
import io.mosaic.device.DeviceConfigException;
import io.mosaic.device.DeviceModel;
import io.mosaic.device.DeviceModelFile;
import io.mosaic.device.DevicePool;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Prediction;
import io.mosaic.model.Workload;
import io.mosaic.placement.HotColumnStrategy;
import io.mosaic.placement.HotTableStrategy;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.placement.PlacementStrategy;
import io.mosaic.table.ColumnSpec;
import io.mosaic.table.Manifest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.SegmentEntry;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import io.mosaic.workload.PlacementFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic place}: capacity mode on the installed pool (paper Section 3.4): from the tables'
 * recorded trace, their real column sizes and the calibrated device model, the placement that
 * minimises the predicted scan time (Eq. 4 under Eq. 7), and what moving there would take.
 */
@Command(
    name = "place",
    mixinStandardHelpOptions = true,
    description = {
      "Compute where every column of the given tables should live on the installed devices, from"
          + " the scans recorded in the tables' traces (current epoch), the columns' real sizes and"
          + " the device model written by `mosaic calibrate`.",
      "Prints column -> device, bytes to move and predicted scan time before and after; --plan"
          + " writes the placement for `mosaic migrate --plan`, --json the whole plan."
    })
final class PlaceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PoolOption poolOption;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "DIR",
      description = "A table's root directory (repeat for several tables placed together).")
  List<Path> tables;

  @Option(
      names = "--strategy",
      defaultValue = "lopt",
      paramLabel = "NAME",
      description = "lopt (exact MIP, default), hot-column or hot-table (the paper's baselines).")
  String strategy;

  @Option(
      names = "--time-limit",
      defaultValue = "PT60S",
      paramLabel = "DURATION",
      description = "Solver time limit for lopt (ISO-8601, default ${DEFAULT-VALUE}).")
  Duration timeLimit;

  @Option(names = "--plan", paramLabel = "FILE", description = "Write the placement (CSV).")
  Path planFile;

  @Option(names = "--json", paramLabel = "FILE", description = "Write the plan as JSON.")
  Path jsonFile;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    DevicePool pool = poolOption.load();
    CostModel model = CostModel.of(profiles(pool), sizes(pool));
    Workload workload = workload(pool);
    Placement current = currentPlacement(pool);
    PlacementResult result = strategy().place(PlacementProblem.capacity(model, workload));
    Prediction before = model.predict(workload, current);
    Prediction after = result.prediction();

    TextTable t = new TextTable("column", "now", "placed on", "stored there", "moves");
    long moved = 0;
    for (Map.Entry<ColumnRef, String> e : result.placement().deviceOf().entrySet()) {
      String now = current.deviceOf().get(e.getKey());
      long bytes = model.storedBytes(model.device(e.getValue()), e.getKey());
      boolean moves = !e.getValue().equals(now);
      moved += moves ? bytes : 0;
      t.row(
          e.getKey().toString(),
          now,
          e.getValue(),
          ByteSize.ofBytes(bytes).toString(),
          moves ? "yes" : "");
    }
    out.print(t.render());
    out.printf(
        Locale.ROOT,
        "%s: %d distinct scans; predicted scan time %.3f s now, %.3f s placed (%.1f%% less); ~%s"
            + " to move%s%n",
        result.strategy(),
        workload.scans().size(),
        before.totalSeconds(),
        after.totalSeconds(),
        before.totalSeconds() > 0 ? 100 * (1 - after.totalSeconds() / before.totalSeconds()) : 0,
        ByteSize.ofBytes(moved),
        Double.isNaN(result.gap())
            ? ""
            : String.format(Locale.ROOT, "; optimality gap %.2f%%", 100 * result.gap()));
    if (planFile != null) {
      PlacementFile.write(planFile, result.placement());
      out.println(
          "Wrote " + planFile + " (apply with: mosaic migrate --plan " + planFile + " ...)");
    }
    if (jsonFile != null) {
      ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
      ObjectNode root = json.createObjectNode();
      root.put("strategy", result.strategy());
      root.put("predictedSecondsBefore", before.totalSeconds());
      root.put("predictedSecondsAfter", after.totalSeconds());
      root.put("bytesToMove", moved);
      root.put("gap", Double.isNaN(result.gap()) ? null : result.gap());
      ObjectNode placement = root.putObject("placement");
      result.placement().deviceOf().forEach((c, d) -> placement.put(c.toString(), d));
      ObjectNode now = root.putObject("current");
      current.deviceOf().forEach((c, d) -> now.put(c.toString(), d));
      Files.writeString(jsonFile, json.writeValueAsString(root));
      out.println("Wrote " + jsonFile);
    }
    return 0;
  }

  private PlacementStrategy strategy() {
    return switch (strategy) {
      case "lopt" -> new LoptStrategy(timeLimit);
      case "hot-column" -> new HotColumnStrategy();
      case "hot-table" -> new HotTableStrategy();
      default ->
          throw new IllegalArgumentException(
              "--strategy " + strategy + ": unknown; use lopt, hot-column or hot-table");
    };
  }

  private static List<DeviceProfile> profiles(DevicePool pool) throws IOException {
    Map<String, DeviceModel> models;
    try {
      models = DeviceModelFile.read(pool.modelFile());
    } catch (DeviceConfigException e) {
      throw new IllegalArgumentException(
          "no usable device model for "
              + pool.configFile()
              + ": "
              + e.getMessage().strip()
              + "; run `mosaic calibrate --devices "
              + pool.configFile()
              + "` first",
          e);
    }
    List<DeviceProfile> profiles = new ArrayList<>();
    for (Device d : pool.devices()) {
      DeviceModel m = models.get(d.id());
      if (m == null) {
        throw new IllegalArgumentException(
            "device '"
                + d.id()
                + "' has no entry in "
                + pool.modelFile()
                + "; run `mosaic calibrate --devices "
                + pool.configFile()
                + " --device "
                + d.id()
                + "`");
      }
      profiles.add(DeviceProfile.installed(d.spec(), m));
    }
    return profiles;
  }

  private List<MosaicTable> open(DevicePool pool) {
    List<MosaicTable> open = new ArrayList<>();
    for (Path t : tables) {
      open.add(MosaicTable.open(t, pool));
    }
    return open;
  }

  /** Real sizes: uncompressed bytes, and the stored bytes of a codec all its segments use. */
  private List<ColumnSize> sizes(DevicePool pool) {
    List<ColumnSize> sizes = new ArrayList<>();
    for (MosaicTable table : open(pool)) {
      Manifest m = table.latest();
      for (ColumnSpec c : m.schema().columns()) {
        List<SegmentEntry> segments = m.segmentsOf(c.name());
        long raw = segments.stream().mapToLong(SegmentEntry::uncompressedBytes).sum();
        Set<Codec> codecs = new LinkedHashSet<>();
        segments.forEach(s -> codecs.add(s.codec()));
        Map<Codec, Long> stored = new EnumMap<>(Codec.class);
        if (codecs.size() == 1) {
          stored.put(
              codecs.iterator().next(),
              segments.stream().mapToLong(SegmentEntry::compressedBytes).sum());
        }
        sizes.add(new ColumnSize(new ColumnRef(table.name(), c.name()), Math.max(raw, 1), stored));
      }
    }
    return sizes;
  }

  private Workload workload(DevicePool pool) {
    List<DistinctScan> scans = new ArrayList<>();
    for (MosaicTable table : open(pool)) {
      TraceLog log = new TraceLog(table.root());
      for (TraceRecord r : log.read(log.epoch())) {
        Set<ColumnRef> columns = new LinkedHashSet<>();
        r.columns().forEach(c -> columns.add(new ColumnRef(table.name(), c)));
        if (!columns.isEmpty()) {
          scans.add(new DistinctScan(columns, 1));
        }
      }
    }
    if (scans.isEmpty()) {
      throw new IllegalArgumentException(
          "no scans recorded in the current trace epoch of "
              + tables
              + "; run the workload first (every scan is recorded), then place");
    }
    return Workload.merging(scans);
  }

  private Placement currentPlacement(DevicePool pool) {
    Map<ColumnRef, String> now = new LinkedHashMap<>();
    for (MosaicTable table : open(pool)) {
      Manifest m = table.latest();
      for (ColumnSpec c : m.schema().columns()) {
        List<SegmentEntry> segments = m.segmentsOf(c.name());
        String device =
            segments.isEmpty()
                ? pool.devices().get(0).id()
                : segments.get(segments.size() - 1).device();
        now.put(new ColumnRef(table.name(), c.name()), device);
      }
    }
    return new Placement(now);
  }
}
