package io.mosaic.operations;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.design.DesignAdvisor;
import io.mosaic.design.DesignExecutor;
import io.mosaic.design.DesignProposal;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.MoveSchedule;
import io.mosaic.design.MoveStep;
import io.mosaic.design.SortAdvisor;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.maintenance.Migrator;
import io.mosaic.maintenance.TableAnalyzer;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.InstalledPlan;
import io.mosaic.placement.InstalledPool;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.placement.StrategyName;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceColumns;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Runs the maintenance operations for every front end (docs/operations.md): plans with the planner,
 * applies through core's {@link Migrator}, and whenever a migration commits starts a new trace
 * epoch, because the scans recorded so far were timed on the old placement (paper Section 3.4). The
 * front ends only parse their syntax into the requests and print the results.
 */
public final class MaintenanceExecutor {
  private final DevicePool pool;
  final Function<String, MosaicTable> open;

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
            StrategyName.parse(request.strategy()).strategy(request.timeLimit()),
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
        plan.result().gap(),
        plan.measuredQuerySeconds(),
        plan.predictedQuerySecondsAfter());
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
    // One row per column and target device: a column whose row ranges (docs/row-ranges.md) go to
    // several
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

  /**
   * Identifies a table's transformation and runs it, or shows and steers one in progress
   * (docs/physical-design.md). With {@code background}, the steps run on a daemon thread of this
   * JVM (one per table: a Trino coordinator, a Spark driver) and this returns at once; else they
   * run here. The queue is kept with the table, so any front end and any process sees and steers
   * the same transformation.
   */
  public MaintainResult maintain(
      MaintainRequest request, DesignExecutor.Listener listener, boolean background)
      throws IOException {
    MosaicTable table = open.apply(request.table());
    if (table.lockFree()) {
      // The queue, its request file and the runner's lock are local files with POSIX locks
      // (docs/physical-design.md); a table on HDFS has neither.
      throw MosaicException.unsupported(
          "maintain (a background transformation) is not available yet for table "
              + request.table()
              + " at "
              + table.location()
              + ", which is not on local files; run place, then move, instead");
    }
    for (String device : request.deviceRates().keySet()) {
      if (pool.devices().stream().noneMatch(d -> d.id().equals(device))) {
        throw MosaicException.invalid(
            "device rate names device '"
                + device
                + "', which the pool does not have; name one of "
                + String.join(", ", pool.devices().stream().map(d -> d.id()).toList()));
      }
    }
    Optional<MoveQueue> existing = MoveQueue.read(table);
    switch (request.action()) {
      case STATUS, PAUSE, CANCEL, RESUME -> {
        if (existing.isEmpty() && request.action() == MaintainRequest.Action.STATUS) {
          if (DesignExecutor.isIdentifying(table)) {
            return identifying(table, "identifying", "its transformation is being identified");
          }
          throw noTransformation(table, "show");
        }
        if (request.action() == MaintainRequest.Action.STATUS) {
          return status(table, existing.get());
        }
        if (request.action() == MaintainRequest.Action.RESUME) {
          MoveQueue queue = existing.orElseThrow(() -> noTransformation(table, "resume"));
          if (queue.state() == MoveQueue.State.DONE) {
            return result(queue);
          }
          // The run measures its rate afresh: the paused step's partial copy is gone. The schedule
          // settings the request gave replace the queue's (resume at another rate); the others
          // and the working set stay as the transformation was started.
          MoveSchedule resumed = resumedSchedule(queue.schedule(), request);
          MoveQueue.update(
              table,
              q ->
                  q.withSchedule(resumed)
                      .withState(MoveQueue.State.RUNNING, null)
                      .withProgress(null));
          return result(execute(table, listener, background));
        }
        // Under the queue's lock: the runner's progress, written meanwhile, does not undo it. A
        // transformation still being identified has no queue yet: the request is kept and its
        // queue starts in this state, rather than running as if nobody had asked.
        MoveQueue.State next =
            request.action() == MaintainRequest.Action.PAUSE
                ? MoveQueue.State.PAUSED
                : MoveQueue.State.CANCELLED;
        MoveQueue.Requested done =
            MoveQueue.request(table, next, () -> DesignExecutor.isIdentifying(table));
        if (done.queue() != null) {
          return result(done.queue());
        }
        if (done.pending()) {
          return identifying(
              table,
              next.spelling(),
              "its transformation is being identified; it will start " + next.spelling());
        }
        throw noTransformation(
            table, request.action() == MaintainRequest.Action.PAUSE ? "pause" : "cancel");
      }
      case START -> {}
    }
    if (existing.isPresent()
        && (existing.get().state() == MoveQueue.State.RUNNING
            || existing.get().state() == MoveQueue.State.PAUSED)) {
      throw MosaicException.invalid(
          "table "
              + table.name()
              + " has a transformation "
              + existing.get().state().spelling()
              + " ("
              + existing.get().bytesDone()
              + " of "
              + existing.get().bytesTotal()
              + " bytes done); resume or cancel it first");
    }
    // Marked while identifying, so a pause or cancel meanwhile is kept for the queue it writes. A
    // request left by an identification that stopped (killed) is dropped first: it was for that
    // one.
    if (!DesignExecutor.isIdentifying(table)) {
      MoveQueue.dropRequest(table);
    }
    Optional<AutoCloseable> mark = DesignExecutor.identifying(table);
    try {
      listener.identifying(table);
      return startIdentified(table, request, listener, background);
    } finally {
      if (mark.isPresent()) {
        MoveQueue.dropRequest(table); // a request for a transformation that did not start
        try {
          mark.get().close();
        } catch (Exception e) {
          // the OS drops the lock with the process
        }
      }
    }
  }

  private MaintainResult startIdentified(
      MosaicTable table,
      MaintainRequest request,
      DesignExecutor.Listener listener,
      boolean background)
      throws IOException {
    List<MosaicTable> tables = List.of(table);
    CostModel model = InstalledPool.model(pool, tables);
    Workload workload = InstalledPool.workload(tables);
    Placement current = InstalledPool.currentPlacement(pool, tables);
    Placement target =
        new LoptStrategy(PlaceRequest.DEFAULT_TIME_LIMIT)
            .place(
                new PlacementProblem(
                    model, workload, PlacementMode.CAPACITY, PlacementOptions.defaults()))
            .placement();
    DesignProposal proposal =
        DesignAdvisor.propose(
            model,
            workload,
            new DesignAdvisor.Current(current, codecOverrides(table)),
            keepUnread(model, workload, current, target),
            request.options(),
            SortAdvisor.identify(table, epochRecords(table)));
    if (request.drift() != null) {
      // Drift (docs/physical-design.md, "Drift"): the new epoch's workload runs enough faster on
      // the
      // new design that identification is worth acting on; else nothing starts, and the reason
      // says by how much it missed.
      String drift = proposal.driftReason(request.drift());
      if (!proposal.drifted(request.drift())) {
        return proposed(table, proposal.withReason(drift + "; nothing started"), request.rate());
      }
      proposal = proposal.withReason(drift + "; " + proposal.reason());
    }
    if (proposal.steps().isEmpty()
        || request.dryRun()
        || !(proposal.worthIt() || request.force())) {
      return proposed(table, proposal, request.rate());
    }
    MoveSchedule schedule =
        new MoveSchedule(
            request.shape(),
            request.rate(),
            request.fullRate(),
            MoveSchedule.workingSet(proposal, DesignAdvisor.WORKING_SET_SHARE),
            request.deviceRates());
    MoveQueue.start(table, MoveQueue.of(table.name(), proposal, schedule));
    return result(execute(table, listener, background));
  }

  // Words every front end can take: each names how to start one (a command, a CALL) as it says.
  private static MosaicException noTransformation(MosaicTable table, String verb) {
    return MosaicException.notFound(
        "table "
            + table.name()
            + " has no transformation to "
            + verb
            + ": none was started, or it ended and its queue was removed; identify and start one"
            + " first");
  }

  // A transformation being identified: no steps yet.
  private static MaintainResult identifying(MosaicTable table, String state, String reason) {
    return new MaintainResult(
        table.name(),
        state,
        reason,
        List.of(),
        new MaintainResult.Progress(0, 0, null, null, null));
  }

  // The queue as the status shows it: one that says running with no live runner was left by a
  // process that stopped (docs/physical-design.md, "one process runs a queue at a time").
  private static MaintainResult status(MosaicTable table, MoveQueue queue) {
    MaintainResult r = result(queue);
    if (queue.state() != MoveQueue.State.RUNNING || DesignExecutor.isRunning(table)) {
      return r;
    }
    return new MaintainResult(
        r.table(),
        "interrupted",
        r.reason()
            + "; no process is running it (the one that ran it stopped): resume continues it",
        r.steps(),
        r.progress());
  }

  // The queue's schedule with the settings the request gave in place of its own.
  private static MoveSchedule resumedSchedule(MoveSchedule old, MaintainRequest request) {
    MaintainRequest.Given given = request.given();
    if (!given.any()) {
      return old;
    }
    return new MoveSchedule(
        given.shape() ? request.shape() : old.shape(),
        given.rate() ? request.rate() : old.rate(),
        given.fullRate() ? request.fullRate() : old.fullRate(),
        old.workingSetBytes(),
        given.deviceRates() ? request.deviceRates() : old.deviceRates());
  }

  /**
   * The target with the columns no recorded scan reads left where they are, as many as the devices
   * still hold: LOPT is indifferent to where those go, and moving them costs I/O for no gain. The
   * largest are kept first (the most bytes not moved); one that no longer fits beside the others
   * goes where LOPT put it, to make room.
   */
  public static Placement keepUnread(
      CostModel model, Workload workload, Placement current, Placement target) {
    Set<ColumnRef> read = new HashSet<>();
    workload.scans().forEach(s -> read.addAll(s.columns()));
    Map<ColumnRef, String> kept = new LinkedHashMap<>(target.deviceOf());
    ToLongFunction<ColumnRef> size =
        c -> model.storedBytes(model.device(current.deviceOf().get(c)), c);
    List<ColumnRef> unread =
        kept.keySet().stream()
            .filter(
                c ->
                    !read.contains(c)
                        && current.deviceOf().containsKey(c)
                        && !current.deviceOf().get(c).equals(kept.get(c)))
            .sorted(Comparator.comparingLong(size).reversed())
            .toList();
    for (ColumnRef c : unread) {
      String lopt = kept.put(c, current.deviceOf().get(c));
      boolean fits =
          model.usedBytes(new Placement(kept)).entrySet().stream()
              .allMatch(e -> e.getValue() <= model.device(e.getKey()).capacityBytes());
      if (!fits) {
        kept.put(c, lopt);
      }
    }
    return new Placement(kept);
  }

  // One background run per table root at a time, on daemon threads (they must not keep a JVM up).
  private static final java.util.concurrent.ConcurrentHashMap<java.nio.file.Path, Thread> RUNNING =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static MoveQueue execute(
      MosaicTable table, DesignExecutor.Listener listener, boolean background) {
    if (!background) {
      return new DesignExecutor(table).run(listener);
    }
    RUNNING.compute(
        table.root(),
        (root, running) -> {
          if (running != null && running.isAlive()) {
            return running; // it reads the queue again between chunks: it picks up the change
          }
          Thread t =
              new Thread(
                  () -> {
                    try {
                      new DesignExecutor(table).run(listener);
                    } finally {
                      RUNNING.remove(root, Thread.currentThread());
                    }
                  },
                  "mosaic-maintain-" + table.name());
          t.setDaemon(true);
          t.start();
          return t;
        });
    return MoveQueue.read(table).orElseThrow();
  }

  private static List<TraceRecord> epochRecords(MosaicTable table) {
    TraceLog log = TraceLog.of(table);
    // Columns under today's names: a renamed column keeps its history (TraceColumns).
    return TraceColumns.current(table, log.read(log.epoch()));
  }

  /** The columns stored with another codec than their device's, by {@code column.<name>.codec}. */
  private static Map<ColumnRef, Codec> codecOverrides(MosaicTable table) {
    Manifest m = table.latest();
    Map<ColumnRef, Codec> codecs = new LinkedHashMap<>();
    for (ColumnSpec c : m.schema().columns()) {
      String value = m.properties().get(MosaicTable.codecProperty(c.name()));
      Optional<Codec> codec =
          value == null ? Optional.empty() : Codec.fromConfigName(value.strip());
      codec.ifPresent(k -> codecs.put(new ColumnRef(table.name(), c.name()), k));
    }
    return codecs;
  }

  private static MaintainResult proposed(MosaicTable table, DesignProposal proposal, double rate) {
    List<MaintainResult.StepRow> rows = new ArrayList<>();
    for (int i = 0; i < proposal.steps().size(); i++) {
      MoveStep s = proposal.steps().get(i);
      rows.add(
          new MaintainResult.StepRow(
              i + 1,
              s.column().column(),
              s.from(),
              s.target(),
              s.writeBytes(),
              s.gainSeconds(),
              "proposed",
              0,
              s.writeBytes()));
    }
    // Nothing copied yet, nothing measured: the ETA at the configured rate.
    long total = proposal.bytesToWrite();
    return new MaintainResult(
        table.name(),
        "proposed",
        proposal.reason(),
        rows,
        new MaintainResult.Progress(
            0,
            total,
            null,
            MaintainResult.known(total / rate),
            MaintainResult.known(proposal.secondsNow())));
  }

  private static MaintainResult result(MoveQueue queue) {
    List<MaintainResult.StepRow> rows = new ArrayList<>();
    for (int i = 0; i < queue.steps().size(); i++) {
      MoveQueue.Step s = queue.steps().get(i);
      rows.add(
          new MaintainResult.StepRow(
              i + 1,
              s.column(),
              s.from(),
              s.target(),
              s.writeBytes(),
              s.gainSeconds(),
              s.state().spelling(),
              queue.stepBytesDone(i),
              s.writeBytes() - queue.stepBytesDone(i)));
    }
    String reason =
        queue.error() == null ? queue.reason() : queue.reason() + "; stopped: " + queue.error();
    long done = queue.bytesCopied();
    return new MaintainResult(
        queue.table(),
        queue.state().spelling(),
        reason,
        rows,
        new MaintainResult.Progress(
            done,
            queue.bytesTotal() - done,
            MaintainResult.known(queue.measuredRate()),
            MaintainResult.known(queue.etaSeconds()),
            MaintainResult.known(queue.predictedSecondsNow())));
  }

  /**
   * A service's restart (docs/physical-design.md, "Crashes and restarts"): each of {@code tables}
   * whose queue a process that stopped left {@code running} (no live runner, {@link
   * DesignExecutor#isRunning}) is resumed where it stopped, on a daemon thread of this JVM as
   * {@code maintain} runs it in the background. A Trino coordinator and a Spark driver call this as
   * their catalog starts. Returns a line per table it resumed or could not look at; one table's
   * failure does not stop the rest.
   */
  public List<String> resumeLeftRunning(
      java.util.Collection<String> tables, DesignExecutor.Listener listener) {
    List<String> report = new ArrayList<>();
    for (String name : tables) {
      try {
        MosaicTable table = open.apply(name);
        Optional<MoveQueue> queue = MoveQueue.read(table);
        if (queue.isPresent()
            && queue.get().state() == MoveQueue.State.RUNNING
            && !DesignExecutor.isRunning(table)) {
          execute(table, listener, true);
          report.add(
              name
                  + ": resumed the transformation left running ("
                  + queue.get().bytesDone()
                  + " of "
                  + queue.get().bytesTotal()
                  + " bytes done)");
        }
      } catch (RuntimeException e) {
        report.add(name + ": cannot look at its transformation: " + e.getMessage());
      }
    }
    return report;
  }

  /**
   * The drift trigger for {@code request}'s table (docs/physical-design.md, "Drift"): each {@link
   * DriftWatch#check} runs identification again when the trace has new scans, and starts the
   * transformation when the workload drifted by more than the request's threshold ({@link
   * MaintainRequest#DEFAULT_DRIFT} unless it names one).
   */
  public DriftWatch watch(MaintainRequest request) {
    return new DriftWatch(
        this, request.drift() == null ? request.withDrift(MaintainRequest.DEFAULT_DRIFT) : request);
  }

  /** Where each column of the table's latest version lives now. */
  public PlacementStatus status(String tableName) {
    Manifest m = open.apply(tableName).latest();
    return new PlacementStatus(tableName, m.version(), m.storedColumns());
  }

  /** A migration's plan, the version it committed and the epoch it started (nulls if none). */
  private record Applied(Migrator.Plan plan, Manifest after, Integer epoch) {}

  /**
   * Compacts table {@code name} (docs/operations.md, "Compaction"). A compaction that commits
   * starts a new trace epoch, as a migration does: the scans recorded so far name row groups by
   * their old numbers.
   */
  public OptimizeResult optimize(String name, TableCompactor.Listener listener) throws IOException {
    MosaicTable table = open.apply(name);
    TableCompactor.Result r = new TableCompactor(table).optimize(listener);
    Integer epoch = r.compacted() ? TraceLog.of(table).newEpoch() : null;
    return new OptimizeResult(table.name(), r, epoch);
  }

  private static Applied migrate(MosaicTable table, Migrator.Plan plan, Migrator.Listener listener)
      throws IOException {
    Migrator migrator = new Migrator(table);
    if (plan.moves().isEmpty()) {
      return new Applied(plan, null, null); // nothing committed: the trace still describes the data
    }
    migrator.checkSpace(plan);
    Manifest after = migrator.apply(plan, listener);
    int epoch = TraceLog.of(table).newEpoch();
    return new Applied(plan, after, epoch);
  }
}
