package io.mosaic.config;

import io.mosaic.MosaicException;
import java.util.List;

/**
 * A price per gigabyte, kept in cents: the unit the planner works in. As in the paper (Section 3.1,
 * footnote 1) the currency is the user's: {@code "60 ct"}, {@code "0.6 EUR"} and {@code "0.6 USD"}
 * are all 60 cents (there are no exchange rates, so a file should use one currency), and a bare
 * number is a price relative to the other devices. Other units, currency symbols ({@code €}, {@code
 * $}) included, are refused rather than guessed at.
 */
public record Cost(double cents) implements Comparable<Cost> {
  static final List<Quantity.Unit> UNITS =
      List.of(
          new Quantity.Unit(1, "ct", "cent", "cents", "c"),
          new Quantity.Unit(100, "EUR"),
          new Quantity.Unit(100, "USD"));

  /**
   * The largest cost {@link #parse} accepts, 1e15 cents: times the largest capacity (1 EB, 1e9 GB)
   * it is still far from overflowing a double.
   */
  static final double MAX_CENTS = 1e15;

  public Cost {
    if (!(cents >= 0) || Double.isInfinite(cents)) {
      throw MosaicException.invalid("a cost must be zero or positive, not " + cents);
    }
  }

  /** Parses {@code "60 ct"}, {@code "0.6 EUR"}, {@code "0.6 USD"} or a bare number. */
  public static Cost parse(String text) {
    Quantity q = Quantity.split(text, "60 ct");
    if (!q.unit().isEmpty() && Quantity.find(q.unit(), UNITS) == null) {
      throw MosaicException.invalid(
          "unknown currency unit '"
              + q.unit()
              + "'; allowed: "
              + Quantity.spellings(UNITS)
              + " or a bare number (a relative price), e.g. \"60 ct\" or \"0.6 EUR\"; the planner"
              + " keeps costs in cents (ct), and EUR and USD count as 100 ct each, without"
              + " exchange rates");
    }
    double value = Quantity.parse(text, UNITS, "60 ct", 1.0);
    if (value < 0) {
      throw MosaicException.invalid("must not be negative");
    }
    if (!(value <= MAX_CENTS)) {
      throw MosaicException.invalid("too large; a cost must be at most 1e15 ct");
    }
    return new Cost(value);
  }

  public static Cost ofCents(double cents) {
    return new Cost(cents);
  }

  @Override
  public int compareTo(Cost o) {
    return Double.compare(cents, o.cents);
  }

  @Override
  public String toString() {
    return Quantity.format(cents, UNITS.subList(0, 1));
  }
}
