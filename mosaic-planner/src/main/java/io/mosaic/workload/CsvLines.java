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

  /** The data lines after {@code header} (spaces in the header line are ignored). */
  static List<Line> parse(String text, String source, String header) {
    return parse(text, source, List.of(header));
  }

  /**
   * The data lines after one of {@code headers} (the first is the one errors name); each line's
   * fields are as many as its file's header names.
   */
  static List<Line> parse(String text, String source, List<String> headers) {
    String header = headers.get(0);
    List<Line> result = new ArrayList<>();
    boolean seenHeader = false;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (!seenHeader) {
        if (!headers.contains(line.replace(" ", ""))) {
          throw MosaicException.invalid(
              source
                  + ":"
                  + (i + 1)
                  + ": expected the header \""
                  + header
                  + "\", not \""
                  + line
                  + "\"");
        }
        seenHeader = true;
        continue;
      }
      List<String> fields = new ArrayList<>();
      for (String f : line.split(",", -1)) {
        fields.add(f.strip());
      }
      result.add(new Line(source, i + 1, List.copyOf(fields)));
    }
    return result;
  }
}
