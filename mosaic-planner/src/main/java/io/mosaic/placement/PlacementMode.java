package io.mosaic.placement;

import io.mosaic.MosaicException;

/**
 * The two modes of paper Section 3.4: place data on installed devices up to their capacity (Eq. 7),
 * or recommend what to buy for a budget (Eq. 8), capacities unbounded.
 */
public sealed interface PlacementMode {
  Capacity CAPACITY = new Capacity();

  static Budget budget(double cents) {
    return new Budget(cents);
  }

  /** Installed devices: every device's stored bytes stay within its capacity (Eq. 7). */
  record Capacity() implements PlacementMode {
    @Override
    public String toString() {
      return "capacity";
    }
  }

  /** Devices to buy: the placement's total price (Eq. 5) stays within the budget (Eq. 8). */
  record Budget(double budgetCents) implements PlacementMode {
    public Budget {
      if (!(budgetCents >= 0) || Double.isInfinite(budgetCents)) {
        throw MosaicException.invalid(
            "a budget must be zero or a positive number of cents, not " + budgetCents);
      }
    }

    @Override
    public String toString() {
      return "budget " + Numbers.cents(budgetCents);
    }
  }
}
