package io.mosaic.workload;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import java.util.ArrayList;
import java.util.List;

/**
 * The CSV dialect of the planner's own files (sizes, placements): blank lines and {@code #}
 * comments are skipped, the first other line must be the given header, fields are separated by
 * commas and stripped. Errors name the source and the line, as {@code source:line: problem}.
 */
final class CsvLines {
  private CsvLines() {}

  /** One data line: its 1-based number in the source and its stripped fields. */
  record Line(String source, int number, List<String> fields) {
    MosaicException error(String problem) {
      return MosaicException.invalid(source + ":" + number + ": " + problem);
    }

    String field(int i) {
      return fields.get(i);
    }

    /** The first two fields as {@code table,column}. */
    ColumnRef column() {
      try {
        return new ColumnRef(field(0), field(1));
      } catch (IllegalArgumentException | MosaicException e) {
        throw error(e.getMessage());
      }
    }
  }

  /** A file's header, the one of those allowed that it has, and its data lines. */
  record Table(String header, List<Line> lines) {}

  /** The data lines after {@code header} (spaces in the header line are ignored). */
  static List<Line> parse(String text, String source, String header) {
    return parse(text, source, List.of(header)).lines();
  }

  /** The data lines after one of {@code headers} (the first is the one errors name). */
  static Table parse(String text, String source, List<String> headers) {
    String header = headers.get(0); // for a file without lines
    List<Line> result = new ArrayList<>();
    boolean seenHeader = false;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!seenHeader) {
        String found = line.replace(" ", "");
        if (!headers.contains(found)) {
          throw MosaicException.invalid(
              source
                  + ":"
                  + (i + 1)
                  + ": expected the header \""
                  + headers.get(0)
                  + "\", not \""
                  + line
                  + "\"");
        }
        header = found;
        seenHeader = true;
        continue;
      }
      List<String> fields = new ArrayList<>();
      for (String f : line.split(",", -1)) {
        fields.add(f.strip());
      }
      result.add(new Line(source, i + 1, List.copyOf(fields)));
    }
    return new Table(header, result);
  }
}
