package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A solution file another MIP solver wrote for the model {@link LoptFormulation} exported, read
 * back into a placement, so a commercial solver (the paper used Gurobi) can stand in for SCIP
 * ({@code mosaic import-solution}).
 *
 * <p>Understands the common plain-text layouts, by looking for the model's own variable names:
 * Gurobi/HiGHS/SCIP {@code .sol} ({@code name value} per line, {@code #} comments; HiGHS' dual
 * section is ignored) and CBC's {@code solve -solu} output ({@code index name value reduced}).
 *
 * @param values every variable value found, by the exported name
 */
public record MipSolution(Map<String, Double> values) {
  public MipSolution {
    values = Map.copyOf(values);
  }

  /**
   * Reads a solution of {@code formulation}'s model.
   *
   * @throws IllegalArgumentException if the solver reported no solution, or the file names none of
   *     the model's variables
   */
  public static MipSolution parse(String text, String source, LoptFormulation formulation) {
    Set<String> names = new HashSet<>(formulation.variableNames());
    Map<String, Double> values = new HashMap<>();
    String[] lines = text.split("\r?\n");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      String lower = line.toLowerCase(Locale.ROOT);
      if (i < 3
          && (lower.startsWith("infeasible")
              || lower.contains("problem proven infeasible")
              || lower.equals("model status infeasible"))) {
        throw new MosaicException(
            MosaicException.Kind.INFEASIBLE,
            source
                + ": the solver found the model infeasible (\""
                + line
                + "\"); no placement satisfies the constraints exported; relax one and export"
                + " again");
      }
      if (lower.startsWith("# dual")) {
        break; // HiGHS: what follows are reduced costs, not values
      }
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] tokens = line.split("\\s+");
      for (int t = 0; t + 1 < tokens.length; t++) {
        if (names.contains(tokens[t])) {
          try {
            values.put(tokens[t], Double.parseDouble(tokens[t + 1]));
          } catch (NumberFormatException e) {
            throw MosaicException.invalid(
                source
                    + ":"
                    + (i + 1)
                    + ": value of "
                    + tokens[t]
                    + " is not a number: \""
                    + tokens[t + 1]
                    + "\"");
          }
          break;
        }
      }
    }
    if (values.isEmpty()) {
      throw MosaicException.invalid(
          source
              + " names none of the model's variables (like "
              + formulation.variableNames().get(0)
              + "); give the solution file the solver wrote for the model `mosaic export-mip`"
              + " exported from the same devices, trace and sizes");
    }
    return new MipSolution(values);
  }

  /**
   * The placement the solution describes: each column on the device whose {@code I} is 1. The
   * placement variables are the first {@code |D| x |C|} of the model, device-major, in the cost
   * model's device and column order ({@link LoptFormulation}'s construction order).
   */
  public Placement placement(PlacementProblem problem, LoptFormulation formulation) {
    List<DeviceProfile> devices = problem.model().devices();
    List<ColumnRef> columns = problem.model().columns();
    List<String> names = formulation.variableNames();
    Map<ColumnRef, String> deviceOf = new HashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      int chosen = -1;
      for (int d = 0; d < devices.size(); d++) {
        String name = names.get(d * columns.size() + c);
        if (!name.startsWith("I_")) {
          throw new IllegalStateException("unexpected variable order in the model: " + name);
        }
        // Solvers print only non-zero values by default; a missing value is 0.
        double v = values.getOrDefault(name, 0.0);
        if (v > 0.5) {
          if (chosen >= 0) {
            throw MosaicException.invalid(
                "the solution puts column "
                    + columns.get(c)
                    + " on two devices; is it a MIP"
                    + " solution (not the LP relaxation's)?");
          }
          chosen = d;
        }
      }
      if (chosen < 0) {
        throw MosaicException.invalid(
            "the solution places column "
                + columns.get(c)
                + " on no device; was it solved from the model exported with the same devices,"
                + " trace and sizes?");
      }
      deviceOf.put(columns.get(c), devices.get(chosen).id());
    }
    return new Placement(deviceOf);
  }
}
