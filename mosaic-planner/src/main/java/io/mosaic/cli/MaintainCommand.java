package io.mosaic.cli;

import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.device.ByteSize;
import io.mosaic.device.DevicePool;
import io.mosaic.maintenance.MaintainRequest;
import io.mosaic.maintenance.MaintainResult;
import io.mosaic.maintenance.MaintenanceExecutor;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic maintain}: physical design management for one table (issue 25,
 * docs/physical-design.md). Identifies the transformation from the table's current trace epoch
 * (LOPT's placement against the current one, cost against benefit), and runs its steps by a
 * schedule, each committing on its own; with {@code --status}, {@code --pause}, {@code --resume} or
 * {@code --cancel} it shows or steers a transformation in progress (from another terminal too).
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

    @Option(names = "--resume", description = "Run its remaining steps.")
    boolean resume;

    @Option(names = "--cancel", description = "Drop its remaining steps (those done stay).")
    boolean cancel;

    @Option(names = "--dry-run", description = "Identify and show the steps; move nothing.")
    boolean dryRun;
  }

  @ArgGroup(exclusive = true)
  Control control = new Control();

  @Option(
      names = "--shape",
      defaultValue = "fast-start",
      paramLabel = "SHAPE",
      description =
          "fast-start (full rate until the working set is placed), slow-start (the rate while"
              + " queries read the table, full when idle) or constant. Default: fast-start.")
  String shape;

  @Option(
      names = "--rate",
      defaultValue = MaintainRequest.DEFAULT_RATE,
      paramLabel = "RATE",
      description = "The gentle rate of the moves (default: 50 MB/s).")
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
    MaintainResult result =
        new MaintenanceExecutor(pool, t -> MosaicTable.open(Path.of(t), pool))
            .maintain(request, progress(out), false);
    TextTable steps =
        new TextTable("step", "column", "from", "to", "bytes", "saves per run", "state");
    for (MaintainResult.StepRow s : result.steps()) {
      steps.row(
          Integer.toString(s.step()),
          s.column(),
          s.fromDevice(),
          s.toDevice(),
          ByteSize.ofBytes(s.bytes()).toString(),
          String.format(Locale.ROOT, "%.3f s", s.savesSeconds()),
          s.stepState());
    }
    out.print(steps.render());
    out.println(result.reason());
    if (result.state().equals("proposed")) {
      out.println(
          control.dryRun || result.steps().isEmpty()
              ? "dry run: nothing moved"
              : "not started: it does not pay off (--force runs it anyway)");
      return 0;
    }
    long done = result.steps().stream().filter(s -> s.stepState().equals("done")).count();
    out.printf(
        Locale.ROOT,
        "transformation of %s: %s, %d of %d steps done%n",
        result.table(),
        result.state(),
        done,
        result.steps().size());
    return 0;
  }

  private static DesignExecutor.Listener progress(PrintWriter out) {
    return new DesignExecutor.Listener() {
      @Override
      public void stepStarted(int index, MoveQueue.Step step) {
        out.printf(
            Locale.ROOT,
            "step %d: %s %s -> %s (%s) ...%n",
            index + 1,
            step.column(),
            step.from(),
            step.to(),
            ByteSize.ofBytes(step.writeBytes()));
      }

      @Override
      public void stepCommitted(int index, MoveQueue.Step step, long version) {
        out.printf(Locale.ROOT, "step %d: committed v%d%n", index + 1, version);
      }
    };
  }
}
