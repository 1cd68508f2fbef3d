package io.mosaic.placement;

import io.mosaic.device.DevicePool;
import io.mosaic.maintenance.Migrator;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Prediction;
import io.mosaic.model.Workload;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.RangeUnits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A placement computed for tables on the installed pool (capacity mode, paper Section 3.4): what
 * {@code mosaic place} prints and the engines' SQL procedures return, and the per-table column
 * {@code -> device} maps that core's {@code Migrator} applies.
 *
 * @param result the strategy's placement and prediction
 * @param current where each column lives now
 * @param before the predicted workload time of the current placement
 * @param columns one row per column, in the tables' schema order
 * @param scans the number of distinct scans recorded
 * @param scansPlanned the distinct scans the strategy solved on (fewer when sampled, Section 5.5)
 * @param worstScanRatio the largest planned/current time of a recorded scan (Section 5.4's
 *     measure), NaN when no recorded scan takes time now
 * @param units for a range-aware plan (docs/row-ranges.md), the row-range unit behind each planned
 *     "column" ({@code column[from:to]}); empty when whole columns are placed
 * @param measuredQuerySeconds the engine queries' own times recorded with the trace, in all; NaN
 *     when no query was timed ({@link InstalledPool#queryTimes})
 * @param nonScanSeconds the part of those that their predicted scans at the current placement do
 *     not explain; NaN when no query was timed (docs/cost-model.md, "Predicted query time")
 */
public record InstalledPlan(
    PlacementResult result,
    Placement current,
    Prediction before,
    List<ColumnPlan> columns,
    int scans,
    int scansPlanned,
    double worstScanRatio,
    Map<ColumnRef, RangeUnits.Unit> units,
    double measuredQuerySeconds,
    double nonScanSeconds) {

  /** One column: where it is, where it goes and how many bytes it would take there. */
  public record ColumnPlan(ColumnRef column, String from, String to, long storedBytes) {
    public boolean moves() {
      return !to.equals(from);
    }
  }

  public InstalledPlan {
    columns = List.copyOf(columns);
    units = Collections.unmodifiableMap(new LinkedHashMap<>(units));
  }

  /**
   * Places the tables' columns on the pool from their recorded trace (current epoch), real sizes
   * and the calibrated device model; placing several tables together shares the pool between them.
   *
   * @throws IllegalArgumentException if the pool has no device model or nothing was recorded
   * @throws InfeasiblePlacementException if the tables do not fit on the pool
   */
  public static InstalledPlan compute(
      DevicePool pool, List<MosaicTable> tables, PlacementStrategy strategy) throws IOException {
    return compute(pool, tables, strategy, (columns, current) -> PlacementOptions.defaults());
  }

  /** The user's constraints for the tables' columns, given where they live now. */
  public interface OptionsFor {
    PlacementOptions options(List<ColumnRef> columns, Placement current);
  }

  /**
   * As {@link #compute(DevicePool, List, PlacementStrategy)}, under the user's constraints (pins,
   * per-device bytes, a device cap, the no-regression bound, sampling).
   */
  public static InstalledPlan compute(
      DevicePool pool, List<MosaicTable> tables, PlacementStrategy strategy, OptionsFor options)
      throws IOException {
    return compute(pool, tables, strategy, options, false);
  }

  /**
   * As {@link #compute(DevicePool, List, PlacementStrategy, OptionsFor)}; with {@code ranges}, the
   * units placed are row ranges of the columns that the recorded scans read alike
   * (docs/row-ranges.md), so a column's hot range can live apart from the rest of it.
   */
  public static InstalledPlan compute(
      DevicePool pool,
      List<MosaicTable> tables,
      PlacementStrategy strategy,
      OptionsFor options,
      boolean ranges)
      throws IOException {
    CostModel model;
    Workload workload;
    Placement current;
    Map<ColumnRef, RangeUnits.Unit> units = Map.of();
    if (ranges) {
      InstalledPool.Ranges r = InstalledPool.ranges(tables);
      model = InstalledPool.modelOf(pool, r.sizes());
      workload = r.workload();
      current = r.current();
      units = r.units();
    } else {
      model = InstalledPool.model(pool, tables);
      workload = InstalledPool.workload(tables);
      current = InstalledPool.currentPlacement(pool, tables);
    }
    PlacementProblem problem =
        new PlacementProblem(
            model, workload, PlacementMode.CAPACITY, options.options(model.columns(), current));
    PlacementResult result = strategy.place(problem);
    List<ColumnPlan> columns = new ArrayList<>();
    for (Map.Entry<ColumnRef, String> e : result.placement().deviceOf().entrySet()) {
      columns.add(
          new ColumnPlan(
              e.getKey(),
              current.deviceOf().get(e.getKey()),
              e.getValue(),
              model.storedBytes(model.device(e.getValue()), e.getKey())));
    }
    double worst = Double.NaN;
    for (DistinctScan scan : workload.scans()) {
      double now = model.scanTime(scan, current);
      if (now > 0) {
        double ratio = model.scanTime(scan, result.placement()) / now;
        worst = Double.isNaN(worst) ? ratio : Math.max(worst, ratio);
      }
    }
    double measured = Double.NaN;
    double nonScan = Double.NaN;
    Optional<InstalledPool.QueryTimes> timed = InstalledPool.queryTimes(tables);
    if (timed.isPresent()) {
      // The queries' scans as recorded, whole columns, whatever units the plan places.
      measured = timed.get().seconds();
      nonScan =
          ranges
              ? timed
                  .get()
                  .nonScanSeconds(
                      InstalledPool.model(pool, tables),
                      InstalledPool.currentPlacement(pool, tables))
              : timed.get().nonScanSeconds(model, current);
    }
    return new InstalledPlan(
        result,
        current,
        model.predict(workload, current),
        columns,
        workload.scans().size(),
        problem.solveWorkload().scans().size(),
        worst,
        units,
        measured,
        nonScan);
  }

  /**
   * The recorded workload's predicted time under the plan as whole queries: its predicted scans
   * plus the timed queries' time outside their scans (docs/cost-model.md, "Predicted query time");
   * NaN when no query was timed.
   */
  public double predictedQuerySecondsAfter() {
    return result.prediction().totalSeconds() + nonScanSeconds;
  }

  /** Bytes that would be written to other devices (stored size on the target device). */
  public long bytesToMove() {
    return columns.stream().filter(ColumnPlan::moves).mapToLong(ColumnPlan::storedBytes).sum();
  }

  /** The column {@code ->} device map of one table, for core's {@code Migrator.plan}. */
  public Map<String, String> placementOf(String table) {
    if (!units.isEmpty()) {
      throw new IllegalStateException("a range-aware plan is applied by rangesOf, not placementOf");
    }
    Map<String, String> placement = new LinkedHashMap<>();
    for (ColumnPlan c : columns) {
      if (c.column().table().equals(table)) {
        placement.put(c.column().column(), c.to());
      }
    }
    return placement;
  }

  /** Whether the plan places row ranges (docs/row-ranges.md) rather than whole columns. */
  public boolean rangeAware() {
    return !units.isEmpty();
  }

  /** The row ranges of one table and their devices, for core's {@code Migrator.planRanges}. */
  public List<Migrator.RangeTarget> rangesOf(String table) {
    List<Migrator.RangeTarget> targets = new ArrayList<>();
    for (ColumnPlan c : columns) {
      RangeUnits.Unit u = units.get(c.column());
      if (u != null && u.column().table().equals(table)) {
        targets.add(new Migrator.RangeTarget(u.column().column(), u.from(), u.to(), c.to()));
      }
    }
    return targets;
  }
}
