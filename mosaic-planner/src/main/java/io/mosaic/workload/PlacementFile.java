package io.mosaic.workload;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import java.io.IOException;
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
      throw MosaicException.notFound(
          "placement file "
              + file
              + " does not exist; write one with `mosaic recommend --placement-out` or `mosaic"
              + " import-solution --out`");
    } catch (IOException e) {
      throw MosaicException.io("cannot read placement file " + file, e);
    }
  }

  public static Placement parse(String text, String source) {
    Map<ColumnRef, String> deviceOf = new LinkedHashMap<>();
    for (CsvLines.Line line : CsvLines.parse(text, source, HEADER)) {
      if (line.fields().size() != 3 || line.field(2).isEmpty()) {
        throw line.error("expected table,column,device like \"lineitem,l_tax,ssd\"");
      }
      ColumnRef column = line.column();
      if (deviceOf.put(column, line.field(2)) != null) {
        throw line.error("column " + column + " is placed twice; keep one line per column");
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
}
