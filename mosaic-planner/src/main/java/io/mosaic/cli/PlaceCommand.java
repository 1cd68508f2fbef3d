package io.mosaic.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mosaic.config.ByteSize;
import io.mosaic.device.DevicePool;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.MaintenanceSyntax;
import io.mosaic.operations.PlaceRequest;
import io.mosaic.operations.PlaceResult;
import io.mosaic.placement.StrategyName;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.PlacementFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic place}: capacity mode on the installed pool (paper Section 3.4): from the tables'
 * recorded trace, their real column sizes and the calibrated device model, the placement that
 * minimises the predicted scan time (Eq. 4 under Eq. 7), and what moving there would take. The
 * request, its defaults and the result are the library's ({@link PlaceRequest},
 * docs/operations.md); this command parses options and prints.
 */
@Command(
    name = "place",
    mixinStandardHelpOptions = true,
    description = {
      "Compute where every column of the given tables should live on the installed devices, from"
          + " the scans recorded in the tables' traces (current epoch), the columns' real sizes and"
          + " the device model written by `mosaic calibrate`.",
      "Prints column -> device, bytes to move and predicted scan time before and after; --apply"
          + " migrates there (and starts a new trace epoch), --plan writes the placement for"
          + " `mosaic migrate --plan`, --json the whole plan."
    })
final class PlaceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PoolOption poolOption;

  @Mixin ConstraintOptions constraints;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "DIR|URI",
      converter = MosaicCli.Location.class,
      description =
          "A table's root directory or HDFS URI (repeat for several tables placed together).")
  List<String> tables;

  // No defaultValue: an absent option keeps PlaceRequest's default (docs/operations.md).
  @Option(
      names = "--strategy",
      paramLabel = "NAME",
      completionCandidates = StrategyNames.class,
      description =
          "${COMPLETION-CANDIDATES}: the paper's LOPT (exact MIP, the default) or one of its"
              + " baselines, HOT column and HOT table.")
  String strategy;

  /** The names {@code --strategy} takes, for its help and shell completion. */
  static final class StrategyNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return StrategyName.spellings().iterator();
    }
  }

  @Option(
      names = "--time-limit",
      paramLabel = "DURATION",
      description =
          "Time limit of the lopt solve, its local-search polish included: 10s, 2m, 500ms or"
              + " ISO-8601 PT60S (default 60s).")
  String timeLimit;

  @Option(
      names = "--apply",
      description = "Migrate the columns to the plan (default: show the plan, move nothing).")
  boolean apply;

  @Option(
      names = "--no-regression",
      paramLabel = "SLACK",
      description =
          "No recorded scan may get slower than (1 + SLACK) times its time under the reference"
              + " (paper Section 5.4): 0 forbids any slowdown, 0.1 allows 10 %%.")
  Double noRegression;

  @Option(
      names = "--no-regression-reference",
      paramLabel = "current",
      description = "What --no-regression compares against: current (the placement now, default).")
  String noRegressionReference;

  @Option(
      names = "--ranges",
      description =
          "Place row ranges of columns that the recorded scans read alike (a column's hot rows"
              + " apart from the rest; docs/row-ranges.md), not only whole columns.")
  boolean ranges;

  @Option(names = "--plan", paramLabel = "FILE", description = "Write the placement (CSV).")
  Path planFile;

  @Option(names = "--json", paramLabel = "FILE", description = "Write the plan as JSON.")
  Path jsonFile;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    Commands.checkOutput("--plan", planFile);
    Commands.checkOutput("--json", jsonFile);
    DevicePool pool = poolOption.load();
    PlaceRequest request =
        constraints
            .addTo(PlaceRequest.builder(tables))
            .strategy(strategy)
            .timeLimit(
                timeLimit == null ? null : MaintenanceSyntax.duration(timeLimit, "--time-limit"))
            .apply(apply)
            .noRegression(noRegression, noRegressionReference)
            .ranges(ranges)
            .build();
    PlaceResult result =
        new MaintenanceExecutor(pool, t -> MosaicTable.open(t, pool)).place(request);

    TextTable t =
        new TextTable("column", "now", "placed on", "stored there", "moves", "pinned", "applied");
    for (PlaceResult.ColumnRow c : result.columns()) {
      t.row(
          c.table() + "." + c.column(),
          c.currentDevice(),
          c.plannedDevice(),
          ByteSize.ofBytes(c.storedBytes()).toString(),
          c.moves() ? "yes" : "",
          c.pinned() ? "yes" : "",
          c.applied() ? "yes" : "");
    }
    double before = result.predictedSecondsBefore();
    double after = result.predictedSecondsAfter();
    out.print(t.render());
    out.printf(
        Locale.ROOT,
        "%s: %d distinct scans; predicted scan time %.3f s now, %.3f s placed (%.1f%% less); ~%s"
            + " to move%s%n",
        result.solver(),
        result.scansRecorded(),
        before,
        after,
        before > 0 ? 100 * (1 - after / before) : 0,
        ByteSize.ofBytes(result.bytesToMove()),
        Double.isNaN(result.gap())
            ? ""
            : String.format(Locale.ROOT, "; optimality gap %.2f%%", 100 * result.gap()));
    if (!Double.isNaN(result.measuredQuerySeconds())) {
      out.printf(
          Locale.ROOT,
          "as whole queries: %.3f s measured now, %.3f s predicted placed (the queries' time"
              + " outside their scans added to the predicted scans)%n",
          result.measuredQuerySeconds(),
          result.predictedQuerySecondsAfter());
    }
    out.printf(
        Locale.ROOT,
        "solved on %d of %d distinct scans; %d devices used; worst scan %s of its time now%n",
        result.scansPlanned(),
        result.scansRecorded(),
        result.devicesUsed(),
        Double.isNaN(result.worstScanRatio())
            ? "-"
            : String.format(Locale.ROOT, "%.3fx", result.worstScanRatio()));
    if (!request.apply()) {
      out.println("dry run: nothing moved (--apply migrates to this plan)");
    } else if (!result.applied()) {
      out.println("applied: already placed so, nothing moved");
    } else {
      result.columns().stream()
          .filter(PlaceResult.ColumnRow::applied)
          .map(c -> c.table() + " (new trace epoch " + c.traceEpoch() + ")")
          .distinct()
          .forEach(table -> out.println("applied: migrated " + table));
    }
    if (planFile != null) {
      PlacementFile.write(planFile, placement(result));
      out.println(
          "Wrote " + planFile + " (apply with: mosaic migrate --plan " + planFile + " ...)");
    }
    if (jsonFile != null) {
      ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
      ObjectNode root = json.createObjectNode();
      root.put("strategy", result.solver());
      root.put("predictedSecondsBefore", before);
      root.put("predictedSecondsAfter", after);
      if (!Double.isNaN(result.measuredQuerySeconds())) {
        root.put("measuredQuerySeconds", result.measuredQuerySeconds());
        root.put("predictedQuerySecondsAfter", result.predictedQuerySecondsAfter());
      }
      root.put("bytesToMove", result.bytesToMove());
      root.put("gap", Double.isNaN(result.gap()) ? null : result.gap());
      root.put("scansRecorded", result.scansRecorded());
      root.put("scansPlanned", result.scansPlanned());
      root.put("devicesUsed", result.devicesUsed());
      root.put(
          "worstScanRatio", Double.isNaN(result.worstScanRatio()) ? null : result.worstScanRatio());
      root.put("applied", result.applied());
      ObjectNode placement = root.putObject("placement");
      ObjectNode now = root.putObject("current");
      for (PlaceResult.ColumnRow c : result.columns()) {
        placement.put(c.table() + "." + c.column(), c.plannedDevice());
        now.put(c.table() + "." + c.column(), c.currentDevice());
      }
      Files.writeString(jsonFile, json.writeValueAsString(root));
      out.println("Wrote " + jsonFile);
    }
    return 0;
  }

  private static Placement placement(PlaceResult result) {
    Map<ColumnRef, String> deviceOf = new LinkedHashMap<>();
    result
        .columns()
        .forEach(c -> deviceOf.put(new ColumnRef(c.table(), c.column()), c.plannedDevice()));
    return new Placement(deviceOf);
  }
}
