package io.mosaic.placement;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The greedy fill both HOT strategies share (Sections 4.3, 4.4): groups of columns, hottest first,
 * each on the fastest device that still has room for the whole group. "Fastest" is the highest
 * effective (decompressed) throughput, the rate a scan sees; ties go to the higher raw rate, then
 * pool order. Cold devices come after every warm one whatever their rate: a scan there also waits
 * seconds for group switches (docs/cost-model.md, "Cold devices"), so they are the last tier.
 */
final class HotPlacer {
  private final String strategy;
  private final PlacementProblem problem;
  private final List<DeviceProfile> fastestFirst;
  private final Map<String, Long> free = new LinkedHashMap<>();
  private final Map<ColumnRef, String> placed = new HashMap<>();

  HotPlacer(String strategy, PlacementProblem problem) {
    this.strategy = strategy;
    this.problem = problem;
    requireSupported();
    FeasibilityCheck.check(problem);
    CostModel model = problem.model();
    this.fastestFirst =
        model.devices().stream()
            .sorted(
                Comparator.comparing(DeviceProfile::isCold)
                    .thenComparing(
                        Comparator.comparingDouble(
                                (DeviceProfile d) -> d.effective().bytesPerSecond())
                            .thenComparingDouble(d -> d.raw().bytesPerSecond())
                            .reversed()))
            .toList();
    model.devices().forEach(d -> free.put(d.id(), problem.limitBytes(d)));
    // Pins first: they take their room whatever the hotness order says.
    problem.options().pinned().forEach((column, id) -> put(column, model.device(id)));
  }

  /** HOT knows capacities, not prices or the paper's LOPT-only extensions (Section 4.4, (3)). */
  private void requireSupported() {
    if (problem.budgetMode()) {
      throw MosaicException.unsupported(
          strategy
              + " needs installed devices with known capacities (capacity mode); in budget mode"
              + " use LOPT, which chooses device sizes (paper Section 4.4)");
    }
    PlacementOptions o = problem.options();
    if (!o.minBytes().isEmpty()) {
      throw unsupported("minimum bytes per device");
    }
    if (o.maxDevices() != null) {
      throw unsupported("a maximum number of devices");
    }
    if (o.noRegression() != null) {
      throw unsupported("a no-regression bound");
    }
  }

  private MosaicException unsupported(String option) {
    return MosaicException.unsupported(
        strategy + " does not support " + option + "; use LOPT for that");
  }

  boolean isPlaced(ColumnRef column) {
    return placed.containsKey(column);
  }

  /**
   * Puts the not yet placed columns of {@code group} together on the fastest device with room for
   * all of them.
   *
   * @throws InfeasiblePlacementException if no device has room
   */
  void placeTogether(String what, Collection<ColumnRef> group) {
    List<ColumnRef> todo = group.stream().filter(c -> !placed.containsKey(c)).sorted().toList();
    if (todo.isEmpty()) {
      return;
    }
    CostModel model = problem.model();
    for (DeviceProfile d : fastestFirst) {
      long bytes = todo.stream().mapToLong(c -> model.storedBytes(d, c)).sum();
      if (bytes <= free.get(d.id())) {
        todo.forEach(c -> put(c, d));
        return;
      }
    }
    throw new InfeasiblePlacementException(
        strategy
            + ": no device has room left for "
            + what
            + " ("
            + Numbers.bytes(
                todo.stream()
                    .mapToLong(
                        c ->
                            model.devices().stream()
                                .mapToLong(d -> model.storedBytes(d, c))
                                .min()
                                .orElse(0))
                    .sum())
            + " at least, after compression); LOPT may still find a placement");
  }

  Placement placement() {
    return new Placement(placed);
  }

  private void put(ColumnRef column, DeviceProfile device) {
    placed.put(column, device.id());
    free.merge(device.id(), -problem.model().storedBytes(device, column), Long::sum);
  }
}
