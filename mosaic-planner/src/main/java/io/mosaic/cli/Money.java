package io.mosaic.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How `recommend` writes an amount of the planner's cents: once, as Eq. 5's price of the devices
 * ({@code "350 ct"}), or per month for a catalogue priced per GB-month, in dollars, the currency of
 * the built-in {@code aws} catalogue ({@code "$12.40/month"}; docs/cost-model.md, "Money per
 * month").
 */
enum Money {
  ONCE,
  MONTHLY;

  static Money of(boolean monthly) {
    return monthly ? MONTHLY : ONCE;
  }

  /** An amount: cents as before, or dollars a month with cents shown (more digits below $1). */
  String format(double cents) {
    if (this == ONCE) {
      return Commands.cents(cents);
    }
    return dollars(cents) + "/month";
  }

  /** An axis tick, with as many decimals as the axis span needs to tell ticks apart. */
  String tick(double cents, double span) {
    if (this == ONCE) {
      return ParetoChart.tickCents(cents, span);
    }
    double dollarSpan = span / 100;
    int decimals = dollarSpan >= 50 ? 0 : dollarSpan >= 5 ? 1 : dollarSpan >= 0.5 ? 2 : 3;
    return String.format(Locale.ROOT, "$%." + decimals + "f", cents / 100);
  }

  /** The cost axis of the Pareto chart. */
  String axisLabel() {
    return this == ONCE
        ? "cost of the devices to buy (Eq. 5)"
        : "cost per month: storage, requests and retrieval (Eq. 5 per month)";
  }

  private static String dollars(double cents) {
    BigDecimal d = new BigDecimal(cents).movePointLeft(2);
    d =
        d.abs().compareTo(BigDecimal.ONE) >= 0
            ? d.setScale(2, RoundingMode.HALF_UP)
            : d.setScale(4, RoundingMode.HALF_UP).stripTrailingZeros();
    if (d.scale() < 2) {
      d = d.setScale(2, RoundingMode.UNNECESSARY);
    }
    return "$" + d.toPlainString();
  }
}
