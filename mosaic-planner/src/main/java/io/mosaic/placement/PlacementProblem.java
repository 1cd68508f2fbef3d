package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * What a strategy is asked (paper Section 4.2): the cost model (devices and column sizes), the
 * trace's distinct scans, the mode, and the user's options. Validated on construction, so
 * strategies can trust every name in it.
 */
public record PlacementProblem(
    CostModel model, Workload workload, PlacementMode mode, PlacementOptions options) {

  public PlacementProblem {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(options, "options");
    model.validate(workload);
    options
        .pinned()
        .forEach(
            (column, device) -> {
              if (!model.sizes().containsKey(column)) {
                throw MosaicException.notFound(
                    "pinned column " + column + " is not a column of the tables being placed");
              }
              requireDevice(model, device, "column " + column + " is pinned to");
            });
    options.minBytes().keySet().forEach(d -> requireDevice(model, d, "minimum bytes given for"));
    options.maxBytes().keySet().forEach(d -> requireDevice(model, d, "maximum bytes given for"));
    options
        .minBytes()
        .forEach(
            (d, min) -> {
              Long max = options.maxBytes().get(d);
              if (max != null && max < min) {
                throw MosaicException.invalid(
                    "device '"
                        + d
                        + "': minimum "
                        + Numbers.bytes(min)
                        + " is above maximum "
                        + Numbers.bytes(max));
              }
            });
    if (options.noRegression() != null) {
      model.checkComplete(options.noRegression().reference());
    }
  }

  public static PlacementProblem capacity(CostModel model, Workload workload) {
    return new PlacementProblem(
        model, workload, PlacementMode.CAPACITY, PlacementOptions.defaults());
  }

  public static PlacementProblem budget(CostModel model, Workload workload, double budgetCents) {
    return new PlacementProblem(
        model, workload, PlacementMode.budget(budgetCents), PlacementOptions.defaults());
  }

  public PlacementProblem withOptions(PlacementOptions options) {
    return new PlacementProblem(model, workload, mode, options);
  }

  public boolean budgetMode() {
    return mode instanceof PlacementMode.Budget;
  }

  /**
   * The scans strategies solve on. With a sample fraction below 1 (Section 5.5), a deterministic
   * sample of the distinct scans: {@code max(1, round(fraction * n))} of them, chosen by shuffling
   * with the seed, kept in trace order. Each sampled scan keeps its own weight: the sample decides
   * which scans the solver sees, not how often they run.
   */
  public Workload solveWorkload() {
    List<DistinctScan> scans = workload.scans();
    if (options.sampleFraction() >= 1 || scans.isEmpty()) {
      return workload;
    }
    int keep = (int) Math.max(1, Math.round(options.sampleFraction() * scans.size()));
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < scans.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(options.seed()));
    List<Integer> chosen = new ArrayList<>(order.subList(0, keep));
    Collections.sort(chosen);
    return new Workload(chosen.stream().map(scans::get).toList());
  }

  /**
   * The most stored bytes {@code device} may hold: its capacity in capacity mode (Eq. 7), no limit
   * in budget mode, and in both the user's maximum if smaller.
   */
  public long limitBytes(DeviceProfile device) {
    long limit = budgetMode() ? Long.MAX_VALUE : device.capacityBytes();
    Long max = options.maxBytes().get(device.id());
    return max == null ? limit : Math.min(limit, max);
  }

  /** The device {@code column} is pinned to, or null. */
  public String pinnedDevice(ColumnRef column) {
    return options.pinned().get(column);
  }

  private static void requireDevice(CostModel model, String device, String context) {
    if (!model.hasDevice(device)) {
      throw MosaicException.notFound(
          context
              + " unknown device '"
              + device
              + "'; devices: "
              + String.join(", ", model.devices().stream().map(DeviceProfile::id).toList()));
    }
  }
}
