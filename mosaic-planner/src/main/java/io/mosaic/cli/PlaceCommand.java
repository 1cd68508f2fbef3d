package io.mosaic.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.device.ByteSize;
import io.mosaic.device.DevicePool;
import io.mosaic.model.Placement;
import io.mosaic.model.Prediction;
import io.mosaic.placement.InstalledPlan;
import io.mosaic.placement.PlacementResult;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.PlacementFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
      description =
          "Time limit of the lopt solve, its local-search polish included (ISO-8601, default"
              + " ${DEFAULT-VALUE}).")
  Duration timeLimit;

  @Option(names = "--plan", paramLabel = "FILE", description = "Write the placement (CSV).")
  Path planFile;

  @Option(names = "--json", paramLabel = "FILE", description = "Write the plan as JSON.")
  Path jsonFile;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    DevicePool pool = poolOption.load();
    List<MosaicTable> open = new ArrayList<>();
    for (Path t : tables) {
      open.add(MosaicTable.open(t, pool));
    }
    InstalledPlan plan =
        InstalledPlan.compute(pool, open, InstalledPlan.strategy(strategy, timeLimit));
    PlacementResult result = plan.result();
    Placement current = plan.current();
    Prediction before = plan.before();
    Prediction after = result.prediction();

    TextTable t = new TextTable("column", "now", "placed on", "stored there", "moves");
    for (InstalledPlan.ColumnPlan c : plan.columns()) {
      t.row(
          c.column().toString(),
          c.from(),
          c.to(),
          ByteSize.ofBytes(c.storedBytes()).toString(),
          c.moves() ? "yes" : "");
    }
    long moved = plan.bytesToMove();
    out.print(t.render());
    out.printf(
        Locale.ROOT,
        "%s: %d distinct scans; predicted scan time %.3f s now, %.3f s placed (%.1f%% less); ~%s"
            + " to move%s%n",
        result.strategy(),
        plan.scans(),
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
}
