package io.mosaic.workload;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A placement as CSV, {@code table,column,device} with that header: what {@code mosaic recommend}
 * and {@code mosaic import-solution} write and {@code mosaic predict} reads.
 */
public final class PlacementFile {
  static final String HEADER = "table,column,device";

  private PlacementFile() {}

  public static Placement read(Path file) {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(
          "placement file "
              + file
              + " does not exist; write one with `mosaic recommend --placement-out` or `mosaic"
              + " import-solution --out`");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read placement file " + file, e);
    }
  }

  public static Placement parse(String text, String source) {
    Map<ColumnRef, String> deviceOf = new LinkedHashMap<>();
    boolean header = false;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!header) {
        if (!line.replace(" ", "").equals(HEADER)) {
          throw error(source, i, "expected the header \"" + HEADER + "\", not \"" + line + "\"");
        }
        header = true;
        continue;
      }
      String[] f = line.split(",", -1);
      if (f.length != 3 || f[2].isBlank()) {
        throw error(source, i, "expected table,column,device like \"lineitem,l_tax,ssd\"");
      }
      ColumnRef column;
      try {
        column = new ColumnRef(f[0].strip(), f[1].strip());
      } catch (IllegalArgumentException e) {
        throw error(source, i, e.getMessage());
      }
      if (deviceOf.put(column, f[2].strip()) != null) {
        throw error(source, i, "column " + column + " is placed twice; keep one line per column");
      }
    }
    return new Placement(deviceOf);
  }

  public static String format(Placement placement) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    placement
        .deviceOf()
        .forEach(
            (c, d) ->
                out.append(c.table())
                    .append(',')
                    .append(c.column())
                    .append(',')
                    .append(d)
                    .append('\n'));
    return out.toString();
  }

  public static void write(Path file, Placement placement) throws IOException {
    Files.writeString(file, format(placement), StandardCharsets.UTF_8);
  }

  private static IllegalArgumentException error(String source, int index, String problem) {
    return new IllegalArgumentException(source + ":" + (index + 1) + ": " + problem);
  }
}
