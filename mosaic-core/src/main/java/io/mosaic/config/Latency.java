package io.mosaic.config;

import io.mosaic.MosaicException;
import java.time.Duration;
import java.util.List;

/** A short time, such as a device's seek time ({@code "8 ms"}, {@code "120 us"}, {@code "0"}). */
public record Latency(long nanos) implements Comparable<Latency> {
  public static final Latency ZERO = new Latency(0);

  static final List<Quantity.Unit> UNITS =
      List.of(
          new Quantity.Unit(1, "ns"),
          new Quantity.Unit(1e3, "us", "µs"),
          new Quantity.Unit(1e6, "ms"),
          new Quantity.Unit(1e9, "s"));

  /** The longest latency {@link #parse} accepts: 1 hour, far beyond any device's seek time. */
  static final double MAX_NANOS = 3600e9;

  public Latency {
    if (nanos < 0) {
      throw MosaicException.invalid("a latency cannot be negative: " + nanos + " ns");
    }
  }

  /** Parses {@code "8 ms"}, {@code "120 us"}, ... up to 1 hour. */
  public static Latency parse(String text) {
    double value = Quantity.parse(text, UNITS, "8 ms", null);
    if (value < 0) {
      throw MosaicException.invalid("must not be negative");
    }
    if (!(value <= MAX_NANOS)) {
      throw MosaicException.invalid("too long; a latency must be at most 1 hour (3600 s)");
    }
    return new Latency(Math.round(value));
  }

  public static Latency ofMillis(double millis) {
    return new Latency(Math.round(millis * 1e6));
  }

  public double seconds() {
    return nanos / 1e9;
  }

  public Duration duration() {
    return Duration.ofNanos(nanos);
  }

  @Override
  public int compareTo(Latency o) {
    return Long.compare(nanos, o.nanos);
  }

  @Override
  public String toString() {
    return nanos == 0 ? "0 ms" : Quantity.format(nanos, UNITS);
  }
}
