package io.mosaic.design;

import io.mosaic.MosaicException;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.Migrator;
import io.mosaic.maintenance.TableSorter;
import io.mosaic.table.CrashPoints;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs a table's {@link MoveQueue} in the background by its schedule (Physical Design Management in
 * Ceph, Section IV; docs/physical-design.md): one step at a time, each a column move through core's
 * {@link Migrator} that commits on its own, so queries read the old or the new segments and gain as
 * each step lands. Copies are paced per device ({@link DeviceBuckets}) at the schedule's rate for
 * each device, the rate decided again every slice of a chunk ({@link ChunkPacing}); the queue file
 * is read again between chunks, so a pause or cancel from another process stops the step in flight
 * (its column stays where it was, its partial files deleted) and the queue keeps every step already
 * committed.
 */
public final class DesignExecutor {
  /** Progress, for a person at a terminal or a log. */
  public interface Listener {
    /**
     * Identification of a new transformation starts (the table marked as being identified: a pause
     * or cancel from now on is kept for the queue it writes).
     */
    default void identifying(MosaicTable table) {}

    default void stepStarted(int index, MoveQueue.Step step) {}

    default void copied(long bytesDone, long bytesTotal, double rate) {}

    default void stepCommitted(int index, MoveQueue.Step step, long version) {}
  }

  /** Thrown from the copy to stop the step in flight when the queue is paused or cancelled. */
  private static final class Stopped extends RuntimeException {
    Stopped() {
      super(null, null, false, false);
    }
  }

  private final MosaicTable table;

  public DesignExecutor(MosaicTable table) {
    this.table = table;
  }

  /**
   * Runs the queue's pending steps until it is done, paused, cancelled or a step fails; returns the
   * queue as it was left. Starts a new trace epoch once every step is done (paper Section 3.4: the
   * scans recorded so far were timed on the old design).
   */
  public MoveQueue run(Listener listener) {
    if (current().state() != MoveQueue.State.RUNNING) {
      return current();
    }
    // One runner per queue: a second would copy the step in flight again and fail at its commit.
    Optional<RunnerLock> lock = RunnerLock.tryAcquire(table);
    if (lock.isEmpty()) {
      return current(); // another process (or thread) runs it, and reads the queue as it goes
    }
    try (RunnerLock held = lock.get()) {
      // The progress is kept with the queue, so another process shows it (ProgressRecorder).
      return runSteps(new ProgressRecorder(table, listener));
    }
  }

  /**
   * Whether a live process (this one included) is running the table's queue. A queue that says
   * running without one was left by a process that stopped: {@code resume} picks it up.
   */
  public static boolean isRunning(MosaicTable table) {
    return RunnerLock.isHeld(table);
  }

  /**
   * Marks the table's transformation as being identified until closed (empty when another process
   * is identifying it already): a pause or cancel in that time is kept and applied when its queue
   * is written ({@link MoveQueue#request}, {@link MoveQueue#start}).
   */
  public static Optional<AutoCloseable> identifying(MosaicTable table) {
    return RunnerLock.tryAcquire(table, RunnerLock.IDENTIFYING).map(l -> l);
  }

  /** Whether a live process (this one included) is identifying the table's transformation. */
  public static boolean isIdentifying(MosaicTable table) {
    return RunnerLock.isHeld(table, RunnerLock.IDENTIFYING);
  }

  private MoveQueue runSteps(Listener listener) {
    MoveQueue queue = current();
    if (queue.state() != MoveQueue.State.RUNNING) {
      return queue;
    }
    long[] done = {queue.bytesDone()};
    long total = queue.bytesTotal();
    for (int i = 0; i < queue.steps().size(); i++) {
      MoveQueue.Step step = queue.steps().get(i);
      if (step.state() == MoveQueue.StepState.DONE) {
        continue;
      }
      listener.stepStarted(i, step);
      MoveSchedule schedule = queue.schedule();
      long[] stepBytes = {0};
      long[] lastCheck = {System.nanoTime()};
      // When the chunk being copied started: its slot in the devices' buckets starts there, so the
      // copy itself counts towards the rate instead of being added to it.
      long[] copyStart = {System.nanoTime()};
      Runnable check =
          () -> {
            // The queue file is read at most every 200 ms: a pause lands quickly without a file
            // read per buffer.
            if (System.nanoTime() - lastCheck[0] > 200_000_000L) {
              lastCheck[0] = System.nanoTime();
              if (current().state() != MoveQueue.State.RUNNING) {
                throw new Stopped();
              }
            }
          };
      // Charges a chunk that read device a and wrote device b to both devices' buckets, each at the
      // device's rate, and stops the step when a person paused or cancelled the queue.
      Pacer pace =
          new Pacer() {
            @Override
            public void check() {
              check.run();
            }

            @Override
            public long chunkBytes(String a, String b) {
              return ChunkPacing.sliceBytes(rates(schedule, a, b, done[0] + stepBytes[0]).get());
            }

            @Override
            public void chunk(String a, String b, long bytes) {
              // The chunk's rate is decided by the bytes done before it: the chunk that completes
              // fast-start's working set is still part of it.
              long before = done[0] + stepBytes[0];
              stepBytes[0] += bytes;
              Supplier<Map<Path, Double>> rates = rates(schedule, a, b, before);
              Map<Path, Double> first = rates.get();
              listener.copied(
                  before + bytes,
                  total,
                  first.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow());
              boolean[] asked = {false};
              ChunkPacing.pace(
                  bytes,
                  copyStart[0],
                  () -> {
                    if (!asked[0]) {
                      asked[0] = true;
                      return first;
                    }
                    return rates.get();
                  },
                  SYSTEM,
                  check);
              check.run();
              copyStart[0] = System.nanoTime();
            }
          };
      Manifest after;
      try {
        after = runStep(step, pace);
      } catch (RuntimeException | IOException e) {
        // The migrator wraps what stops a copy with where the table was left.
        if (e instanceof Stopped || e.getCause() instanceof Stopped) {
          return current();
        }
        return fail(i, e);
      }
      // A kill here leaves the step committed and the queue saying it is pending: the resume plans
      // the step again, finds its column on its target (no moves) and records it done, so no step's
      // bytes are copied twice (DesignCrashTest).
      CrashPoints.reached("design-step-committed");
      done[0] += step.writeBytes();
      // Re-read: a person may have paused meanwhile; the step's commit is recorded either way.
      int index = i;
      queue =
          MoveQueue.update(table, q -> q.withStepDone(index, after.version()))
              .orElseGet(this::current);
      CrashPoints.reached("design-queue-written");
      listener.stepCommitted(i, step, after.version());
      if (queue.state() != MoveQueue.State.RUNNING) {
        return queue;
      }
    }
    // The epoch starts before the queue says done: a kill between the two leaves the queue running
    // with every step done, and the resume starts the epoch again (an empty one) rather than never.
    TraceLog.of(table).newEpoch();
    // Under the queue's update lock, as every change: a pause or cancel written meanwhile by
    // another front end is read first, not overwritten by a queue read before it.
    MoveQueue finished = queue;
    return MoveQueue.update(table, q -> q.withState(MoveQueue.State.DONE, null))
        .orElseGet(() -> finished.withState(MoveQueue.State.DONE, null));
  }

  /**
   * The rates of a chunk that reads device {@code a} and writes {@code b}, by device directory,
   * with {@code before} bytes of the transformation done. Decided again for each slice of the chunk
   * ({@link ChunkPacing}): slow-start speeds up as soon as the pins go away and slows down when a
   * query pins the table.
   */
  private Supplier<Map<Path, Double>> rates(
      MoveSchedule schedule, String a, String b, long before) {
    return () -> {
      boolean queries = !table.pinnedVersions().isEmpty();
      Map<Path, Double> r = new LinkedHashMap<>();
      for (String d : List.of(a, b)) {
        r.merge(
            table.pool().device(d).root().toAbsolutePath().normalize(),
            schedule.rate(d, before, queries),
            Math::min);
      }
      return r;
    };
  }

  /** Paces a chunk of a step: {@code bytes} read on device {@code from}, written on {@code to}. */
  private interface Pacer {
    /**
     * The most bytes the next chunk should hold: a slice at the current rates, so a byte-for-byte
     * copy writes no chunk ahead of its pace.
     */
    long chunkBytes(String from, String to);

    /** Charges a chunk, before it is written (a copy) or after (a re-encoded row group). */
    void chunk(String from, String to, long bytes);

    /** Stops the step when the queue was paused or cancelled (checked at most every 200 ms). */
    void check();
  }

  /**
   * Runs one step by its kind and returns the version it committed. A step whose commit a kill left
   * unrecorded finds nothing to do and returns the latest version (a column already on its target
   * or in its codec, rows already in their order), so nothing is rewritten twice.
   */
  private Manifest runStep(MoveQueue.Step step, Pacer pace) throws IOException {
    if (step.kind() == StepKind.SORT) {
      Manifest latest = table.latest();
      if (step.column().equals(latest.properties().get(TableProperties.CLUSTERING))
          && TableSorter.sortedBy(latest, step.column())) {
        return latest;
      }
      return new TableSorter(table)
          .sort(
              step.column(),
              new TableSorter.Listener() {
                @Override
                public void copied(String device, long bytes) {
                  pace.chunk(device, device, bytes);
                }

                @Override
                public void written(long rows, long total) {
                  pace.check();
                }
              });
    }
    Migrator migrator = new Migrator(table);
    Migrator.Plan plan =
        step.kind() == StepKind.CODEC
            ? migrator.planCodec(step.column(), step.codec())
            : migrator.plan(Map.of(step.column(), step.to()));
    if (plan.moves().isEmpty()) {
      return table.latest();
    }
    return migrator.apply(
        plan,
        new Migrator.Listener() {
          @Override
          public void copied(Migrator.Move move, long bytes) {
            pace.chunk(move.from().device(), move.toDevice(), bytes);
          }

          @Override
          public long chunkBytes(Migrator.Move move) {
            return pace.chunkBytes(move.from().device(), move.toDevice());
          }
        });
  }

  private MoveQueue current() {
    return MoveQueue.read(table)
        .orElseThrow(
            () ->
                MosaicException.notFound(
                    "table "
                        + table.name()
                        + " has no transformation in progress ("
                        + MoveQueue.FILE
                        + " is gone); identify one with `mosaic maintain`"));
  }

  private MoveQueue fail(int index, Exception e) {
    return MoveQueue.update(
            table,
            q ->
                q.withState(
                    MoveQueue.State.FAILED,
                    "step "
                        + (index + 1)
                        + " ("
                        + q.steps().get(index).column()
                        + "): "
                        + e.getMessage()))
        .orElseGet(this::current);
  }

  private static final ChunkPacing.Sleep SYSTEM = DesignExecutor::sleepUntil;

  // Sleeps until the buckets have let the slice through.
  private static void sleepUntil(long due) {
    long wait = due - System.nanoTime();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Stopped();
      }
    }
  }
}
