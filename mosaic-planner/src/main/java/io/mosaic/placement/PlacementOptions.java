package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import java.util.Map;

/**
 * The user's extra constraints on a placement (paper Section 4.5, "the user can easily extend
 * LOPT") and the sampling of Section 5.5. Immutable; the {@code with*} methods return copies.
 *
 * @param pinned columns that must stay on a given device
 * @param minBytes per device, the least stored bytes it must hold (e.g. a device already bought)
 * @param maxBytes per device, the most stored bytes it may hold (a size to buy, a quota)
 * @param maxDevices how many devices may hold data (expansion slots); null for no limit
 * @param noRegression per-scan bound against a reference placement (Section 5.4); null for none
 * @param sampleFraction fraction of the distinct scans to solve on, in (0, 1]; 1 solves on all
 * @param seed the sample's seed: the same seed gives the same sample
 */
public record PlacementOptions(
    Map<ColumnRef, String> pinned,
    Map<String, Long> minBytes,
    Map<String, Long> maxBytes,
    Integer maxDevices,
    NoRegression noRegression,
    double sampleFraction,
    long seed) {

  public PlacementOptions {
    pinned = Map.copyOf(pinned);
    minBytes = Map.copyOf(minBytes);
    maxBytes = Map.copyOf(maxBytes);
    minBytes.forEach((d, b) -> requireNonNegative("minimum bytes of device '" + d + "'", b));
    maxBytes.forEach((d, b) -> requireNonNegative("maximum bytes of device '" + d + "'", b));
    if (maxDevices != null && maxDevices < 1) {
      throw MosaicException.invalid("max devices must be at least 1, not " + maxDevices);
    }
    if (!(sampleFraction > 0 && sampleFraction <= 1)) {
      throw MosaicException.invalid(
          "sample fraction must be in (0, 1] (0.6 solves on 60 % of the distinct scans), not "
              + sampleFraction);
    }
  }

  public static PlacementOptions defaults() {
    return new PlacementOptions(Map.of(), Map.of(), Map.of(), null, null, 1.0, 0L);
  }

  public PlacementOptions withPinned(Map<ColumnRef, String> pinned) {
    return new PlacementOptions(
        pinned, minBytes, maxBytes, maxDevices, noRegression, sampleFraction, seed);
  }

  public PlacementOptions withMinBytes(Map<String, Long> minBytes) {
    return new PlacementOptions(
        pinned, minBytes, maxBytes, maxDevices, noRegression, sampleFraction, seed);
  }

  public PlacementOptions withMaxBytes(Map<String, Long> maxBytes) {
    return new PlacementOptions(
        pinned, minBytes, maxBytes, maxDevices, noRegression, sampleFraction, seed);
  }

  public PlacementOptions withMaxDevices(Integer maxDevices) {
    return new PlacementOptions(
        pinned, minBytes, maxBytes, maxDevices, noRegression, sampleFraction, seed);
  }

  public PlacementOptions withNoRegression(NoRegression noRegression) {
    return new PlacementOptions(
        pinned, minBytes, maxBytes, maxDevices, noRegression, sampleFraction, seed);
  }

  public PlacementOptions withSample(double sampleFraction, long seed) {
    return new PlacementOptions(
        pinned, minBytes, maxBytes, maxDevices, noRegression, sampleFraction, seed);
  }

  private static void requireNonNegative(String what, long bytes) {
    if (bytes < 0) {
      throw MosaicException.invalid(what + " cannot be negative: " + bytes);
    }
  }
}
