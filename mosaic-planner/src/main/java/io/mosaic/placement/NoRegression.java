package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.Placement;
import java.util.Objects;

/**
 * Paper Section 5.4: no scan may become slower than {@code (1 + slack)} times its time under a
 * reference placement (usually the current one), so an upgrade has no "loser queries".
 *
 * @param slack allowed slowdown as a fraction: 0 forbids any, 0.1 allows 10 %
 */
public record NoRegression(Placement reference, double slack) {
  public NoRegression {
    Objects.requireNonNull(reference, "reference");
    if (!(slack >= 0) || Double.isInfinite(slack)) {
      throw MosaicException.invalid(
          "no-regression slack must be a fraction >= 0 (0.1 = 10 %), not " + slack);
    }
  }
}
