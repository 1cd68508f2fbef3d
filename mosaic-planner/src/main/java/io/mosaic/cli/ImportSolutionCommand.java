package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.model.Placement;
import io.mosaic.model.Prediction;
import io.mosaic.placement.LoptFormulation;
import io.mosaic.placement.MipSolution;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.workload.PlacementFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic import-solution}: an external solver's answer to the exported MIP as a placement.
 */
@Command(
    name = "import-solution",
    mixinStandardHelpOptions = true,
    description = {
      "Read a Gurobi, HiGHS, SCIP or CBC solution of the model `mosaic export-mip` wrote, and turn"
          + " it into a placement.",
      "Give the same --catalog/--devices, --trace, --sizes and --budget as to export-mip."
    })
public final class ImportSolutionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PlanningInputs inputs;

  @Parameters(index = "0", paramLabel = "SOLUTION", description = "The solver's solution file.")
  Path solution;

  @Option(names = "--budget", paramLabel = "COST", description = "As given to export-mip.")
  String budget;

  @Option(
      names = {"--out", "-o"},
      paramLabel = "FILE",
      description = "Write the placement (table,column,device) here, for `predict`.")
  Path out;

  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Commands.run(new ImportSolutionCommand(), args, out, err);
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter print = spec.commandLine().getOut();
    PlacementProblem problem = ExportMipCommand.problem(inputs, budget);
    LoptFormulation mip = LoptFormulation.of(problem);
    String text;
    try {
      text = Files.readString(solution);
    } catch (NoSuchFileException e) {
      throw MosaicException.notFound("solution file " + solution + " does not exist");
    }
    Placement placement = MipSolution.parse(text, solution.toString(), mip).placement(problem, mip);
    Prediction prediction = problem.model().predict(problem.workload(), placement);
    print.printf(
        Locale.ROOT,
        "Objective (Eq. 4): %.6f s predicted scan time; cost (Eq. 5) %s%n",
        problem.model().totalTime(problem.solveWorkload(), placement),
        inputs.money().format(prediction.costCents()));
    TextTable table = new TextTable("device", "GB", "columns");
    for (Map.Entry<String, Long> e : prediction.bytesPerDevice().entrySet()) {
      table.row(
          e.getKey(),
          Commands.gb(e.getValue()),
          String.valueOf(placement.columnsOn(e.getKey()).size()));
    }
    print.print(table.render());
    // Another solver's tolerances are not ours: check Eq. 7 and Eq. 8 exactly and say so.
    if (problem.mode() instanceof PlacementMode.Budget b
        && prediction.costCents() > b.budgetCents() * (1 + 1e-9)) {
      print.printf(
          Locale.ROOT,
          "warning: the placement costs %s, over the budget of %s (solver tolerance?)%n",
          inputs.money().format(prediction.costCents()),
          inputs.money().format(b.budgetCents()));
    }
    problem.model().devices().stream()
        .filter(d -> prediction.bytesPerDevice().get(d.id()) > problem.limitBytes(d))
        .forEach(
            d ->
                print.printf(
                    Locale.ROOT,
                    "warning: '%s' would hold %s GB, over its %s GB%n",
                    d.id(),
                    Commands.gb(prediction.bytesPerDevice().get(d.id())),
                    Commands.gb(problem.limitBytes(d))));
    if (out != null) {
      PlacementFile.write(out, placement);
      print.println("Wrote " + out);
    }
    return 0;
  }
}
