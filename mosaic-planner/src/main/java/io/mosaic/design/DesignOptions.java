package io.mosaic.design;

import io.mosaic.MosaicException;

/**
 * When a transformation pays off (Physical Design Management in Ceph, Section IV: identification
 * with a cost-benefit check).
 *
 * @param horizonRuns how many more runs of the recorded workload the benefit is counted over
 * @param payoffFactor the benefit over the horizon must exceed the transformation's cost by this
 *     factor
 */
public record DesignOptions(double horizonRuns, double payoffFactor) {
  /** Ten more runs of the workload, twice the cost: a move pays for itself well within them. */
  public static final DesignOptions DEFAULTS = new DesignOptions(10, 2);

  public DesignOptions {
    if (!(horizonRuns > 0) || Double.isInfinite(horizonRuns)) {
      throw MosaicException.invalid(
          "horizon of " + horizonRuns + " workload runs: give a number above 0");
    }
    if (!(payoffFactor >= 0) || Double.isInfinite(payoffFactor)) {
      throw MosaicException.invalid(
          "payoff factor " + payoffFactor + ": give 0 or more (2: the benefit twice the cost)");
    }
  }
}
