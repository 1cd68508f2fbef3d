package io.mosaic.workload;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.DeviceProfile;
import io.trino.tpcds.Scaling;
import io.trino.tpcds.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The size of every column of the tables being placed: {@code size(c)} of Eq. 2 and, where
 * measured, the real compressed size per codec (Section 4.1). Stored as CSV:
 *
 * <pre>
 * # comments
 * table,column,bytes,zstd_bytes,lz4_bytes
 * lineitem,l_orderkey,26794543,9581532,16026005
 * </pre>
 *
 * {@code bytes} is the size stored without compression; an empty {@code zstd_bytes} or {@code
 * lz4_bytes} means "not measured", and the model then estimates it from the device's ratio. Two
 * more fields may follow, {@code values} (the column's values, its table's rows) and {@code
 * variable_width} ({@code true} for strings and binaries), for the decoding rates by kind of value
 * (docs/cost-model.md); without them a column decodes at the mean rate.
 *
 * @param columns in file order
 */
public record ColumnSizes(List<ColumnSize> columns) {
  /** Built-in sizes: TPC-H and TPC-DS measured at SF 1, and SF 10, 30, 100 scaled from it. */
  public static final List<String> BUILT_IN =
      List.of(
          "tpch-sf1",
          "tpch-sf10",
          "tpch-sf30",
          "tpch-sf100",
          "tpcds-sf1",
          "tpcds-sf10",
          "tpcds-sf30",
          "tpcds-sf100");

  /** TPC-H tables whose size does not grow with the scale factor (spec clause 4.2.5). */
  public static final Set<String> TPCH_FIXED_TABLES = Set.of("nation", "region");

  static final String HEADER = "table,column,bytes,zstd_bytes,lz4_bytes";
  static final String HEADER_WITH_VALUES = HEADER + ",values,variable_width";
  private static final Pattern TPCH = Pattern.compile("tpch-sf(\\d+)");
  private static final Pattern TPCDS = Pattern.compile("tpcds-sf(\\d+)");

  public ColumnSizes {
    columns = List.copyOf(columns);
  }

  /**
   * Built-in sizes ({@link #BUILT_IN}, or any {@code tpch-sfN} or {@code tpcds-sfN}) or a sizes
   * file.
   *
   * @throws IllegalArgumentException if the file is missing or malformed
   */
  public static ColumnSizes load(String nameOrPath) {
    Matcher tpch = TPCH.matcher(nameOrPath);
    if (tpch.matches()) {
      ColumnSizes sf1 = parse(TraceFile.resource("tpch-sf1.sizes.csv"), "built-in tpch-sf1");
      return sf1.scaled(Integer.parseInt(tpch.group(1)), TPCH_FIXED_TABLES);
    }
    Matcher tpcds = TPCDS.matcher(nameOrPath);
    if (tpcds.matches()) {
      ColumnSizes sf1 = parse(TraceFile.resource("tpcds-sf1.sizes.csv"), "built-in tpcds-sf1");
      return sf1.scaledBy(tpcdsGrowth(Integer.parseInt(tpcds.group(1))));
    }
    Path file = Path.of(nameOrPath);
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (NoSuchFileException e) {
      throw MosaicException.notFound(
          "sizes file "
              + file
              + " does not exist; give a CSV with header "
              + HEADER
              + " or a built-in: "
              + String.join(", ", BUILT_IN));
    } catch (IOException e) {
      throw MosaicException.io("cannot read sizes file " + file, e);
    }
  }

  /** Parses sizes CSV; {@code source} names it in error messages. */
  public static ColumnSizes parse(String text, String source) {
    List<ColumnSize> sizes = new ArrayList<>();
    Map<ColumnRef, Integer> seen = new LinkedHashMap<>();
    CsvLines.Table table = CsvLines.parse(text, source, List.of(HEADER, HEADER_WITH_VALUES));
    String header = table.header();
    boolean withValues = header.equals(HEADER_WITH_VALUES);
    int fields = withValues ? 7 : 5;
    for (CsvLines.Line line : table.lines()) {
      if (line.fields().size() != fields) {
        throw line.error(
            "expected "
                + fields
                + " fields ("
                + header
                + "), found "
                + line.fields().size()
                + "; leave a codec's field empty if it was not measured");
      }
      ColumnRef column = line.column();
      Integer first = seen.putIfAbsent(column, line.number());
      if (first != null) {
        throw line.error("column " + column + " is listed twice (first on line " + first + ")");
      }
      long bytes = number(line, 2, "bytes", false);
      Map<Codec, Long> stored = new EnumMap<>(Codec.class);
      long zstd = number(line, 3, "zstd_bytes", true);
      long lz4 = number(line, 4, "lz4_bytes", true);
      if (zstd >= 0) {
        stored.put(Codec.ZSTD, zstd);
      }
      if (lz4 >= 0) {
        stored.put(Codec.LZ4, lz4);
      }
      stored.put(Codec.NONE, bytes);
      long values = withValues ? number(line, 5, "values", false) : 0;
      boolean variableWidth = withValues && bool(line, 6, "variable_width");
      sizes.add(new ColumnSize(column, bytes, stored, values, variableWidth));
    }
    if (sizes.isEmpty()) {
      throw MosaicException.invalid(
          source
              + " lists no columns; after the header \""
              + HEADER
              + "\" give one line per column");
    }
    return new ColumnSizes(sizes);
  }

  /**
   * The CSV form, readable by {@link #parse}; with values and kinds where every column has them.
   */
  public String format() {
    boolean withValues = columns.stream().allMatch(ColumnSize::valuesKnown);
    StringBuilder out = new StringBuilder(withValues ? HEADER_WITH_VALUES : HEADER).append('\n');
    for (ColumnSize s : columns) {
      out.append(s.column().table())
          .append(',')
          .append(s.column().column())
          .append(',')
          .append(s.bytes())
          .append(',')
          .append(s.stored(Codec.ZSTD).map(String::valueOf).orElse(""))
          .append(',')
          .append(s.stored(Codec.LZ4).map(String::valueOf).orElse(""));
      if (withValues) {
        out.append(',').append(s.values()).append(',').append(s.variableWidth());
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * Every size times {@code factor}, except the columns of {@code fixedTables}: a data set whose
   * tables grow linearly with the scale factor (TPC-H: all but nation and region).
   */
  public ColumnSizes scaled(double factor, Set<String> fixedTables) {
    if (!(factor > 0) || Double.isInfinite(factor)) {
      throw MosaicException.invalid("scale factor must be positive, not " + factor);
    }
    return scaledBy(table -> fixedTables.contains(table) ? 1 : factor);
  }

  /**
   * TPC-DS tables grow unevenly with the scale factor (facts linearly, dimensions in steps, some
   * not at all; spec clause 3.2): each table's growth from SF 1 is the ratio of the generator's row
   * counts.
   */
  static ToDoubleFunction<String> tpcdsGrowth(int sf) {
    if (sf < 1) {
      throw MosaicException.invalid("TPC-DS scale factor must be at least 1, not " + sf);
    }
    Scaling one = new Scaling(1);
    Scaling target = new Scaling(sf);
    return table -> {
      Table t = Table.getTable(table);
      return (double) target.getRowCount(t) / one.getRowCount(t);
    };
  }

  /** Every size of a table times {@code growth(table)}. */
  public ColumnSizes scaledBy(ToDoubleFunction<String> growth) {
    return new ColumnSizes(
        columns.stream()
            .map(
                s -> {
                  double f = growth.applyAsDouble(s.column().table());
                  Map<Codec, Long> stored = new EnumMap<>(Codec.class);
                  s.storedBytes().forEach((codec, b) -> stored.put(codec, Math.round(b * f)));
                  return new ColumnSize(
                      s.column(),
                      Math.round(s.bytes() * f),
                      stored,
                      Math.round(s.values() * f),
                      s.variableWidth());
                })
            .toList());
  }

  /**
   * The codec's compression ratio measured on these very columns (total bytes / total stored
   * bytes), so a catalogue device's decompressed rate matches the data (Eq. 2's {@code cr}); the
   * default ratio of {@link DeviceProfile#defaultRatio} if some column's size for it is unknown.
   */
  public double ratio(Codec codec) {
    long raw = 0;
    long stored = 0;
    for (ColumnSize s : columns) {
      if (s.stored(codec).isEmpty()) {
        return DeviceProfile.defaultRatio(codec);
      }
      raw += s.bytes();
      stored += s.stored(codec).get();
    }
    return stored == 0 ? DeviceProfile.defaultRatio(codec) : (double) raw / stored;
  }

  /** Total bytes stored without compression. */
  public long totalBytes() {
    return columns.stream().mapToLong(ColumnSize::bytes).sum();
  }

  private static boolean bool(CsvLines.Line line, int field, String name) {
    String text = line.field(field);
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text);
    }
    throw line.error(
        name + " must be true (strings, binaries) or false (other columns), not \"" + text + "\"");
  }

  private static long number(CsvLines.Line line, int field, String name, boolean optional) {
    String text = line.field(field);
    if (text.isEmpty() && optional) {
      return -1;
    }
    try {
      long value = Long.parseLong(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw line.error(
        String.format(
            Locale.ROOT,
            "%s must be a whole number of %s >= 0%s, not \"%s\"",
            name,
            name.equals("values") ? "values" : "bytes",
            optional ? " or empty" : "",
            text));
  }
}
