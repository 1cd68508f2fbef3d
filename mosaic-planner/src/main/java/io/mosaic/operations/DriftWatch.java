package io.mosaic.operations;

import io.mosaic.design.DesignExecutor;
import io.mosaic.design.MoveQueue;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.util.Optional;

/**
 * The service side of physical design management for one table (docs/physical-design.md, "Drift";
 * Physical Design Management in Ceph, Section IV): called periodically ({@code mosaic maintain
 * --watch}), each {@link #check} does what is due.
 *
 * <ul>
 *   <li>A queue left {@code running} by a process that stopped (no live runner) is resumed where it
 *       stopped: the service's restart.
 *   <li>A queue running in a live process, or paused by a person, is left alone.
 *   <li>Otherwise, when the table's current trace epoch has scans the last check did not see,
 *       identification runs again, and the transformation starts only when the workload drifted:
 *       its predicted time on the new design beats the current one by more than the threshold
 *       ({@link io.mosaic.design.DesignProposal#drifted}); the result's reason says which, in
 *       numbers.
 * </ul>
 *
 * <p>Not thread-safe: one watch per table, checked from one thread.
 */
public final class DriftWatch {
  private final MaintenanceExecutor executor;
  private final MaintainRequest request;
  private int seenEpoch = -1;
  private int seenScans = -1;

  DriftWatch(MaintenanceExecutor executor, MaintainRequest request) {
    this.executor = executor;
    this.request = request.withAction(MaintainRequest.Action.START);
  }

  /** The threshold this watch starts a transformation above. */
  public double threshold() {
    return request.drift();
  }

  /**
   * Does what is due now (see the class comment), in the foreground; empty when nothing was: no new
   * scans, or a queue that another process runs or a person paused.
   */
  public Optional<MaintainResult> check(DesignExecutor.Listener listener) throws IOException {
    MosaicTable table = executor.open.apply(request.table());
    Optional<MoveQueue> queue = MoveQueue.read(table);
    if (queue.isPresent() && queue.get().state() == MoveQueue.State.RUNNING) {
      if (DesignExecutor.isRunning(table)) {
        return Optional.empty();
      }
      return Optional.of(
          executor.maintain(request.withAction(MaintainRequest.Action.RESUME), listener, false));
    }
    if (queue.isPresent() && queue.get().state() == MoveQueue.State.PAUSED) {
      return Optional.empty();
    }
    TraceLog log = TraceLog.of(table);
    int epoch = log.epoch();
    int scans = log.read(epoch).size();
    if (scans == 0 || (epoch == seenEpoch && scans == seenScans)) {
      return Optional.empty();
    }
    seenEpoch = epoch;
    seenScans = scans;
    return Optional.of(executor.maintain(request, listener, false));
  }
}
