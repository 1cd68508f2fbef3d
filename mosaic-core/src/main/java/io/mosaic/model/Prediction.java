package io.mosaic.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the model predicts for a placement: Eq. 4's total scan time, each distinct scan's Eq. 3 time
 * (unweighted, in the workload's order), Eq. 5's cost and the bytes each device would hold.
 *
 * @param costCents Eq. 5, in cents (prices are per GB = 1e9 bytes)
 * @param bytesPerDevice stored (compressed) bytes per device id, every device listed, in pool order
 * @param expectedSwitches group switches of cold devices the workload's scans expect, weighted as
 *     Eq. 4 (docs/cost-model.md, "Cold devices"); 0 without a cold device
 */
public record Prediction(
    double totalSeconds,
    List<Double> perScanSeconds,
    double costCents,
    Map<String, Long> bytesPerDevice,
    double expectedSwitches) {
  /** A prediction without cold devices. */
  public Prediction(
      double totalSeconds,
      List<Double> perScanSeconds,
      double costCents,
      Map<String, Long> bytesPerDevice) {
    this(totalSeconds, perScanSeconds, costCents, bytesPerDevice, 0);
  }

  public Prediction {
    perScanSeconds = List.copyOf(perScanSeconds);
    bytesPerDevice = Collections.unmodifiableMap(new LinkedHashMap<>(bytesPerDevice));
  }
}
