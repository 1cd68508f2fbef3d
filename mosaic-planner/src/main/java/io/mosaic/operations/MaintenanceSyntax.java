package io.mosaic.operations;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.ByteSize;
import io.mosaic.model.ColumnRef;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one string form of the maintenance operations' arguments, the same in the CLI, Spark's and
 * Trino's {@code CALL} (docs/operations.md): column pins {@code 'l_comment=hdd,o_comment=hdd'},
 * per-device sizes {@code 'ssd=1GB,hdd=10 GB'}, per-device rates {@code 'hdd=20MB/s'}, and
 * durations. Every error names the bad entry and the expected form.
 */
public final class MaintenanceSyntax {
  private static final Pattern SHORT_DURATION =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

  private MaintenanceSyntax() {}

  /**
   * {@code 'COLUMN=DEVICE, ...'} as an ordered map; null or blank gives an empty map. A column may
   * be qualified by its table ({@code orders.o_comment}) when several tables are placed together.
   */
  public static Map<String, String> pins(String text) {
    return pairs(text, "pin", "COLUMN=DEVICE", "'l_comment=hdd, o_comment=hdd'");
  }

  /** A {@code move}'s {@code 'COLUMN=DEVICE, ...'}, as {@link #pins}; errors say "placement". */
  public static Map<String, String> placement(String text) {
    return pairs(text, "placement", "COLUMN=DEVICE", "'l_comment=hdd, l_shipdate=nvme'");
  }

  /**
   * {@code 'DEVICE=SIZE, ...'} ({@code 'ssd=1GB, hdd=10 GB'}); null or blank gives an empty map.
   */
  public static Map<String, Long> deviceBytes(String text, String what) {
    return deviceValues(
        text, what, "SIZE", "size", "'ssd=1GB, hdd=500 MB'", size -> ByteSize.parse(size).bytes());
  }

  /**
   * {@code 'DEVICE=RATE, ...'} ({@code 'hdd=20MB/s, nvme=200 MB/s'}) in bytes per second; null or
   * blank gives an empty map.
   */
  public static Map<String, Double> deviceRates(String text, String what) {
    return deviceValues(
        text,
        what,
        "RATE",
        "rate",
        "'hdd=20MB/s, nvme=200 MB/s'",
        rate -> Bandwidth.parse(rate).bytesPerSecond());
  }

  // 'DEVICE=VALUE, ...' with each value parsed; a value that does not parse is named with the fix.
  private static <T> Map<String, T> deviceValues(
      String text,
      String what,
      String kind,
      String noun,
      String example,
      java.util.function.Function<String, T> parse) {
    Map<String, T> values = new LinkedHashMap<>();
    pairs(text, what, "DEVICE=" + kind, example)
        .forEach(
            (device, value) -> {
              try {
                values.put(device, parse.apply(value));
              } catch (IllegalArgumentException | MosaicException e) {
                throw MosaicException.invalid(
                    what
                        + " entry '"
                        + device
                        + "="
                        + value
                        + "' has no usable "
                        + noun
                        + " ("
                        + e.getMessage()
                        + "); write DEVICE="
                        + kind
                        + ", e.g. "
                        + example);
              }
            });
    return values;
  }

  /**
   * A time limit: ISO-8601 ({@code PT10S}), a number with a unit ({@code 500ms}, {@code 10s},
   * {@code 2m}, {@code 1h}, {@code 1d}), or a bare number of seconds; it must be positive.
   */
  public static Duration duration(String text, String what) {
    Duration d = parseDuration(text);
    if (d == null || d.isZero()) {
      throw notADuration(text, what, "a positive");
    }
    return d;
  }

  /** A duration as {@link #duration} reads it, zero allowed (a grace period of none). */
  public static Duration durationOrZero(String text, String what) {
    Duration d = parseDuration(text);
    if (d == null) {
      throw notADuration(text, what, "a");
    }
    return d;
  }

  private static MosaicException notADuration(String text, String what, String kind) {
    return MosaicException.invalid(
        what
            + " '"
            + (text == null ? "" : text.strip())
            + "' is not "
            + kind
            + " duration; write e.g. '1h', '2m', '10s', '500ms' or ISO-8601 'PT10S'");
  }

  // Null when the text is no duration, or a negative one.
  private static Duration parseDuration(String text) {
    String t = text == null ? "" : text.strip();
    Duration d = null;
    if (t.regionMatches(true, 0, "P", 0, 1)) {
      try {
        d = Duration.parse(t.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        d = null;
      }
    } else {
      Matcher m = SHORT_DURATION.matcher(t);
      if (m.matches()) {
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
        double millis =
            value
                * switch (unit) {
                  case "ms" -> 1;
                  case "s" -> 1_000;
                  case "m" -> 60_000;
                  case "h" -> 3_600_000;
                  default -> 86_400_000;
                };
        d = millis < 1e15 ? Duration.ofMillis(Math.round(millis)) : null;
      }
    }
    return d == null || d.isNegative() ? null : d;
  }

  /**
   * A rate ({@code 50MB/s}, {@link Bandwidth#parse}) in bytes per second; the error names {@code
   * what} (the option or argument) and the accepted form.
   */
  public static double rate(String text, String what) {
    try {
      return Bandwidth.parse(text).bytesPerSecond();
    } catch (MosaicException e) {
      throw MosaicException.invalid(
          what
              + " '"
              + text
              + "' is not a usable rate ("
              + e.getMessage()
              + "); write a positive rate with its unit, e.g. '50MB/s' or '1 GB/s'");
    }
  }

  /**
   * The column each pin names among {@code columns}: {@code table.column}, or a bare column name
   * that exactly one of the tables has.
   */
  public static Map<ColumnRef, String> resolvePins(
      Map<String, String> pins, Collection<ColumnRef> columns) {
    Map<ColumnRef, String> resolved = new LinkedHashMap<>();
    pins.forEach(
        (name, device) -> {
          List<ColumnRef> matches = new ArrayList<>();
          for (ColumnRef c : columns) {
            if (c.column().equals(name) || c.toString().equals(name)) {
              matches.add(c);
            }
          }
          if (matches.size() != 1) {
            throw MosaicException.invalid(
                "pin '"
                    + name
                    + "="
                    + device
                    + "' "
                    + (matches.isEmpty()
                        ? "names no column of the tables being placed"
                        : "is ambiguous: " + matches + " all match")
                    + "; write COLUMN=DEVICE with a column of "
                    + tables(columns)
                    + " (TABLE.COLUMN when several tables have it)");
          }
          resolved.put(matches.get(0), device);
        });
    return resolved;
  }

  private static String tables(Collection<ColumnRef> columns) {
    return String.join(", ", columns.stream().map(ColumnRef::table).distinct().sorted().toList());
  }

  private static Map<String, String> pairs(String text, String what, String form, String example) {
    Map<String, String> pairs = new LinkedHashMap<>();
    if (text == null) {
      return pairs;
    }
    for (String entry : text.split(",")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      String key = eq < 0 ? "" : entry.substring(0, eq).strip();
      String value = eq < 0 ? "" : entry.substring(eq + 1).strip();
      if (key.isEmpty() || value.isEmpty() || value.indexOf('=') >= 0) {
        throw MosaicException.invalid(
            what
                + " entry '"
                + entry.strip()
                + "' must be "
                + form
                + ": write "
                + form.toLowerCase(Locale.ROOT)
                + " pairs separated by commas, e.g. "
                + example);
      }
      if (pairs.put(key, value) != null) {
        throw MosaicException.invalid(
            what + " entry '" + entry.strip() + "' repeats '" + key + "': give each once");
      }
    }
    return pairs;
  }
}
