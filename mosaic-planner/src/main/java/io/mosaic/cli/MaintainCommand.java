package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.design.DesignAdvisor;
import io.mosaic.design.DesignExecutor;
import io.mosaic.design.DesignOptions;
import io.mosaic.design.DesignProposal;
import io.mosaic.design.MoveQueue;
import io.mosaic.design.MoveSchedule;
import io.mosaic.design.MoveStep;
import io.mosaic.design.ScheduleShape;
import io.mosaic.device.Bandwidth;
import io.mosaic.device.ByteSize;
import io.mosaic.device.DevicePool;
import io.mosaic.model.CostModel;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.placement.InstalledPool;
import io.mosaic.placement.LoptStrategy;
import io.mosaic.placement.PlacementMode;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.PlacementProblem;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
      defaultValue = "50 MB/s",
      paramLabel = "RATE",
      description = "The gentle rate of the moves (default: 50 MB/s).")
  String rate;

  @Option(
      names = "--full-rate",
      paramLabel = "RATE",
      description = "The rate when nothing holds the moves back (default: unpaced).")
  String fullRate;

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
    MosaicTable t = MosaicTable.open(table, pool);
    Optional<MoveQueue> existing = MoveQueue.read(t);
    if (control.status || control.pause || control.cancel || control.resume) {
      MoveQueue queue =
          existing.orElseThrow(
              () ->
                  MosaicException.notFound(
                      "table "
                          + t.name()
                          + " has no transformation; identify one with `mosaic maintain`"));
      if (control.pause || control.cancel) {
        queue =
            queue.withState(
                control.pause ? MoveQueue.State.PAUSED : MoveQueue.State.CANCELLED, null);
        queue.write(t);
      } else if (control.resume) {
        queue = queue.withState(MoveQueue.State.RUNNING, null);
        queue.write(t);
        queue = new DesignExecutor(t).run(progress(out));
      }
      print(out, queue);
      return 0;
    }
    if (existing.isPresent()
        && (existing.get().state() == MoveQueue.State.RUNNING
            || existing.get().state() == MoveQueue.State.PAUSED)) {
      throw MosaicException.invalid(
          "table "
              + t.name()
              + " has a transformation "
              + existing.get().state().spelling()
              + " ("
              + existing.get().bytesDone()
              + " of "
              + existing.get().bytesTotal()
              + " bytes done); --resume or --cancel it first");
    }
    List<MosaicTable> tables = List.of(t);
    CostModel model = InstalledPool.model(pool, tables);
    Workload workload = InstalledPool.workload(tables);
    Placement current = InstalledPool.currentPlacement(pool, tables);
    Placement target =
        new LoptStrategy(Duration.ofSeconds(60))
            .place(
                new PlacementProblem(
                    model, workload, PlacementMode.CAPACITY, PlacementOptions.defaults()))
            .placement();
    DesignProposal proposal =
        DesignAdvisor.propose(model, workload, current, target, new DesignOptions(horizon, payoff));
    TextTable steps =
        new TextTable(
            "step", "column", "from", "to", "bytes", "saves per run", "after", "after steps");
    for (int i = 0; i < proposal.steps().size(); i++) {
      MoveStep s = proposal.steps().get(i);
      steps.row(
          Integer.toString(i + 1),
          s.column().column(),
          s.from(),
          s.to(),
          ByteSize.ofBytes(s.writeBytes()).toString(),
          String.format(Locale.ROOT, "%.3f s", s.gainSeconds()),
          String.format(Locale.ROOT, "%.3f s", s.secondsAfter()),
          s.dependsOn().stream()
              .map(d -> Integer.toString(d + 1))
              .reduce((a, b) -> a + "," + b)
              .orElse(""));
    }
    out.print(steps.render());
    out.println(proposal.reason());
    if (proposal.steps().isEmpty()) {
      return 0;
    }
    if (control.dryRun || !(proposal.worthIt() || force)) {
      out.println(
          control.dryRun ? "dry run: nothing moved" : "not started (--force runs it anyway)");
      return 0;
    }
    double gentle = Bandwidth.parse(rate).bytesPerSecond();
    double full =
        fullRate == null ? Math.max(gentle, 1e15) : Bandwidth.parse(fullRate).bytesPerSecond();
    MoveSchedule schedule =
        new MoveSchedule(
            ScheduleShape.parse(shape), gentle, full, MoveSchedule.workingSet(proposal, 0.9));
    MoveQueue queue = MoveQueue.of(t.name(), proposal, schedule);
    queue.write(t);
    print(out, new DesignExecutor(t).run(progress(out)));
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

  private static void print(PrintWriter out, MoveQueue queue) {
    long done = queue.steps().stream().filter(s -> s.state() == MoveQueue.StepState.DONE).count();
    out.printf(
        Locale.ROOT,
        "transformation of %s: %s, %d of %d steps done (%s of %s), %s at %s/s%s%n",
        queue.table(),
        queue.state().spelling(),
        done,
        queue.steps().size(),
        ByteSize.ofBytes(queue.bytesDone()),
        ByteSize.ofBytes(queue.bytesTotal()),
        queue.shape().configName(),
        ByteSize.ofBytes((long) queue.rate()),
        queue.error() == null ? "" : "; " + queue.error());
  }
}
