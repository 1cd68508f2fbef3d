package io.mosaic.config;

import io.mosaic.MosaicException;
import java.util.List;

/**
 * A transfer rate in bytes per second ({@code "1.2 GB/s"}, {@code "230 MB/s"}, {@code "64 MiB/s"}).
 */
public record Bandwidth(double bytesPerSecond) implements Comparable<Bandwidth> {
  static final List<Quantity.Unit> UNITS =
      ByteSize.UNITS.stream()
          .map(
              u ->
                  new Quantity.Unit(u.spellings().stream().map(s -> s + "/s").toList(), u.factor()))
          .toList();

  /** The slowest rate {@link #parse} accepts, 1 B/s: below it the time of a read overflows. */
  static final double MIN_BYTES_PER_SECOND = 1;

  /** The fastest rate {@link #parse} accepts, 1 PB/s, far beyond any device. */
  static final double MAX_BYTES_PER_SECOND = 1e15;

  private static final List<Quantity.Unit> DISPLAY =
      List.of(UNITS.get(0), UNITS.get(1), UNITS.get(3), UNITS.get(5), UNITS.get(7));

  public Bandwidth {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw MosaicException.invalid("a rate must be a positive number, not " + bytesPerSecond);
    }
  }

  /** Parses {@code "1.2 GB/s"}, {@code "64 MiB/s"}, ... from 1 B/s to 1 PB/s. */
  public static Bandwidth parse(String text) {
    double value = Quantity.parse(text, UNITS, "1.2 GB/s", null);
    if (!(value > 0)) {
      throw MosaicException.invalid("must be greater than zero");
    }
    if (value < MIN_BYTES_PER_SECOND) {
      throw MosaicException.invalid("too slow; a rate must be at least 1 B/s");
    }
    if (!(value <= MAX_BYTES_PER_SECOND)) {
      throw MosaicException.invalid("too fast; a rate must be at most 1 PB/s");
    }
    return new Bandwidth(value);
  }

  public static Bandwidth ofMegabytesPerSecond(double mbps) {
    return new Bandwidth(mbps * 1e6);
  }

  public double megabytesPerSecond() {
    return bytesPerSecond / 1e6;
  }

  /** Seconds needed to move {@code bytes} at this rate. */
  public double secondsFor(long bytes) {
    return bytes / bytesPerSecond;
  }

  @Override
  public int compareTo(Bandwidth o) {
    return Double.compare(bytesPerSecond, o.bytesPerSecond);
  }

  @Override
  public String toString() {
    return Quantity.format(bytesPerSecond, DISPLAY);
  }
}
