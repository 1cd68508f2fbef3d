package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.MoveSchedule;
import io.mosaic.device.DevicePool;
import io.mosaic.operations.DriftWatch;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintainResult;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.MaintenanceSyntax;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic maintain}: physical design management for one table (docs/physical-design.md).
 * Identifies the transformation from the table's current trace epoch (LOPT's placement against the
 * current one, cost against benefit), and runs its steps by a schedule, each committing on its own;
 * with {@code --status}, {@code --pause}, {@code --resume} or {@code --cancel} it shows or steers a
 * transformation in progress (from another terminal too).
 */
@Command(
    name = "maintain",
    mixinStandardHelpOptions = true,
    description = {
      "Identify the table's transformation from its recorded scans and run it in steps, by a"
          + " schedule (working set first), each step a column move that commits on its own.",
      "--dry-run shows the steps and the cost-benefit reason; --status, --pause, --resume and"
          + " --cancel steer a transformation in progress (its state is kept with the table)."
    })
final class MaintainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PoolOption poolOption;

  @Option(names = "--table", required = true, paramLabel = "DIR", description = "The table.")
  Path table;

  static final class Control {
    @Option(names = "--status", description = "Show the transformation in progress.")
    boolean status;

    @Option(
        names = "--pause",
        description = "Pause it: the step in flight stops, its column stays.")
    boolean pause;

    @Option(
        names = "--resume",
        description =
            "Run its remaining steps; --shape, --rate, --full-rate and --device-rate, when given,"
                + " replace the schedule's.")
    boolean resume;

    @Option(names = "--cancel", description = "Drop its remaining steps (those done stay).")
    boolean cancel;

    @Option(names = "--dry-run", description = "Identify and show the steps; move nothing.")
    boolean dryRun;

    @Option(
        names = "--watch",
        paramLabel = "INTERVAL",
        description =
            "Keep watching the table, checking every INTERVAL (e.g. 1m): resume a transformation"
                + " left running by a process that stopped, and when the trace has new scans,"
                + " identify again and start only if the workload drifted (--drift, default 0.2)."
                + " Runs until stopped.")
    String watch;
  }

  @ArgGroup(exclusive = true)
  Control control = new Control();

  // No picocli defaults for the schedule: MaintainRequest fills them in, and a --resume changes
  // only the settings given.
  @Option(
      names = "--shape",
      paramLabel = "SHAPE",
      description =
          "fast-start (full rate until the working set is placed), slow-start (the rate while"
              + " queries read the table, full when idle) or constant. Default: fast-start.")
  String shape;

  @Option(
      names = "--rate",
      paramLabel = "RATE",
      description =
          "The gentle rate of the moves (default: 50 MB/s). fast-start moves the working set at"
              + " --full-rate first, slow-start while no query reads the table; --shape constant"
              + " paces every byte at this rate.")
  String rate;

  @Option(
      names = "--full-rate",
      paramLabel = "RATE",
      description = "The rate when nothing holds the moves back (default: unpaced).")
  String fullRate;

  @Option(
      names = "--device-rate",
      paramLabel = "DEVICE=RATE,...",
      description =
          "The gentle rate of named devices, e.g. 'hdd=20MB/s,nvme=200MB/s' (default: --rate for"
              + " every device). A step takes its bytes from its source's and its target's rate.")
  String deviceRate;

  @Option(
      names = "--horizon",
      defaultValue = "10",
      paramLabel = "RUNS",
      description = "Workload runs the benefit is counted over (default: 10).")
  double horizon;

  @Option(
      names = "--payoff",
      defaultValue = "2",
      paramLabel = "FACTOR",
      description = "The benefit over the horizon must exceed the cost by this (default: 2).")
  double payoff;

  @Option(names = "--force", description = "Run the steps even when they do not pay off.")
  boolean force;

  @Option(
      names = "--drift",
      paramLabel = "FRACTION",
      description =
          "Start only when the workload drifted: the new design must save more than this fraction"
              + " of the workload's predicted time (e.g. 0.2; default: no check, 0.2 with --watch).")
  Double drift;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    DevicePool pool = poolOption.load();
    String action =
        control.status
            ? "status"
            : control.pause
                ? "pause"
                : control.resume ? "resume" : control.cancel ? "cancel" : "start";
    // Checked here first so that an error names the option, not the procedures' argument.
    if (rate != null) {
      MaintenanceSyntax.rate(rate, "--rate");
    }
    if (fullRate != null) {
      MaintenanceSyntax.rate(fullRate, "--full-rate");
    }
    MaintenanceSyntax.deviceRates(deviceRate, "--device-rate");
    MaintainRequest request =
        MaintainRequest.parse(
            table.toString(),
            action,
            shape,
            rate,
            fullRate,
            deviceRate,
            horizon,
            payoff,
            force,
            control.dryRun);
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, t -> MosaicTable.open(Path.of(t), pool));
    if (control.watch != null) {
      return watch(out, executor.watch(request.withDrift(drift)), schedule(pool));
    }
    MaintainResult result;
    try {
      result = executor.maintain(request.withDrift(drift), progress(out, schedule(pool)), false);
    } catch (MosaicException e) {
      if (e.kind() != MosaicException.Kind.NOT_FOUND
          || !e.getMessage().contains("transformation")) {
        throw e;
      }
      // How to start one, in this front end's words.
      throw new MosaicException(
          e.kind(),
          e.getMessage()
              + " with `mosaic maintain --devices "
              + poolOption.devices
              + " --table "
              + table
              + "` (--dry-run shows it first)",
          e);
    }
    print(out, result, control.dryRun, schedule(pool).get());
    return 0;
  }

  // The drift trigger as a service (docs/physical-design.md, "Drift"): until the process is
  // stopped; a kill leaves the
  // queue for the next watch (or --resume) to pick up.
  private int watch(PrintWriter out, DriftWatch watch, Supplier<Optional<MoveSchedule>> schedule) {
    Duration interval = MaintenanceSyntax.duration(control.watch, "--watch");
    out.printf(
        Locale.ROOT,
        "watching %s every %s: starting when the new design saves more than %.1f %%%n",
        table,
        control.watch,
        100 * watch.threshold());
    while (!Thread.currentThread().isInterrupted()) {
      try {
        watch.check(progress(out, schedule)).ifPresent(r -> print(out, r, false, schedule.get()));
      } catch (IOException | MosaicException e) {
        out.println("watch: " + e.getMessage()); // the next check tries again
      }
      out.flush();
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return 0;
  }

  /**
   * The schedule of the table's transformation, read when asked (empty when it has none): what a
   * person sees at start and with the progress, since a shape may move bytes faster than {@code
   * --rate}.
   */
  private Supplier<Optional<MoveSchedule>> schedule(DevicePool pool) {
    return () -> schedule(table, pool);
  }

  static Optional<MoveSchedule> schedule(Path table, DevicePool pool) {
    return MoveQueue.read(MosaicTable.open(table, pool)).map(MoveQueue::schedule);
  }

  /**
   * The steps and the progress view, with the transformation's schedule when it has one; {@code
   * mosaic moves} prints the same.
   */
  static void print(
      PrintWriter out, MaintainResult result, boolean dryRun, Optional<MoveSchedule> schedule) {
    TextTable steps =
        new TextTable(
            "step", "column", "from", "to", "bytes", "saves per run", "state", "done", "left");
    for (MaintainResult.StepRow s : result.steps()) {
      steps.row(
          Integer.toString(s.step()),
          s.column(),
          s.fromDevice(),
          s.toDevice(),
          ByteSize.ofBytes(s.bytes()).toString(),
          String.format(Locale.ROOT, "%.3f s", s.savesSeconds()),
          s.stepState(),
          ByteSize.ofBytes(s.bytesDone()).toString(),
          ByteSize.ofBytes(s.bytesLeft()).toString());
    }
    out.print(steps.render());
    out.println(result.reason());
    if (result.state().equals("proposed")) {
      out.println(
          dryRun || (result.steps().isEmpty() && !result.reason().startsWith("no drift"))
              ? "dry run: nothing moved"
              : result.reason().startsWith("no drift")
                  ? "not started: the workload has not drifted by more than the threshold (--drift)"
                  : "not started: it does not pay off (--force runs it anyway)");
      return;
    }
    if (result.steps().isEmpty()) {
      // Being identified: nothing to show but what will happen.
      out.printf("transformation of %s: %s%n", result.table(), result.reason());
      return;
    }
    long done = result.steps().stream().filter(s -> s.stepState().equals("done")).count();
    out.printf(
        Locale.ROOT,
        "transformation of %s: %s, %d of %d steps done%n",
        result.table(),
        result.state(),
        done,
        result.steps().size());
    schedule.ifPresent(s -> out.println(s.describe()));
    MaintainResult.Progress p = result.progress();
    out.printf(
        Locale.ROOT,
        "progress: %s done, %s left, rate %s, ETA %s, predicted workload time now %s%n",
        ByteSize.ofBytes(p.bytesDone()),
        ByteSize.ofBytes(p.bytesLeft()),
        p.rate() == null ? "not measured yet" : ByteSize.ofBytes(Math.round(p.rate())) + "/s",
        p.etaSeconds() == null ? "none" : String.format(Locale.ROOT, "%.1f s", p.etaSeconds()),
        p.predictedSecondsNow() == null
            ? "unknown"
            : String.format(Locale.ROOT, "%.3f s", p.predictedSecondsNow()));
  }

  private static DesignExecutor.Listener progress(
      PrintWriter out, Supplier<Optional<MoveSchedule>> schedule) {
    return new DesignExecutor.Listener() {
      boolean started;

      @Override
      public void identifying(MosaicTable table) {
        out.printf(
            "identifying the transformation of %s from its recorded scans (--pause or --cancel from"
                + " another terminal now applies once it is identified)%n",
            table.name());
        out.flush();
      }

      @Override
      public void stepStarted(int index, MoveQueue.Step step) {
        if (!started) {
          started = true;
          schedule.get().ifPresent(s -> out.println(s.describe()));
        }
        out.printf(
            Locale.ROOT,
            "step %d: %s %s -> %s (%s) ...%n",
            index + 1,
            step.column(),
            step.from(),
            step.target(),
            ByteSize.ofBytes(step.writeBytes()));
      }

      @Override
      public void stepCommitted(int index, MoveQueue.Step step, long version) {
        out.printf(Locale.ROOT, "step %d: committed v%d%n", index + 1, version);
      }
    };
  }
}
