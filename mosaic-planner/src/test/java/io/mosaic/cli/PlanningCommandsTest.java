package io.mosaic.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.ortools.modelbuilder.ModelBuilder;
import com.google.ortools.modelbuilder.ModelSolver;
import com.google.ortools.modelbuilder.SolveStatus;
import io.mosaic.config.DeviceCatalog;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Workload;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.workload.ColumnSizes;
import io.mosaic.workload.PlacementFile;
import io.mosaic.workload.TraceFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The planning commands end to end, on the shipped TPC-H trace and sizes and paper Table 1. */
class PlanningCommandsTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private PrintWriter o() {
    return new PrintWriter(out, true);
  }

  private PrintWriter e() {
    return new PrintWriter(err, true);
  }

  private static final String[] TPCH = {
    "--catalog", "table1", "--trace", "tpch", "--sizes", "tpch-sf1"
  };

  /**
   * The TPC-H trace and SF 1 sizes scaled to SF 100 and cut down to the supplier, nation and region
   * tables: real scans and sizes, small enough for SCIP to sweep in seconds (the full trace is a
   * benchmark, see docs/planner-benchmarks.md).
   */
  private String[] small() throws IOException {
    Set<String> tables = Set.of("supplier", "nation", "region");
    Workload trace =
        new Workload(
            TraceFile.load("tpch").scans().stream()
                .filter(s -> tables.contains(s.columns().iterator().next().table()))
                .toList());
    ColumnSizes sizes =
        new ColumnSizes(
            ColumnSizes.load("tpch-sf100").columns().stream()
                .filter(c -> tables.contains(c.column().table()))
                .toList());
    Path traceFile = dir.resolve("small.trace");
    Path sizesFile = dir.resolve("small.csv");
    TraceFile.write(traceFile, trace);
    Files.writeString(sizesFile, sizes.format());
    return new String[] {
      "--catalog", "table1", "--trace", traceFile.toString(), "--sizes", sizesFile.toString()
    };
  }

  private static String[] with(String[] base, String... more) {
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  void everyCommandHasHelp() {
    assertThat(RecommendCommand.run(new String[] {"--help"}, o(), e())).isZero();
    assertThat(PredictCommand.run(new String[] {"--help"}, o(), e())).isZero();
    assertThat(ExportMipCommand.run(new String[] {"--help"}, o(), e())).isZero();
    assertThat(ImportSolutionCommand.run(new String[] {"--help"}, o(), e())).isZero();
    assertThat(out.toString())
        .contains(
            "Usage: recommend", "Usage: predict", "Usage: export-mip", "Usage: import-solution");
  }

  @Test
  void sweepWritesTableJsonAndChart() throws IOException {
    Path json = dir.resolve("r.json");
    Path chart = dir.resolve("r.html");
    int status =
        RecommendCommand.run(
            with(small(), "--steps", "4", "--json", json.toString(), "--chart", chart.toString()),
            o(),
            e());
    assertThat(status).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("table scans", "distinct) over 14 columns", "Cheapest feasible budget");
    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    JsonNode points = doc.get("points");
    assertThat(points.size()).isGreaterThanOrEqualTo(2);
    for (int i = 1; i < points.size(); i++) {
      assertThat(points.get(i).get("predicted_seconds").asDouble())
          .isLessThan(points.get(i - 1).get("predicted_seconds").asDouble());
    }
    assertThat(points.get(0).get("cost_cents").asDouble())
        .isCloseTo(doc.get("minimum_budget_cents").asDouble(), offset(1e-6));
    String html = Files.readString(chart);
    assertThat(html).contains("<svg", "more budget does not help", "hdd GB");
    assertThat(Pattern.compile("<circle").matcher(html).results().count()).isEqualTo(points.size());
  }

  @Test
  void recommendOnAwsPricesAMonthWithRequestsAndRetrieval() throws IOException {
    String[] aws = small();
    aws[1] = "aws";
    Path json = dir.resolve("aws.json");
    Path chart = dir.resolve("aws.html");
    int status =
        RecommendCommand.run(
            with(
                aws,
                "--steps",
                "3",
                "--runs-per-month",
                "1000",
                "--json",
                json.toString(),
                "--chart",
                chart.toString()),
            o(),
            e());
    assertThat(status).as(err.toString()).isZero();
    String text = out.toString();
    assertThat(text)
        .contains(
            "devices: s3-standard, s3-standard-ia, s3-onezone-ia, s3-glacier-ir, s3-express,"
                + " ebs-gp3, ebs-io2, ebs-st1, ebs-sc1, nvme-i4i",
            "for the trace run 1000 times a month (--runs-per-month)",
            "cost per month",
            "/month, ")
        .containsPattern("Cheapest feasible budget: \\$\\d+\\.\\d+/month")
        .containsPattern("storage \\$[0-9.]+/month, requests \\$[0-9.]+/month, retrieval")
        .containsPattern("\\n  [a-z0-9-]+: (supplier|nation|region)\\.");
    JsonNode doc = new ObjectMapper().readTree(json.toFile());
    assertThat(doc.get("per_month").asBoolean()).isTrue();
    assertThat(doc.get("runs_per_month").asDouble()).isEqualTo(1000);
    for (JsonNode p : doc.get("points")) {
      assertThat(
              p.get("storage_cents").asDouble()
                  + p.get("request_cents").asDouble()
                  + p.get("retrieval_cents").asDouble())
          .isCloseTo(p.get("cost_cents").asDouble(), offset(1e-6));
    }
    // The cheapest point, by hand from its placement: what the model charges a month.
    CostModel model =
        CostModel.of(
                DeviceCatalog.load("aws").stream()
                    .map(d -> DeviceProfile.catalog(d, ColumnSizes.load(aws[5]).ratio(d.codec())))
                    .toList(),
                ColumnSizes.load(aws[5]).columns())
            .withMonthlyReads(TraceFile.load(aws[3]), 1000);
    JsonNode first = doc.get("points").get(0);
    java.util.Map<io.mosaic.model.ColumnRef, String> placed = new java.util.HashMap<>();
    first
        .get("placement")
        .properties()
        .forEach(
            en -> placed.put(io.mosaic.model.ColumnRef.parse(en.getKey()), en.getValue().asText()));
    assertThat(model.cost(new io.mosaic.model.Placement(placed)))
        .isCloseTo(first.get("cost_cents").asDouble(), offset(1e-6))
        .isCloseTo(doc.get("minimum_budget_cents").asDouble(), offset(1e-6));
    String html = Files.readString(chart);
    assertThat(html)
        .contains("money per month", "cost per month: storage, requests and retrieval", "/month")
        .doesNotContain(" ct<");

    // One monthly budget, then predict prices the same placement the same way.
    Path placement = dir.resolve("aws.csv");
    out.getBuffer().setLength(0);
    String[] monthly = with(aws, "--runs-per-month", "1000");
    status =
        RecommendCommand.run(
            with(monthly, "--budget", "0.03 USD", "--placement-out", placement.toString()),
            o(),
            e());
    assertThat(status).as(err.toString()).isZero();
    Matcher cost =
        Pattern.compile("\\n(\\$[0-9.]+/month), [0-9.]+ s: storage").matcher(out.toString());
    assertThat(cost.find()).as(out.toString()).isTrue();
    out.getBuffer().setLength(0);
    status = PredictCommand.run(with(monthly, "--placement", placement.toString()), o(), e());
    assertThat(status).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("Cost (Eq. 5 per month, the trace run 1000 times a month): " + cost.group(1));

    // A catalogue priced once has no month to run the trace in.
    out.getBuffer().setLength(0);
    assertThat(RecommendCommand.run(with(small(), "--runs-per-month", "10"), o(), e())).isNotZero();
    assertThat(err.toString()).contains("--runs-per-month prices a month's reads");
  }

  @Test
  void oneBudgetThenPredictAgree() throws IOException {
    Path placement = dir.resolve("p.csv");
    int status =
        RecommendCommand.run(
            with(small(), "--budget", "3 EUR", "--placement-out", placement.toString()), o(), e());
    assertThat(status).as(err.toString()).isZero();
    double recommended = seconds(out.toString(), "(\\d+\\.\\d+) s\\s");
    out.getBuffer().setLength(0);

    status = PredictCommand.run(with(small(), "--placement", placement.toString()), o(), e());
    assertThat(status).as(err.toString()).isZero();
    assertThat(seconds(out.toString(), "Predicted scan time: (\\d+\\.\\d+) s"))
        .isCloseTo(recommended, offset(0.0011));
  }

  @Test
  void recommendBuysTheColdDeviceAndPredictReportsItsSwitches() throws IOException {
    String[] withCsd = small();
    withCsd[1] = "table1,csd";
    Path placement = dir.resolve("cold.csv");
    // Twice the cheapest purchase (everything on the csd at 10 ct/GB): the warm devices cost at
    // least 30 ct/GB, so some columns must stay on the csd.
    var sizes = ColumnSizes.load(withCsd[5]);
    double cheapest =
        io.mosaic.placement.BudgetSweep.minimumBudgetCents(
            io.mosaic.model.CostModel.of(
                io.mosaic.config.DeviceCatalog.load("table1,csd").stream()
                    .map(d -> io.mosaic.model.DeviceProfile.catalog(d, sizes.ratio(d.codec())))
                    .toList(),
                sizes.columns()));
    String budget = String.format(java.util.Locale.ROOT, "%.2f ct", 2 * cheapest);
    int status =
        RecommendCommand.run(
            with(withCsd, "--budget", budget, "--placement-out", placement.toString()), o(), e());
    assertThat(status).as(err.toString()).isZero();
    assertThat(out.toString()).contains("devices: nvme, ssd, raid5, hdd, csd", "csd GB");
    double recommended = seconds(out.toString(), "(\\d+\\.\\d+) s\\s");
    assertThat(PlacementFile.read(placement).columnsOn("csd")).isNotEmpty();
    out.getBuffer().setLength(0);

    status = PredictCommand.run(with(withCsd, "--placement", placement.toString()), o(), e());
    assertThat(status).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Expected group switches of cold devices: ");
    assertThat(seconds(out.toString(), "Predicted scan time: (\\d+\\.\\d+) s"))
        .isCloseTo(recommended, offset(0.0011));
  }

  @Test
  void recommendTakesPinsADeviceCapAndASample() throws IOException {
    Path placement = dir.resolve("p.csv");
    int status =
        RecommendCommand.run(
            with(
                small(),
                "--budget",
                "3 EUR",
                "--pin",
                "s_comment=hdd",
                "--max-devices",
                "2",
                "--sample",
                "0.5",
                "--seed",
                "3",
                "--time-limit",
                "30s",
                "--placement-out",
                placement.toString()),
            o(),
            e());
    assertThat(status).as(err.toString()).isZero();
    var deviceOf = PlacementFile.read(placement).deviceOf();
    assertThat(deviceOf.get(new io.mosaic.model.ColumnRef("supplier", "s_comment")))
        .isEqualTo("hdd");
    assertThat(Set.copyOf(deviceOf.values())).hasSizeLessThanOrEqualTo(2);

    status =
        RecommendCommand.run(with(small(), "--budget", "3 EUR", "--pin", "nope=hdd"), o(), e());
    assertThat(status).isNotZero();
    assertThat(err.toString())
        .contains("pin 'nope=hdd' names no column of the tables being placed");
  }

  @Test
  void localSearchRecommendsWithinItsGap() throws IOException {
    int status =
        RecommendCommand.run(
            with(small(), "--budget", "3 EUR", "--strategy", "local", "--time-limit", "5"),
            o(),
            e());
    assertThat(status).as(err.toString()).isZero();
    double local = seconds(out.toString(), "(\\d+\\.\\d+) s\\s");
    out.getBuffer().setLength(0);
    assertThat(RecommendCommand.run(with(small(), "--budget", "3 EUR"), o(), e())).isZero();
    double exact = seconds(out.toString(), "(\\d+\\.\\d+) s\\s");
    assertThat(local).isGreaterThanOrEqualTo(exact - 0.0011);
  }

  @Test
  void userErrorsSayWhatToDo() throws IOException {
    // Not found is exit code 3, a budget too small for any placement 7 (docs/README.md, "Errors").
    assertThat(RecommendCommand.run(with(TPCH, "--budget", "1 ct"), o(), e())).isEqualTo(7);
    assertThat(err.toString()).contains("budget 1 ct is below it", "the minimum budget is");

    Path empty = dir.resolve("empty.trace");
    Files.writeString(empty, "[[trace]]\n");
    String[] emptyArgs = {
      "--catalog", "table1", "--trace", empty.toString(), "--sizes", "tpch-sf1"
    };
    assertThat(RecommendCommand.run(emptyArgs, o(), e())).isEqualTo(1);
    assertThat(err.toString()).contains("has no table scans");

    Path unknown = dir.resolve("unknown.trace");
    Files.writeString(unknown, "[[trace]]\nlineitem:l_quantity,l_colour\n");
    String[] unknownArgs = {
      "--catalog", "table1", "--trace", unknown.toString(), "--sizes", "tpch-sf1"
    };
    assertThat(RecommendCommand.run(unknownArgs, o(), e())).isEqualTo(3);
    assertThat(err.toString()).contains("trace names unknown column lineitem.l_colour");
  }

  /**
   * Export MPS, solve it with our own exact path after re-import (as Gurobi or HiGHS would), write
   * the solution as a {@code .sol} file, import it: same objective as LOPT.
   */
  @Test
  void exportedMpsSolvedElsewhereImportsToTheSameObjective() throws IOException {
    Path mps = dir.resolve("lopt.mps");
    String[] args = with(small(), "--budget", "3 EUR");
    assertThat(ExportMipCommand.run(with(args, "--format", "mps", "-o", mps.toString()), o(), e()))
        .as(err.toString())
        .isZero();

    ModelBuilder imported = new ModelBuilder();
    assertThat(imported.importFromMpsString(Files.readString(mps))).isTrue();
    ModelSolver scip = new ModelSolver("scip");
    assertThat(scip.solve(imported)).isEqualTo(SolveStatus.OPTIMAL);
    StringBuilder sol = new StringBuilder("# Solution for model mosaic_lopt\n");
    sol.append(String.format(Locale.ROOT, "# Objective value = %.9f%n", scip.getObjectiveValue()));
    for (int i = 0; i < imported.numVariables(); i++) {
      var v = imported.varFromIndex(i);
      sol.append(v.getName()).append(' ').append(scip.getValue(v)).append('\n');
    }
    Path solFile = dir.resolve("lopt.sol");
    Files.writeString(solFile, sol);
    Path placement = dir.resolve("p.csv");
    int status =
        ImportSolutionCommand.run(
            with(args, solFile.toString(), "-o", placement.toString()), o(), e());
    assertThat(status).as(err.toString()).isZero();

    ColumnSizes sizes = ColumnSizes.load(args[5]);
    CostModel model =
        CostModel.of(
            DeviceCatalog.load("table1").stream()
                .map(d -> DeviceProfile.catalog(d, sizes.ratio(d.codec())))
                .toList(),
            sizes.columns());
    Workload trace = TraceFile.load(args[3]);
    PlacementResult lopt =
        new LoptStrategy(LoptStrategy.DEFAULT_TIME_LIMIT, 0)
            .place(PlacementProblem.budget(model, trace, 300));
    double imported_ = model.totalTime(trace, PlacementFile.read(placement));
    // The re-imported model is solved to SCIP's default relative gap (1e-4), from MPS text.
    assertThat(imported_).isCloseTo(lopt.objective(), offset(1e-4 * lopt.objective()));
    assertThat(scip.getObjectiveValue()).isCloseTo(imported_, offset(1e-4 * lopt.objective()));
    assertThat(model.cost(PlacementFile.read(placement))).isLessThanOrEqualTo(300 * (1 + 1e-9));
  }

  @Test
  void cbcStyleSolutionsAreReadToo() throws IOException {
    // CBC prints "index name value reduced-cost" for non-zero variables only.
    Path mps = dir.resolve("m.lp");
    String[] small = with(small(), "--budget", "3 EUR");
    assertThat(ExportMipCommand.run(with(small, "--format", "lp", "-o", mps.toString()), o(), e()))
        .as(err.toString())
        .isZero();
    assertThat(Files.readString(mps)).contains("I_hdd_supplier.s_comment");
    Path sol = dir.resolve("cbc.sol");
    Files.writeString(sol, "Infeasible - objective value 0.00000000\n");
    // Infeasible is exit code 7 (docs/README.md, "Errors").
    assertThat(ImportSolutionCommand.run(with(small, sol.toString()), o(), e())).isEqualTo(7);
    assertThat(err.toString()).contains("found the model infeasible");
  }

  private static double seconds(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(text).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
