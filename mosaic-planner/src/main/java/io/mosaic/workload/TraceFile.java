package io.mosaic.workload;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The trace file of paper Figure 3b: the table scans a workload ran, one per line, which LOPT
 * merges into weighted distinct scans (Eq. 4).
 *
 * <pre>
 * # comments and blank lines are ignored
 * [[trace]]
 * lineitem:l_quantity,l_shipdate
 * orders:o_orderkey x3          (optional weight: this scan ran 3 times)
 * </pre>
 *
 * Every scan line belongs to a {@code [[trace]]} section; a file may hold several (epochs appended
 * by the recorder), all read as one workload. Names are those of the stored tables.
 */
public final class TraceFile {
  /** Built-in traces shipped with Mosaic, usable wherever a trace file is asked for. */
  public static final List<String> BUILT_IN = List.of("tpch", "tpcds");

  private static final String HEADER = "[[trace]]";
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_$.-]*");
  private static final Pattern WEIGHT = Pattern.compile("(.*?)\\s+x(\\d+)");
  private static final String EXAMPLE = "like \"lineitem:l_quantity,l_shipdate\"";

  private TraceFile() {}

  /**
   * A built-in trace ({@link #BUILT_IN}) or a trace file.
   *
   * @throws IllegalArgumentException if the file is missing, malformed, or has no scans
   */
  public static Workload load(String nameOrPath) {
    if (BUILT_IN.contains(nameOrPath)) {
      String source = "built-in trace " + nameOrPath;
      return requireScans(parse(resource(nameOrPath + ".trace"), source), source);
    }
    return read(Path.of(nameOrPath));
  }

  /** Reads a trace file; it must hold at least one scan. */
  public static Workload read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw MosaicException.notFound(
          "trace file "
              + file
              + " does not exist; give a trace file (see docs/workloads.md) or a built-in trace: "
              + String.join(", ", BUILT_IN));
    } catch (IOException e) {
      throw MosaicException.io("cannot read trace file " + file, e);
    }
    return requireScans(parse(text, file.toString()), file.toString());
  }

  /** Parses trace text; {@code source} names it in error messages. May return an empty workload. */
  public static Workload parse(String text, String source) {
    List<DistinctScan> scans = new ArrayList<>();
    boolean inTrace = false;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[")) {
        if (!line.equals(HEADER)) {
          throw error(source, i, "unknown section " + line + "; a trace has only " + HEADER);
        }
        inTrace = true;
        continue;
      }
      if (!inTrace) {
        throw error(source, i, "scan line before the first " + HEADER + " header; add it above");
      }
      scans.add(scan(line, source, i));
    }
    return Workload.merging(scans);
  }

  /** The trace format of a workload: one line per distinct scan, its weight as {@code xN}. */
  public static String format(Workload workload) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    for (DistinctScan scan : workload.scans()) {
      var byTable =
          scan.sortedColumns().stream()
              .collect(
                  Collectors.groupingBy(
                      ColumnRef::table,
                      java.util.TreeMap::new,
                      Collectors.mapping(ColumnRef::column, Collectors.joining(","))));
      if (byTable.size() != 1) {
        throw MosaicException.invalid(
            "scan " + scan + " reads several tables; a trace line is one table's scan");
      }
      byTable.forEach((table, columns) -> out.append(table).append(':').append(columns));
      out.append(scan.weight() == 1 ? "" : " x" + scan.weight()).append('\n');
    }
    return out.toString();
  }

  public static void write(Path file, Workload workload) throws IOException {
    Files.writeString(file, format(workload), StandardCharsets.UTF_8);
  }

  private static DistinctScan scan(String line, String source, int i) {
    long weight = 1;
    Matcher w = WEIGHT.matcher(line);
    if (w.matches()) {
      line = w.group(1);
      try {
        weight = Long.parseLong(w.group(2));
      } catch (NumberFormatException e) {
        throw error(source, i, "weight x" + w.group(2) + " is too large");
      }
      if (weight < 1) {
        throw error(source, i, "weight x" + weight + " must be at least x1");
      }
    }
    int colon = line.indexOf(':');
    if (colon < 0) {
      throw error(source, i, "expected table:columns " + EXAMPLE + ", not \"" + line + "\"");
    }
    String table = line.substring(0, colon).strip();
    if (!NAME.matcher(table).matches()) {
      throw error(source, i, "\"" + table + "\" is not a table name; expected " + EXAMPLE);
    }
    Set<ColumnRef> columns = new LinkedHashSet<>();
    for (String column : line.substring(colon + 1).split(",", -1)) {
      String name = column.strip();
      if (name.isEmpty()) {
        throw error(source, i, "empty column name in \"" + line + "\"; list columns " + EXAMPLE);
      }
      if (!NAME.matcher(name).matches()) {
        throw error(source, i, "\"" + name + "\" is not a column name; expected " + EXAMPLE);
      }
      if (!columns.add(new ColumnRef(table, name))) {
        throw error(source, i, "column " + name + " is listed twice in one scan");
      }
    }
    return new DistinctScan(columns, weight);
  }

  /** An empty trace would make every placement "optimal": refuse it, saying what is missing. */
  private static Workload requireScans(Workload workload, String source) {
    if (workload.scans().isEmpty()) {
      throw MosaicException.invalid(
          source
              + " has no table scans; a trace lists one scan per line after a "
              + HEADER
              + " header, "
              + EXAMPLE);
    }
    return workload;
  }

  private static MosaicException error(String source, int index, String problem) {
    return MosaicException.invalid(source + ":" + (index + 1) + ": " + problem);
  }

  static String resource(String name) {
    try (InputStream in = TraceFile.class.getResourceAsStream("/io/mosaic/workloads/" + name)) {
      if (in == null) {
        throw new IllegalStateException("resource io/mosaic/workloads/" + name + " is missing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
