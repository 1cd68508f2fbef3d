package io.mosaic.bench.experiments;

import io.mosaic.design.DesignAdvisor;
import io.mosaic.design.DesignExecutor;
import io.mosaic.design.DesignOptions;
import io.mosaic.design.DesignProposal;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.MoveSchedule;
import io.mosaic.design.MoveStep;
import io.mosaic.design.ScheduleShape;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.CpuModel;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpch.TpchTables;
import io.mosaic.workload.TraceFile;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The measure of physical design management (docs/experiments/design.md): a running workload
 * switches to another trace and the design service transforms the placement under it, once per
 * schedule shape.
 *
 * <p>TPC-H lineitem on the four emulated Table 1 devices (read rates / DIVISOR), the model's NVMe,
 * SSD and RAID 5 each holding a SHARE of lineitem's stored bytes (the HDD unbounded). Workload A is
 * the lineitem scans of Q1, Q6, Q14 and Q15 (prices, discounts, ship dates), workload B those of
 * Q4, Q12, Q18 and Q21 (order keys, supplier keys, commit and receipt dates, ship modes), both from
 * the planner's built-in TPC-H trace. The table starts on LOPT's placement for A (columns A does
 * not read stay on the HDD); {@link DesignAdvisor} proposes the transformation to LOPT's placement
 * for B, as {@code mosaic maintain} does. For each shape, from that same start, {@link
 * DesignExecutor} runs the queue on a background thread at RATE while the foreground runs B's scans
 * through the retriever in a loop, until the transformation is done and AFTER runs more.
 *
 * <p>Before the shapes, B is timed with no transformation on every intermediate placement (the
 * start, then after each step): the baseline a run during a step is compared with (the step's
 * column is read from its old device until it commits, so the run reads exactly that placement).
 *
 * <p>Usage: {@code benchmarks/bench experiments.DesignTransformation [SF] [DIVISOR] [RATE_MBPS]
 * [AFTER] [BASELINE_RUNS] [SHARE] [THINK] [A] [B]} (defaults 0.1, 50, 0.2, 3, 3, 0.25, 0.5,
 * q01,q06,q14,q15, q04,q12,q18,q21: THINK seconds of pause before each run of B, when the devices
 * idle and {@code slow-start} copies at full rate; A and B the trace's queries of each workload).
 * Writes {@code docs/experiments/design-transformation{,-steps}.csv} and {@code
 * design-transformation.svg} (with {@code -TAG} under {@code EXPERIMENT_TAG}).
 */
public final class DesignTransformation {
  static final List<String> QUERIES_A = List.of("q01", "q06", "q14", "q15");
  static final List<String> QUERIES_B = List.of("q04", "q12", "q18", "q21");
  // Above every emulated device: where a shape runs at full rate, the devices bind.
  static final double FULL_RATE = 100e6;
  private static final Map<ScheduleShape, String> COLORS =
      Map.of(
          ScheduleShape.FAST_START, "#d62728",
          ScheduleShape.SLOW_START, "#1f77b4",
          ScheduleShape.CONSTANT, "#2ca02c");

  private DesignTransformation() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    double divisor = args.length > 1 ? Double.parseDouble(args[1]) : 50;
    double rate = (args.length > 2 ? Double.parseDouble(args[2]) : 0.2) * 1e6;
    int after = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    int baselineRuns = args.length > 4 ? Integer.parseInt(args[4]) : 3;
    double share = args.length > 5 ? Double.parseDouble(args[5]) : 0.25;
    double think = args.length > 6 ? Double.parseDouble(args[6]) : 0.5;
    List<String> queriesA = args.length > 7 ? List.of(args[7].split(",")) : QUERIES_A;
    List<String> queriesB = args.length > 8 ? List.of(args[8].split(",")) : QUERIES_B;
    Path out = Path.of("docs/experiments");
    long start = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "Design transformation (issue 25): TPC-H SF %s lineitem, Table 1 read rates / %s,"
            + " A = %s, B = %s, rate %.3f MB/s, %.1f s between runs, load %.2f%n",
        sf,
        divisor,
        queriesA,
        queriesB,
        rate / 1e6,
        think,
        load());
    try (ExperimentPool pool =
        ExperimentPool.create(
            Path.of("mosaic-work/experiments/design"),
            sf,
            divisor,
            List.of(TpchTable.LINE_ITEM),
            (t, root, devices, properties) ->
                TpchTables.load(t, sf, root, devices, properties, rows -> {}))) {
      MosaicTable table = pool.tables().get(0);
      Workload a = lineitemScans(queriesA);
      Workload b = lineitemScans(queriesB);
      CpuModel cpu = pool.cpu();
      long stored = pool.storedBytes();
      Map<String, Long> capacity = new LinkedHashMap<>();
      for (String d : ExperimentPool.DEVICES) {
        capacity.put(d, d.equals("hdd") ? 100_000_000_000L : Math.round(share * stored));
      }
      CostModel model =
          CostModel.of(
              ExperimentPool.withCapacities(pool.configuredProfiles(), capacity),
              pool.sizes(),
              Optional.of(cpu));
      Map<ColumnRef, String> hdd = new LinkedHashMap<>();
      model.columns().forEach(c -> hdd.put(c, "hdd"));
      Placement placedA =
          MaintenanceExecutor.keepUnread(model, a, new Placement(hdd), lopt(model, a));
      Placement placedB = MaintenanceExecutor.keepUnread(model, b, placedA, lopt(model, b));
      DesignProposal proposal =
          DesignAdvisor.propose(model, b, placedA, placedB, DesignOptions.DEFAULTS);
      System.out.printf(
          Locale.ROOT,
          "  lineitem %,d bytes stored; %s%n  predicted bytes for 90%% of the benefit: %.1f%%%n",
          stored,
          proposal.reason(),
          100 * proposal.bytesFractionFor(0.9));
      List<MoveStep> steps = proposal.steps();
      if (steps.isEmpty()) {
        throw new IllegalStateException("no transformation from A's placement to B's");
      }
      // The placements B runs on as the steps commit: start, then after each step.
      List<Placement> between = new ArrayList<>();
      Map<ColumnRef, String> now = new LinkedHashMap<>(placedA.deviceOf());
      between.add(new Placement(now));
      for (int i = 0; i < steps.size(); i++) {
        MoveStep s = steps.get(i);
        now.put(s.column(), s.to());
        between.add(new Placement(new LinkedHashMap<>(now)));
        System.out.printf(
            Locale.ROOT,
            "  step %d: %-16s %s -> %-5s %,10d bytes, cost %.2f s, saves %.3f s -> %.3f s%n",
            i + 1,
            s.column().column(),
            s.from(),
            s.to(),
            s.writeBytes(),
            s.costSeconds(),
            s.gainSeconds(),
            s.secondsAfter());
      }
      pool.migrate(between.get(0));
      for (int i = 0; i < 3; i++) {
        pool.run(b); // warm-up (JIT, page cache of the table's metadata)
      }
      // Timed before the shapes and again after them (in reverse), the mean of the two: the
      // machine's load and the JVM's warm-up drift over the experiment.
      double[] baseline = new double[between.size()];
      for (int k = 0; k < between.size(); k++) {
        pool.migrate(between.get(k));
        baseline[k] = median(pool, b, baselineRuns, think);
      }

      CsvFile runsCsv =
          new CsvFile(
              "shape",
              "run",
              "start_s",
              "end_s",
              "run_s",
              "steps_done_start",
              "steps_done_end",
              "bytes_committed_end",
              "bytes_copied_end",
              "bytes_fraction_end",
              "transforming",
              "full_rate_chunks",
              "baseline_s",
              "slowdown",
              "cpu_s",
              "load");
      CsvFile stepsCsv =
          new CsvFile(
              "shape",
              "step",
              "column",
              "from",
              "to",
              "bytes",
              "predicted_after_s",
              "baseline_after_s",
              "predicted_commit_s",
              "started_s",
              "committed_s",
              "chunks",
              "full_rate_chunks",
              "first_chunk_s",
              "after_last_chunk_s",
              "configured_mbps",
              "measured_mbps");
      SvgChart chart =
          new SvgChart(
              String.format(
                  Locale.ROOT,
                  "Workload B during the transformation (TPC-H SF %s lineitem, %.2f MB/s)",
                  sf,
                  rate / 1e6),
              "wall time since the switch (s)",
              "workload B run time (s)");
      List<String> summary = new ArrayList<>();
      long total = proposal.bytesToWrite();
      List<Measured> measuredShapes = new ArrayList<>();
      for (ScheduleShape shape : ScheduleShape.values()) {
        pool.migrate(between.get(0));
        MoveSchedule schedule =
            new MoveSchedule(
                shape,
                rate,
                FULL_RATE,
                MoveSchedule.workingSet(proposal, DesignAdvisor.WORKING_SET_SHARE));
        MoveQueue.of(table.name(), proposal, schedule).write(table);
        Recorder rec = new Recorder(steps.size(), rate);
        MoveQueue[] left = new MoveQueue[1];
        Thread executor =
            new Thread(() -> left[0] = new DesignExecutor(table).run(rec), "design-executor");
        rec.t0 = System.nanoTime();
        executor.start();
        List<Run> runs = new ArrayList<>();
        int extra = 0;
        while (extra < after) {
          boolean transforming = executor.isAlive();
          Snapshot s0 = rec.snapshot();
          double begin = rec.since();
          ExperimentPool.Measurement m = pool.run(b);
          Snapshot s1 = rec.snapshot();
          runs.add(new Run(begin, rec.since(), m, s0, s1, transforming && executor.isAlive()));
          if (!transforming) {
            extra++;
          }
          Thread.sleep(Math.round(think * 1000)); // the clients' pause: the devices idle
        }
        executor.join();
        if (left[0] == null || left[0].state() != MoveQueue.State.DONE) {
          throw new IllegalStateException(
              shape.configName() + " did not finish: " + (left[0] == null ? "?" : left[0]));
        }
        measuredShapes.add(new Measured(shape, schedule, rec, runs));
        System.out.printf(
            Locale.ROOT,
            "[%4.0f s] %s: %d runs of B%n",
            (System.nanoTime() - start) / 1e9,
            shape.configName(),
            runs.size());
      }
      for (int k = between.size() - 1; k >= 0; k--) {
        pool.migrate(between.get(k));
        double again = median(pool, b, baselineRuns, think);
        System.out.printf(
            Locale.ROOT,
            "  baseline after %d steps: B %.2f s and %.2f s measured, %.2f s predicted%n",
            k,
            baseline[k],
            again,
            k == 0 ? proposal.secondsNow() : steps.get(k - 1).secondsAfter());
        baseline[k] = (baseline[k] + again) / 2;
      }
      for (Measured shaped : measuredShapes) {
        ScheduleShape shape = shaped.shape();
        MoveSchedule schedule = shaped.schedule();
        Recorder rec = shaped.rec();
        List<Run> runs = shaped.runs();

        // Predicted: each step commits after its bytes at the schedule's rate (a full-rate
        // stretch at the model's device rates), and B then takes the step's secondsAfter.
        List<SvgChart.Point> predicted = new ArrayList<>();
        predicted.add(new SvgChart.Point(0, proposal.secondsNow()));
        double t = 0;
        long written = 0;
        double[] predictedCommit = new double[steps.size()];
        for (int i = 0; i < steps.size(); i++) {
          MoveStep s = steps.get(i);
          long fast =
              shape == ScheduleShape.FAST_START
                  ? Math.max(0, Math.min(s.readBytes(), schedule.workingSetBytes() - written))
                  : 0;
          double fullSpeed = s.readBytes() / Math.max(s.costSeconds(), s.readBytes() / FULL_RATE);
          // slow-start: full rate while the clients pause, a share of the predicted run.
          double before = i == 0 ? proposal.secondsNow() : steps.get(i - 1).secondsAfter();
          double idle = shape == ScheduleShape.SLOW_START ? think / (think + before) : 0;
          t += fast / fullSpeed + (s.readBytes() - fast) / (idle * fullSpeed + (1 - idle) * rate);
          written += s.writeBytes();
          predictedCommit[i] = t;
          predicted.add(new SvgChart.Point(t, s.secondsAfter()));
        }
        double end = runs.get(runs.size() - 1).end();
        predicted.add(new SvgChart.Point(Math.max(end, t), proposal.secondsAfter()));

        List<SvgChart.Point> measured = new ArrayList<>();
        double slowRun = 0;
        double slowBase = 0;
        int slowCount = 0;
        double fastRun = 0;
        double fastBase = 0;
        double threshold = baseline[0] - 0.9 * (baseline[0] - baseline[steps.size()]);
        double reachedFraction = Double.NaN;
        double reachedAt = Double.NaN;
        for (int r = 0; r < runs.size(); r++) {
          Run run = runs.get(r);
          measured.add(new SvgChart.Point(run.end(), run.m().seconds()));
          double fraction = run.s1().committedBytes() / (double) total;
          if (Double.isNaN(reachedFraction) && run.m().seconds() <= threshold) {
            reachedFraction = fraction;
            reachedAt = run.end();
          }
          // Like with like: the run saw one placement (no commit during it) while steps copied.
          boolean oneStep = run.s0().stepsDone() == run.s1().stepsDone();
          int k = run.s0().stepsDone();
          Double base = run.transforming() && oneStep && k < steps.size() ? baseline[k] : null;
          long fullChunks = run.s1().fullChunks() - run.s0().fullChunks();
          if (base != null && fullChunks == 0) {
            slowRun += run.m().seconds();
            slowBase += base;
            slowCount++;
          } else if (base != null) {
            fastRun += run.m().seconds();
            fastBase += base;
          }
          runsCsv.row(
              shape.configName(),
              r + 1,
              run.begin(),
              run.end(),
              run.m().seconds(),
              run.s0().stepsDone(),
              run.s1().stepsDone(),
              run.s1().committedBytes(),
              run.s1().copiedBytes(),
              fraction,
              run.transforming(),
              fullChunks,
              base == null ? "" : base,
              base == null ? "" : run.m().seconds() / base,
              run.m().cpuSeconds(),
              run.m().load());
        }
        double pacedBytes = 0;
        double pacedSeconds = 0;
        for (int i = 0; i < steps.size(); i++) {
          MoveStep s = steps.get(i);
          double seconds = (rec.committed[i] - rec.started[i]) / 1e9;
          double mbps = rec.copied[i] / seconds / 1e6;
          if (rec.chunks[i] > 0 && rec.fullChunks[i] == 0) { // every chunk paced
            pacedBytes += rec.copied[i];
            pacedSeconds += seconds;
          }
          stepsCsv.row(
              shape.configName(),
              i + 1,
              s.column().column(),
              s.from(),
              s.to(),
              s.writeBytes(),
              s.secondsAfter(),
              baseline[i + 1],
              predictedCommit[i],
              (rec.started[i] - rec.t0) / 1e9,
              (rec.committed[i] - rec.t0) / 1e9,
              rec.chunks[i],
              rec.fullChunks[i],
              rec.chunks[i] == 0 ? "" : (rec.firstChunk[i] - rec.started[i]) / 1e9,
              rec.chunks[i] == 0 ? "" : (rec.committed[i] - rec.lastChunk[i]) / 1e9,
              rec.fullChunks[i] == 0 ? rate / 1e6 : FULL_RATE / 1e6,
              mbps);
        }
        double done = (rec.committed[steps.size() - 1] - rec.t0) / 1e9;
        String line =
            String.format(
                Locale.ROOT,
                "%-10s done in %5.1f s (predicted %5.1f s); 90 %% of the benefit (B <= %.2f s)"
                    + " at %.1f s, after %s of the bytes (predicted %.1f %%); paced slowdown %s over %d"
                    + " runs%s; paced copy rate %s of %.3f MB/s configured",
                shape.configName(),
                done,
                t,
                threshold,
                reachedAt,
                Double.isNaN(reachedFraction)
                    ? "never"
                    : String.format(Locale.ROOT, "%.1f %%", 100 * reachedFraction),
                100 * proposal.bytesFractionFor(0.9),
                slowCount == 0
                    ? "n/a"
                    : String.format(Locale.ROOT, "%+.1f %%", 100 * (slowRun / slowBase - 1)),
                slowCount,
                fastBase == 0
                    ? ""
                    : String.format(
                        Locale.ROOT, " (at full rate %+.1f %%)", 100 * (fastRun / fastBase - 1)),
                pacedSeconds == 0
                    ? "n/a"
                    : String.format(
                        Locale.ROOT,
                        "%.3f MB/s (%+.1f %%)",
                        pacedBytes / pacedSeconds / 1e6,
                        100 * (pacedBytes / pacedSeconds / rate - 1)),
                rate / 1e6);
        summary.add(line);
        System.out.println(line);
        chart
            .add(
                new SvgChart.Series(
                    shape.configName() + " measured",
                    COLORS.get(shape),
                    SvgChart.Style.LINE,
                    measured))
            .add(
                new SvgChart.Series(
                    shape.configName() + " predicted",
                    COLORS.get(shape),
                    SvgChart.Style.DASHED_STEP,
                    predicted));
      }
      runsCsv.write(out.resolve(ExperimentPool.outputName("design-transformation", "csv")));
      stepsCsv.write(out.resolve(ExperimentPool.outputName("design-transformation-steps", "csv")));
      Files.writeString(
          out.resolve(ExperimentPool.outputName("design-transformation", "svg")), chart.xy());
      System.out.printf(
          Locale.ROOT, "Done in %.0f s, load %.2f.%n", (System.nanoTime() - start) / 1e9, load());
      summary.forEach(System.out::println);
    }
  }

  /** One shape's run, kept until the baselines are timed a second time. */
  record Measured(ScheduleShape shape, MoveSchedule schedule, Recorder rec, List<Run> runs) {}

  /** What the executor had done at one moment. */
  record Snapshot(int stepsDone, long committedBytes, long copiedBytes, long fullChunks) {}

  /** One run of workload B: wall seconds since the switch at its start and end. */
  record Run(
      double begin,
      double end,
      ExperimentPool.Measurement m,
      Snapshot s0,
      Snapshot s1,
      boolean transforming) {}

  /** The executor's progress, read by the foreground loop between runs. */
  static final class Recorder implements DesignExecutor.Listener {
    final long[] started;
    final long[] committed;
    final long[] copied;
    final long[] chunks;
    final long[] fullChunks;
    // When the first and the last chunk of each step had been copied (before their pacing).
    final long[] firstChunk;
    final long[] lastChunk;
    final double rate;
    volatile long t0;
    private int current = -1;
    private int stepsDone;
    private long committedBytes;
    private long copiedBytes;
    private long allFullChunks;

    Recorder(int steps, double rate) {
      started = new long[steps];
      committed = new long[steps];
      copied = new long[steps];
      chunks = new long[steps];
      fullChunks = new long[steps];
      firstChunk = new long[steps];
      lastChunk = new long[steps];
      this.rate = rate;
    }

    double since() {
      return (System.nanoTime() - t0) / 1e9;
    }

    synchronized Snapshot snapshot() {
      return new Snapshot(stepsDone, committedBytes, copiedBytes, allFullChunks);
    }

    @Override
    public synchronized void stepStarted(int index, MoveQueue.Step step) {
      current = index;
      started[index] = System.nanoTime();
    }

    @Override
    public synchronized void copied(long bytesDone, long bytesTotal, double chunkRate) {
      copied[current] = bytesDone - committedBytes;
      copiedBytes = bytesDone;
      if (chunks[current]++ == 0) {
        firstChunk[current] = System.nanoTime();
      }
      lastChunk[current] = System.nanoTime();
      if (chunkRate > rate) {
        fullChunks[current]++;
        allFullChunks++;
      }
    }

    @Override
    public synchronized void stepCommitted(int index, MoveQueue.Step step, long version) {
      committed[index] = System.nanoTime();
      committedBytes += step.writeBytes();
      copiedBytes = committedBytes;
      stepsDone++;
    }
  }

  /** The lineitem scans of {@code queries} in the built-in TPC-H trace (one scan per line). */
  static Workload lineitemScans(List<String> queries) throws IOException {
    String text;
    try (InputStream in = TraceFile.class.getResourceAsStream("/io/mosaic/workloads/tpch.trace")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<DistinctScan> scans = new ArrayList<>();
    String query = null;
    for (String line : text.split("\n")) {
      line = line.strip();
      if (line.matches("# q\\d\\d")) {
        query = line.substring(2);
      } else if (query != null && queries.contains(query) && line.startsWith("lineitem:")) {
        List<ColumnRef> columns = new ArrayList<>();
        for (String c : line.substring("lineitem:".length()).split(",")) {
          columns.add(new ColumnRef("lineitem", c.strip()));
        }
        scans.add(DistinctScan.of(1, columns.toArray(ColumnRef[]::new)));
      }
    }
    return Workload.merging(scans);
  }

  private static Placement lopt(CostModel model, Workload workload) {
    return new LoptStrategy(Duration.ofSeconds(30))
        .place(
            new PlacementProblem(
                model, workload, PlacementMode.CAPACITY, PlacementOptions.defaults()))
        .placement();
  }

  // The median run of B, with the clients' pause before each run as in the shapes' loop.
  private static double median(ExperimentPool pool, Workload b, int runs, double think)
      throws InterruptedException {
    double[] seconds = new double[runs];
    for (int r = 0; r < runs; r++) {
      Thread.sleep(Math.round(think * 1000));
      seconds[r] = pool.run(b).seconds();
    }
    java.util.Arrays.sort(seconds);
    return seconds[runs / 2];
  }

  private static double load() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
