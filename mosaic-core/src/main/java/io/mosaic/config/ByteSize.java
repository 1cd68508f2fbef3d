package io.mosaic.config;

import io.mosaic.MosaicException;
import java.util.List;

/**
 * An amount of bytes. Decimal prefixes are powers of 1000 (a "60 GB" drive holds 60e9 bytes, as
 * vendors count), binary ones powers of 1024 ({@code KiB}, {@code MiB}, ...).
 */
public record ByteSize(long bytes) implements Comparable<ByteSize> {
  static final List<Quantity.Unit> UNITS =
      List.of(
          new Quantity.Unit(1, "B", "byte", "bytes"),
          new Quantity.Unit(1e3, "kB", "KB"),
          new Quantity.Unit(1024, "KiB"),
          new Quantity.Unit(1e6, "MB"),
          new Quantity.Unit(1024.0 * 1024, "MiB"),
          new Quantity.Unit(1e9, "GB"),
          new Quantity.Unit(1024.0 * 1024 * 1024, "GiB"),
          new Quantity.Unit(1e12, "TB"),
          new Quantity.Unit(1024.0 * 1024 * 1024 * 1024, "TiB"),
          new Quantity.Unit(1e15, "PB"));

  /**
   * The largest size {@link #parse} accepts: 1 EB (1000 PB), far beyond any device and well inside
   * a {@code long} (text like {@code "1e400 GB"} used to be rounded to {@code Long.MAX_VALUE}).
   */
  static final double MAX_BYTES = 1e18;

  private static final List<Quantity.Unit> DISPLAY =
      List.of(UNITS.get(0), UNITS.get(1), UNITS.get(3), UNITS.get(5), UNITS.get(7), UNITS.get(9));

  public ByteSize {
    if (bytes < 0) {
      throw MosaicException.invalid("a size cannot be negative: " + bytes + " bytes");
    }
  }

  /** Parses {@code "60 GB"}, {@code "512 MiB"}, ... up to 1000 PB. */
  public static ByteSize parse(String text) {
    double value = Quantity.parse(text, UNITS, "60 GB", null);
    if (value < 0) {
      throw MosaicException.invalid("must not be negative");
    }
    if (!(value <= MAX_BYTES)) {
      throw MosaicException.invalid("too large; a size must be at most 1000 PB (1 EB)");
    }
    return new ByteSize(Math.round(value));
  }

  public static ByteSize ofBytes(long bytes) {
    return new ByteSize(bytes);
  }

  static ByteSize ofMebibytes(long mib) {
    return new ByteSize(mib * 1024 * 1024);
  }

  double gigabytes() {
    return bytes / 1e9;
  }

  @Override
  public int compareTo(ByteSize o) {
    return Long.compare(bytes, o.bytes);
  }

  @Override
  public String toString() {
    return Quantity.format(bytes, DISPLAY);
  }
}
