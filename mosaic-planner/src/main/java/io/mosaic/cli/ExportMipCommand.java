package io.mosaic.cli;

import io.mosaic.config.Cost;
import io.mosaic.model.CostModel;
import io.mosaic.model.Workload;
import io.mosaic.placement.LoptFormulation;
import io.mosaic.placement.PlacementProblem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic export-mip}: LOPT's MIP (paper Section 4.5) exactly as Mosaic solves it, as MPS or
 * LP for Gurobi, HiGHS or CBC; {@code mosaic import-solution} reads their answer back.
 */
@Command(
    name = "export-mip",
    mixinStandardHelpOptions = true,
    description = {
      "Export LOPT's mixed-integer program (paper Section 4.5) as MPS or LP, for Gurobi, HiGHS"
          + " or CBC.",
      "Solve it there, then read the solution back with `mosaic import-solution` and the same"
          + " --catalog/--devices, --trace, --sizes and --budget."
    })
public final class ExportMipCommand implements Callable<Integer> {
  enum Format {
    mps,
    lp
  }

  @Spec CommandSpec spec;

  @Mixin PlanningInputs inputs;

  @Option(
      names = "--format",
      defaultValue = "mps",
      description = "mps or lp (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(
      names = "--budget",
      paramLabel = "COST",
      description = "Budget mode (Eq. 8), e.g. \"350 ct\"; without it, capacity mode (Eq. 7).")
  String budget;

  @Option(
      names = {"--out", "-o"},
      required = true,
      paramLabel = "FILE",
      description = "Where to write the model.")
  Path out;

  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return Commands.run(new ExportMipCommand(), args, out, err);
  }

  @Override
  public Integer call() throws IOException {
    PlacementProblem problem = problem(inputs, budget);
    LoptFormulation mip = LoptFormulation.of(problem);
    Files.writeString(out, format == Format.mps ? mip.exportMps() : mip.exportLp());
    spec.commandLine()
        .getOut()
        .printf(
            "Wrote %s (%s): %d variables, %d constraints%n",
            out, format, mip.model().numVariables(), mip.model().numConstraints());
    return 0;
  }

  /** The problem both export and import build, so variable names match. */
  static PlacementProblem problem(PlanningInputs inputs, String budget) {
    Workload workload = inputs.workload();
    CostModel model = inputs.costModel(workload);
    Double cents = budget == null ? null : Cost.parse(budget).cents();
    return inputs.problem(model, workload, cents);
  }
}
