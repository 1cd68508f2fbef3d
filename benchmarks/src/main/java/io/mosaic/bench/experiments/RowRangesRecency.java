package io.mosaic.bench.experiments;

import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.BudgetSweep;
import io.mosaic.placement.InstalledPool;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.PlacementResult;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpch.TpchTables;
import io.mosaic.workload.RangeUnits;
import io.trino.tpch.LineItem;
import io.trino.tpch.Order;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The measure of row-range placement: hot row ranges against whole columns under a recency-skewed
 * workload, in budget mode over the four emulated Table 1 devices (docs/row-ranges.md,
 * docs/experiments).
 *
 * <p>The workload: TPC-H lineitem and orders written in date order ({@code l_shipdate}, {@code
 * o_orderdate}) in {@value #ROW_GROUPS} row groups each, and the scans of the 22 queries on them
 * (the planner's built-in TPC-H trace). The transformation: a scan that reads a date column of its
 * table (a query with a date predicate there) reads only the most recent RECENT fraction of the row
 * groups, as min/max skipping leaves a predicate shifted to the last months; the others read every
 * row group. Column-only LOPT plans as {@code place} does without ranges (whole columns, each scan
 * as reading its columns whole); range-aware LOPT plans on the units the same scans draw ({@link
 * RangeUnits}). At each budget both are migrated and the same scans are measured through the
 * retriever (median of RUNS runs).
 *
 * <p>Usage: {@code benchmarks/bench experiments.RowRangesRecency [SF] [DIVISOR] [BUDGETS] [RUNS]
 * [RECENT]} (defaults 0.1, 50, 5, 3, 0.2). Writes {@code docs/experiments/row-ranges.{csv,svg}}
 * ({@code row-ranges-TAG} with {@code EXPERIMENT_TAG}).
 */
public final class RowRangesRecency {
  static final int ROW_GROUPS = 20;
  private static final Set<String> DATE_COLUMNS =
      Set.of("l_shipdate", "l_commitdate", "l_receiptdate", "o_orderdate");

  private RowRangesRecency() {}

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    double divisor = args.length > 1 ? Double.parseDouble(args[1]) : 50;
    int budgets = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int runs = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    double recent = args.length > 4 ? Double.parseDouble(args[4]) : 0.2;
    Path out = Path.of("docs/experiments");
    long start = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "Row ranges (issue 26): TPC-H SF %s lineitem and orders in date order, %d row groups,"
            + " date scans read the last %.0f%%; Table 1 read rates / %s%n",
        sf,
        ROW_GROUPS,
        100 * recent,
        divisor);
    try (ExperimentPool pool = load(Path.of("mosaic-work/experiments/row-ranges"), sf, divisor)) {
      Workload columnTrace = onTables(pool.trace(), Set.of("lineitem", "orders"));
      List<RangeUnits.RangeScan> scans = recencyScans(pool, columnTrace, recent);
      Split skewed = split(pool, scans);
      List<RangeUnits.RangeScan> even = new ArrayList<>();
      for (RangeUnits.RangeScan s : scans) {
        Set<Integer> all = new TreeSet<>();
        int groups = rowGroups(pool, s.table());
        for (int g = 0; g < groups; g++) {
          all.add(g);
        }
        even.add(new RangeUnits.RangeScan(s.table(), s.columns(), all, s.weight()));
      }
      Split unskewed = split(pool, even);
      int columns = pool.sizes().size();
      System.out.printf(
          Locale.ROOT,
          "  %d distinct scans; units: %d with the recency skew, %d without it, for %d columns%n",
          scans.size(),
          skewed.units(),
          unskewed.units(),
          columns);

      Optional<io.mosaic.model.CpuModel> cpu = Optional.of(pool.cpu());
      CostModel columnModel = CostModel.of(pool.configuredProfiles(), pool.sizes()).withCpu(cpu);
      CostModel rangeModel = CostModel.of(pool.configuredProfiles(), skewed.sizes()).withCpu(cpu);
      BudgetSweep.Result sweep =
          new BudgetSweep(new LoptStrategy(Duration.ofSeconds(20)), budgets)
              .sweep(columnModel, columnTrace, PlacementOptions.defaults());
      System.out.printf(
          Locale.ROOT,
          "  column sweep from %.4f to %.4f ct; warm-up run: %.2f s%n",
          sweep.minimumCents(),
          sweep.saturationCents(),
          pool.runRanges(scans).seconds());
      CsvFile csv =
          new CsvFile(
              "budget_cents",
              "column_cost_cents",
              "column_predicted_s",
              "column_measured_s",
              "column_solve_s",
              "range_cost_cents",
              "range_predicted_s",
              "range_measured_s",
              "range_solve_s",
              "speedup",
              "load");
      List<SvgChart.Point> columnPoints = new ArrayList<>();
      List<SvgChart.Point> rangePoints = new ArrayList<>();
      double best = 0;
      // Both models' cheapest placement (everything on the HDD) must fit the first budget; their
      // sizes differ by the rounding of sharing a segment's bytes among its row groups.
      Map<ColumnRef, String> onHdd = new LinkedHashMap<>();
      rangeModel.columns().forEach(c -> onHdd.put(c, "hdd"));
      double low =
          Math.max(sweep.minimumCents(), rangeModel.cost(new Placement(onHdd))) * (1 + 1e-6);
      for (int i = 0; i < budgets; i++) {
        double budget = low + (sweep.saturationCents() - low) * i / Math.max(1, budgets - 1);
        Solved column = solve(columnModel, columnTrace, budget);
        Solved range = solve(rangeModel, skewed.workload(), budget);
        pool.migrate(column.result().placement());
        ExperimentPool.Measurement columnRun = medianRanges(pool, scans, runs);
        pool.migrate(range.result().placement());
        ExperimentPool.Measurement rangeRun = medianRanges(pool, scans, runs);
        double speedup = columnRun.seconds() / rangeRun.seconds();
        best = Math.max(best, speedup);
        csv.row(
            budget,
            columnModel.cost(column.result().placement()),
            column.result().prediction().totalSeconds(),
            columnRun.seconds(),
            column.seconds(),
            rangeModel.cost(range.result().placement()),
            range.result().prediction().totalSeconds(),
            rangeRun.seconds(),
            range.seconds(),
            speedup,
            rangeRun.load());
        columnPoints.add(new SvgChart.Point(budget, columnRun.seconds()));
        rangePoints.add(new SvgChart.Point(budget, rangeRun.seconds()));
        System.out.printf(
            Locale.ROOT,
            "[%4.0f s] budget %.4f ct: columns %.2f s measured (%.2f predicted, solved in %.2f s),"
                + " ranges %.2f s measured (%.2f predicted, solved in %.2f s): %.2fx, load %.1f%n",
            (System.nanoTime() - start) / 1e9,
            budget,
            columnRun.seconds(),
            column.result().prediction().totalSeconds(),
            column.seconds(),
            rangeRun.seconds(),
            range.result().prediction().totalSeconds(),
            range.seconds(),
            speedup,
            rangeRun.load());
      }
      csv.write(out.resolve(ExperimentPool.outputName("row-ranges", "csv")));
      Files.writeString(
          out.resolve(ExperimentPool.outputName("row-ranges", "svg")),
          new SvgChart(
                  String.format(
                      Locale.ROOT,
                      "Row ranges vs whole columns, LOPT budget mode (TPC-H SF %s, recency skew;"
                          + " best %.2fx)",
                      sf,
                      best),
                  "budget, cents",
                  "workload scan time, measured (s)")
              .add(
                  new SvgChart.Series(
                      "column-only LOPT", "#7f7f7f", SvgChart.Style.LINE, columnPoints))
              .add(
                  new SvgChart.Series(
                      "range-aware LOPT", "#d62728", SvgChart.Style.LINE, rangePoints))
              .xy());
      System.out.printf(
          Locale.ROOT,
          "Best measured speed-up of ranges over columns: %.2fx. Done in %.0f s.%n",
          best,
          (System.nanoTime() - start) / 1e9);
    }
  }

  /**
   * The pool of this experiment: TPC-H lineitem and orders in date order, {@value #ROW_GROUPS} row
   * groups each, every column on the HDD.
   */
  static ExperimentPool load(Path work, double sf, double divisor) throws IOException {
    List<TpchTable<?>> tables = List.of(TpchTable.LINE_ITEM, TpchTable.ORDERS);
    return ExperimentPool.create(
        work,
        sf,
        divisor,
        tables,
        (t, root, devices, properties) -> {
          Map<String, String> props = new HashMap<>(properties);
          long rows = Math.round((t == TpchTable.LINE_ITEM ? 6_001_215 : 1_500_000) * sf);
          props.put(
              TableProperties.ROW_GROUP_ROWS, Long.toString(-Math.floorDiv(-rows, ROW_GROUPS)));
          return t == TpchTable.LINE_ITEM
              ? TpchTables.load(
                  TpchTable.LINE_ITEM,
                  sf,
                  root,
                  devices,
                  props,
                  n -> {},
                  Comparator.comparingInt(LineItem::getShipDate))
              : TpchTables.load(
                  TpchTable.ORDERS,
                  sf,
                  root,
                  devices,
                  props,
                  n -> {},
                  Comparator.comparingInt(Order::getOrderDate));
        });
  }

  /**
   * The scans of {@code columnTrace} with the recency skew: one reading a date column of its table
   * reads the last {@code recent} of the row groups, the others all of them.
   */
  static List<RangeUnits.RangeScan> recencyScans(
      ExperimentPool pool, Workload columnTrace, double recent) {
    List<RangeUnits.RangeScan> scans = new ArrayList<>();
    for (DistinctScan s : columnTrace.scans()) {
      String table = s.sortedColumns().first().table();
      Set<String> columns = new TreeSet<>();
      s.sortedColumns().forEach(c -> columns.add(c.column()));
      int groups = rowGroups(pool, table);
      int first =
          columns.stream().anyMatch(DATE_COLUMNS::contains)
              ? groups - (int) Math.ceil(groups * recent)
              : 0;
      Set<Integer> read = new TreeSet<>();
      for (int g = first; g < groups; g++) {
        read.add(g);
      }
      scans.add(new RangeUnits.RangeScan(table, columns, read, s.weight()));
    }
    return scans;
  }

  record Split(int units, List<ColumnSize> sizes, Workload workload) {}

  private record Solved(PlacementResult result, double seconds) {}

  private static int rowGroups(ExperimentPool pool, String table) {
    return pool.tables().stream()
        .filter(t -> t.name().equals(table))
        .findFirst()
        .orElseThrow()
        .latest()
        .rowGroups()
        .size();
  }

  static Split split(ExperimentPool pool, List<RangeUnits.RangeScan> scans) {
    int units = 0;
    List<ColumnSize> sizes = new ArrayList<>();
    List<DistinctScan> unitScans = new ArrayList<>();
    for (MosaicTable table : pool.tables()) {
      Manifest m = table.latest();
      Map<String, RangeUnits.RowGroupSizes> bytes = new LinkedHashMap<>();
      m.schema()
          .columns()
          .forEach(
              c ->
                  bytes.put(
                      c.name(), InstalledPool.rowGroupSizes(m, c.name(), m.rowGroups().size())));
      RangeUnits.Split s = RangeUnits.split(table.name(), bytes, scans);
      units += s.units().size();
      sizes.addAll(s.sizes());
      unitScans.addAll(s.workload().scans());
    }
    return new Split(units, sizes, Workload.merging(unitScans));
  }

  private static Solved solve(CostModel model, Workload workload, double budget) {
    long t0 = System.nanoTime();
    PlacementResult r =
        new LoptStrategy(Duration.ofSeconds(60))
            .place(
                new PlacementProblem(
                    model, workload, PlacementMode.budget(budget), PlacementOptions.defaults()));
    return new Solved(r, (System.nanoTime() - t0) / 1e9);
  }

  private static ExperimentPool.Measurement medianRanges(
      ExperimentPool pool, List<RangeUnits.RangeScan> scans, int runs) {
    List<ExperimentPool.Measurement> all = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      all.add(pool.runRanges(scans));
    }
    all.sort(Comparator.comparingDouble(ExperimentPool.Measurement::seconds));
    return all.get(runs / 2);
  }

  /** The scans of {@code workload} on these tables. */
  static Workload onTables(Workload workload, Set<String> tables) {
    List<DistinctScan> kept = new ArrayList<>();
    for (DistinctScan s : workload.scans()) {
      if (s.sortedColumns().stream().map(ColumnRef::table).allMatch(tables::contains)) {
        kept.add(s);
      }
    }
    return Workload.merging(kept);
  }
}
