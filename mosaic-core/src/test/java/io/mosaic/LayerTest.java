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
          Set.of("config"),
          Set.of("device"),
          Set.of("format"),
          Set.of("segment"),
          Set.of("table"),
          Set.of("trace", "model", "cold", "cooperative"),
          Set.of("scan"),
          Set.of("maintenance", "calibration"),
          Set.of("warehouse"));

  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.mosaic\\.(?:([a-z][a-z0-9]*)\\.)?[A-Z]");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"");

  @Test
  void coreKeepsItsLayers() throws IOException {
    Path root = Path.of("src/main/java/io/mosaic");
    List<String> violations = new ArrayList<>();
    Set<String> unplaced = new TreeSet<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String pkg = packageOf(root.relativize(file.getParent()));
        if (layer(pkg) < 0) {
          unplaced.add(pkg);
          continue;
        }
        violations.addAll(
            violations(root.relativize(file).toString(), pkg, Files.readString(file)));
      }
    }
    assertThat(unplaced).as("packages with no layer in LayerTest.LAYERS").isEmpty();
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
    String code = STRING.matcher(COMMENT.matcher(source).replaceAll(" ")).replaceAll("\"\"");
    int own = layer(pkg);
    List<String> found = new ArrayList<>();
    Matcher m = REFERENCE.matcher(code);
    while (m.find()) {
      String target = m.group(1) == null ? "" : m.group(1);
      int layer = layer(target);
      if (!target.equals(pkg) && (layer < 0 || layer >= own)) {
        found.add(
            file
                + " names io.mosaic."
                + target
                + " ("
                + where(target)
                + ", not below "
                + where(pkg)
                + ")");
      }
    }
    return found.stream().distinct().toList();
  }

  private static String packageOf(Path dir) {
    return dir.toString().isEmpty() ? "" : dir.getName(0).toString();
  }

  private static int layer(String pkg) {
    for (int i = 0; i < LAYERS.size(); i++) {
      if (LAYERS.get(i).contains(pkg)) {
        return i;
      }
    }
    return -1;
  }

  private static String where(String pkg) {
    int layer = layer(pkg);
    return layer < 0 ? "no layer" : "layer " + layer;
  }

  static {
    // A layer table that listed a package twice would make the check meaningless.
    Set<String> seen = new TreeSet<>();
    LAYERS.forEach(l -> l.forEach(p -> assertThat(seen.add(p)).as(p).isTrue()));
  }
}
