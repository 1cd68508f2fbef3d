package io.mosaic.maintenance;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.placement.InstalledPlan;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs the maintenance operations for every front end (docs/operations.md): plans with the planner,
 * applies through core's {@link Migrator}, and whenever a migration commits starts a new trace
 * epoch, because the scans recorded so far were timed on the old placement (paper Section 3.4). The
 * front ends only parse their syntax into the requests and print the results.
 */
public final class MaintenanceExecutor {
  private final DevicePool pool;
  private final Function<String, MosaicTable> open;

  /**
   * @param open opens a table by the name the front end uses (a directory in the CLI, {@code
   *     ns.table} in Spark and Trino), throwing the front end's own not-found error
   */
  public MaintenanceExecutor(DevicePool pool, Function<String, MosaicTable> open) {
    this.pool = Objects.requireNonNull(pool, "pool");
    this.open = Objects.requireNonNull(open, "open");
  }

  public PlaceResult place(PlaceRequest request) throws IOException {
    return place(request, new Migrator.Listener() {});
  }

  /** Plans, and with {@link PlaceRequest#apply()} migrates each table that has columns to move. */
  public PlaceResult place(PlaceRequest request, Migrator.Listener listener) throws IOException {
    List<MosaicTable> tables = new ArrayList<>();
    request.tables().forEach(name -> tables.add(open.apply(name)));
    InstalledPlan plan =
        InstalledPlan.compute(
            pool,
            tables,
            InstalledPlan.strategy(request.strategy(), request.timeLimit()),
            (columns, current) -> request.options(columns, current),
            request.ranges());
    var pins = request.options(plan.current().deviceOf().keySet(), plan.current()).pinned();

    Set<String> moved = new HashSet<>();
    Map<String, Integer> epochs = new HashMap<>();
    if (request.apply()) {
      for (MosaicTable table : tables) {
        Migrator migrator = new Migrator(table);
        Applied a =
            migrate(
                table,
                plan.rangeAware()
                    ? migrator.planRanges(plan.rangesOf(table.name()))
                    : migrator.plan(plan.placementOf(table.name())),
                listener);
        a.plan().moves().forEach(m -> moved.add(table.name() + "." + m.column()));
        if (a.epoch() != null) {
          epochs.put(table.name(), a.epoch());
        }
      }
    }
    List<PlaceResult.ColumnRow> rows = new ArrayList<>();
    for (InstalledPlan.ColumnPlan c : plan.columns()) {
      rows.add(
          new PlaceResult.ColumnRow(
              c.column().table(),
              c.column().column(),
              c.from(),
              c.to(),
              pins.containsKey(c.column()),
              c.storedBytes(),
              // A unit of a range-aware plan (column[from:to]) moved when its table's migration
              // committed and it was to change device.
              plan.rangeAware()
                  ? c.moves() && epochs.containsKey(c.column().table())
                  : moved.contains(c.column().toString()),
              epochs.get(c.column().table())));
    }
    int devicesUsed =
        (int) plan.columns().stream().map(InstalledPlan.ColumnPlan::to).distinct().count();
    return new PlaceResult(
        request.strategy(),
        plan.result().strategy(),
        rows,
        plan.before().totalSeconds(),
        plan.result().prediction().totalSeconds(),
        plan.scans(),
        plan.scansPlanned(),
        devicesUsed,
        plan.worstScanRatio(),
        plan.bytesToMove(),
        plan.result().gap());
  }

  public MoveResult move(MoveRequest request) throws IOException {
    return move(request, new Migrator.Listener() {});
  }

  /** Moves the named columns (or, in a dry run, says what would move). */
  public MoveResult move(MoveRequest request, Migrator.Listener listener) throws IOException {
    MosaicTable table = open.apply(request.table());
    Applied a;
    if (request.apply()) {
      a = migrate(table, new Migrator(table).plan(request.placement()), listener);
    } else {
      Migrator.Plan p = new Migrator(table).plan(request.placement());
      a = new Applied(p, null, null);
    }
    // One row per column and target device: a column whose row ranges (issue 26) go to several
    // devices has a row for each.
    Map<List<String>, List<Migrator.Move>> byTarget = new LinkedHashMap<>();
    a.plan()
        .moves()
        .forEach(
            m ->
                byTarget
                    .computeIfAbsent(List.of(m.column(), m.toDevice()), c -> new ArrayList<>())
                    .add(m));
    List<MoveResult.ColumnRow> rows = new ArrayList<>();
    byTarget.forEach(
        (key, moves) ->
            rows.add(
                new MoveResult.ColumnRow(
                    key.get(0),
                    String.join(
                        ",", moves.stream().map(m -> m.from().device()).distinct().toList()),
                    key.get(1),
                    moves.size(),
                    moves.stream().mapToLong(Migrator.Move::sourceBytes).sum(),
                    a.after() == null
                        ? moves.stream().mapToLong(Migrator.Move::estimatedBytes).sum()
                        : a.after().segmentsOf(key.get(0)).stream()
                            .filter(seg -> seg.device().equals(key.get(1)))
                            .mapToLong(SegmentEntry::fileBytes)
                            .sum(),
                    a.after() != null,
                    a.epoch())));
    long version = a.after() == null ? a.plan().baseVersion() : a.after().version();
    return new MoveResult(table.name(), rows, a.plan(), version);
  }

  /**
   * Adds the statistics writers collect to the row groups of the table that lack them (tables
   * written before writers collected them, chunks {@code import} copied), in one new version.
   */
  public AnalyzeResult analyze(String tableName) {
    MosaicTable table = open.apply(tableName);
    TableAnalyzer.Result r = TableAnalyzer.analyze(table);
    return new AnalyzeResult(
        table.name(),
        r.segmentsRead(),
        r.rowGroupsAnalyzed(),
        r.version() == 0 ? null : r.version());
  }

  /** Where each column of the table's latest version lives now. */
  public PlacementStatus status(String tableName) {
    Manifest m = open.apply(tableName).latest();
    return new PlacementStatus(tableName, m.version(), m.storedColumns());
  }

  /** A migration's plan, the version it committed and the epoch it started (nulls if none). */
  private record Applied(Migrator.Plan plan, Manifest after, Integer epoch) {}

  private static Applied migrate(MosaicTable table, Migrator.Plan plan, Migrator.Listener listener)
      throws IOException {
    Migrator migrator = new Migrator(table);
    if (plan.moves().isEmpty()) {
      return new Applied(plan, null, null); // nothing committed: the trace still describes the data
    }
    migrator.checkSpace(plan);
    Manifest after = migrator.apply(plan, listener);
    int epoch = new TraceLog(table.root()).newEpoch();
    return new Applied(plan, after, epoch);
  }
}
