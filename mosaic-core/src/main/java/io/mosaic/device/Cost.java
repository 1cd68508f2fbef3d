package io.mosaic.device;

import java.util.List;

/**
 * A price per gigabyte, kept in cents. As in the paper (Section 3.1, footnote 1) the currency is
 * the user's: {@code "60 ct"}, {@code "0.6 EUR"} and {@code "0.6 USD"} are all 60 cents, and a bare
 * number is a price relative to the other devices.
 */
public record Cost(double cents) implements Comparable<Cost> {
  static final List<Quantity.Unit> UNITS =
      List.of(
          new Quantity.Unit(1, "ct", "cent", "cents", "c"),
          new Quantity.Unit(100, "EUR", "€", "USD", "$"));

  public Cost {
    if (!(cents >= 0) || Double.isInfinite(cents)) {
      throw new IllegalArgumentException("a cost must be zero or positive, not " + cents);
    }
  }

  public static Cost parse(String text) {
    double value = Quantity.parse(text, UNITS, "60 ct", 1.0);
    if (value < 0) {
      throw new IllegalArgumentException("must not be negative");
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
