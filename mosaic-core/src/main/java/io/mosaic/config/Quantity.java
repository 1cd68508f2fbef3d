package io.mosaic.config;

import io.mosaic.MosaicException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number followed by a unit, the way people write sizes and rates in {@code devices.toml} ({@code
 * "60 GB"}, {@code "1.2 GB/s"}, {@code "8 ms"}, {@code "60 ct"}). The value records ({@link
 * ByteSize}, {@link Bandwidth}, {@link Latency}, {@link Cost}) give it their unit tables.
 */
record Quantity(double number, String unit) {
  private static final Pattern FORM =
      Pattern.compile("\\s*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*(.*?)\\s*");

  /** One accepted unit: its spellings (compared ignoring case) and how many base units it is. */
  record Unit(List<String> spellings, double factor) {
    Unit(double factor, String... spellings) {
      this(List.of(spellings), factor);
    }
  }

  static Quantity split(String text, String example) {
    Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      throw MosaicException.invalid("expected a number and a unit, like \"" + example + "\"");
    }
    return new Quantity(Double.parseDouble(m.group(1)), m.group(2));
  }

  /**
   * Parses {@code text} and returns it in base units. A missing unit is an error unless {@code
   * bareNumberFactor} is given (for costs, where a bare number is a relative price). A number too
   * large for a double comes back infinite: callers bound the result, and {@code !(value <= max)}
   * refuses it with their own range.
   */
  static double parse(String text, List<Unit> units, String example, Double bareNumberFactor) {
    Quantity q = split(text, example);
    if (q.unit.isEmpty()) {
      if (bareNumberFactor != null) {
        return q.number * bareNumberFactor;
      }
      throw MosaicException.invalid(
          "missing unit; write it like \"" + example + "\" (units: " + spellings(units) + ")");
    }
    Unit known = find(q.unit, units);
    if (known != null) {
      return q.number * known.factor();
    }
    throw MosaicException.invalid(
        "unknown unit '"
            + q.unit
            + "'; allowed: "
            + spellings(units)
            + " (e.g. \""
            + example
            + "\")");
  }

  /** The unit {@code spelling} names (ignoring case), or null. */
  static Unit find(String spelling, List<Unit> units) {
    String unit = spelling.toLowerCase(Locale.ROOT);
    for (Unit u : units) {
      for (String s : u.spellings()) {
        if (s.toLowerCase(Locale.ROOT).equals(unit)) {
          return u;
        }
      }
    }
    return null;
  }

  static String spellings(List<Unit> units) {
    return String.join(", ", units.stream().map(u -> u.spellings().get(0)).toList());
  }

  /** Formats {@code value} (in base units) with the largest unit that keeps it at least 1. */
  static String format(double value, List<Unit> ascendingUnits) {
    Unit best = ascendingUnits.get(0);
    for (Unit u : ascendingUnits) {
      if (Math.abs(value) >= u.factor()) {
        best = u;
      }
    }
    double scaled = value / best.factor();
    String number =
        scaled == Math.rint(scaled) && Math.abs(scaled) < 1e15
            ? Long.toString((long) scaled)
            : trimZeros(String.format(Locale.ROOT, "%.3g", scaled));
    return number + " " + best.spellings().get(0);
  }

  private static String trimZeros(String decimal) {
    return decimal.contains(".") && !decimal.contains("e")
        ? decimal.replaceFirst("0+$", "").replaceFirst("\\.$", "")
        : decimal;
  }
}
