package io.mosaic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Core's packages keep the layer order of docs/architecture.md ("Packages of core, by layer"): a
 * package names only packages of lower layers, never a sibling of its own layer, so the package
 * graph has no cycle. Imports, static imports and qualified names in code count; comments do not.
 */
class LayerTest {
  /** Lowest first; packages on one line are siblings that must not name each other. */
  static final List<Set<String>> LAYERS =
      List.of(
          Set.of(""), // io.mosaic: the error vocabulary
          Set.of("storage"),
          Set.of("config"),
          Set.of("device"),
          Set.of("format"),
          Set.of("segment"),
          Set.of("table"),
          Set.of("trace", "model", "cold", "cooperative"),
          Set.of("scan"),
          Set.of("maintenance", "calibration"),
          Set.of("warehouse"));

  /**
   * The planner's packages above all of core (docs/architecture.md, "Packages of the planner"). Its
   * sources sit beside core's in the repository, so this test reads them too.
   */
  static final List<Set<String>> PLANNER_LAYERS =
      List.of(
          Set.of("workload", "design"),
          Set.of("placement", "tpch", "tpcds"),
          Set.of("operations"),
          Set.of("cli"));

  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.mosaic\\.(?:([a-z][a-z0-9]*)\\.)?[A-Z]");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"");

  @Test
  void coreKeepsItsLayers() throws IOException {
    check(Path.of("src/main/java/io/mosaic"), LAYERS);
  }

  @Test
  void thePlannerKeepsItsLayers() throws IOException {
    check(Path.of("../mosaic-planner/src/main/java/io/mosaic"), PLANNER_LAYERS);
  }

  private static void check(Path root, List<Set<String>> layers) throws IOException {
    List<String> violations = new ArrayList<>();
    Set<String> unplaced = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String pkg = packageOf(root.relativize(file.getParent()));
        if (layer(layers, pkg) < 0) {
          unplaced.add(pkg);
          continue;
        }
        violations.addAll(
            violations(root.relativize(file).toString(), pkg, Files.readString(file), layers));
      }
    }
    assertThat(unplaced).as("packages with no layer in LayerTest").isEmpty();
    assertThat(violations).as("references against the layer order").isEmpty();
  }

  @Test
  void everyBrokenImportOfTheReviewIsCaught() {
    Map<String, String> broken =
        Map.of(
            "format", "import io.mosaic.table.MosaicTable;",
            "segment", "import io.mosaic.table.MosaicTable;",
            "device", "import io.mosaic.cold.GroupScheduler;",
            "table", "import io.mosaic.maintenance.GarbageCollector;");
    broken.forEach(
        (pkg, line) ->
            assertThat(violations("X.java", pkg, "package io.mosaic." + pkg + ";\n" + line))
                .as(pkg + ": " + line)
                .hasSize(1));
    assertThat(violations("X.java", "cold", "class X { io.mosaic.model.CostModel m; }"))
        .as("a sibling named by its qualified name")
        .hasSize(1);
    assertThat(violations("X.java", "format", "// io.mosaic.table.MosaicTable\nclass X {}"))
        .as("a comment")
        .isEmpty();
    assertThat(violations("X.java", "scan", "import io.mosaic.table.MosaicTable;")).isEmpty();
  }

  static List<String> violations(String file, String pkg, String source) {
    return violations(file, pkg, source, LAYERS);
  }

  /** References of one file against {@code layers}; above core, any core package is below. */
  static List<String> violations(String file, String pkg, String source, List<Set<String>> layers) {
    String code = STRING.matcher(COMMENT.matcher(source).replaceAll(" ")).replaceAll("\"\"");
    int own = layer(layers, pkg);
    List<String> found = new ArrayList<>();
    Matcher m = REFERENCE.matcher(code);
    while (m.find()) {
      String target = m.group(1) == null ? "" : m.group(1);
      int layer = layer(layers, target);
      boolean core = layers != LAYERS && layer(LAYERS, target) >= 0;
      if (!target.equals(pkg) && !core && (layer < 0 || layer >= own)) {
        found.add(file + " names io.mosaic." + target + " (layer " + layer + ", own " + own + ")");
      }
    }
    return found.stream().distinct().toList();
  }

  private static String packageOf(Path dir) {
    return dir.toString().isEmpty() ? "" : dir.getName(0).toString();
  }

  private static int layer(List<Set<String>> layers, String pkg) {
    for (int i = 0; i < layers.size(); i++) {
      if (layers.get(i).contains(pkg)) {
        return i;
      }
    }
    return -1;
  }

  static {
    // A layer table that listed a package twice would make the check meaningless.
    Set<String> seen = new TreeSet<>();
    Stream.concat(LAYERS.stream(), PLANNER_LAYERS.stream())
        .forEach(l -> l.forEach(p -> assertThat(seen.add(p)).as(p).isTrue()));
  }
}
