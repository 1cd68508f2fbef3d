package io.mosaic.design;

import io.mosaic.table.MosaicTable;

/**
 * Keeps a running transformation's {@link MoveQueue.Progress} with its queue
 * (docs/physical-design.md, "The progress view"): when the run starts or resumes, then at most
 * every {@link MoveQueue#PROGRESS_MILLIS} ms while a step copies, so a person in another process
 * sees the bytes of the step in flight and the measured rate. Passes every event on to the person's
 * listener.
 */
final class ProgressRecorder implements DesignExecutor.Listener {
  private final MosaicTable table;
  private final DesignExecutor.Listener next;
  private final long startedMillis = System.currentTimeMillis();
  private final long startedNanos = System.nanoTime();
  private boolean started;
  private long lastWrite;
  private int step;
  // The transformation's bytes done when the step in flight started (as the executor counts them).
  private long stepBase;
  private long stepBytes;
  // The bytes copied by the steps this run committed.
  private long copiedBefore;

  ProgressRecorder(MosaicTable table, DesignExecutor.Listener next) {
    this.table = table;
    this.next = next;
  }

  @Override
  public void stepStarted(int index, MoveQueue.Step s) {
    step = index;
    stepBytes = 0;
    stepBase = MoveQueue.read(table).map(MoveQueue::bytesDone).orElse(0L);
    if (!started) {
      started = true;
      write(); // when it started or resumed: the view's rate and ETA start from here
    }
    next.stepStarted(index, s);
  }

  @Override
  public void copied(long bytesDone, long bytesTotal, double rate) {
    stepBytes = Math.max(0, bytesDone - stepBase);
    if (System.nanoTime() - lastWrite >= MoveQueue.PROGRESS_MILLIS * 1_000_000L) {
      write();
    }
    next.copied(bytesDone, bytesTotal, rate);
  }

  @Override
  public void stepCommitted(int index, MoveQueue.Step s, long version) {
    copiedBefore += stepBytes;
    stepBytes = 0;
    write(); // a write per step at most: the rate over the steps done, kept if it pauses now
    next.stepCommitted(index, s, version);
  }

  /** The bytes per second copied since the run started, 0 before any. */
  double measuredRate() {
    double seconds = (System.nanoTime() - startedNanos) / 1e9;
    long copied = copiedBefore + stepBytes;
    return copied > 0 && seconds > 0 ? copied / seconds : 0;
  }

  // Rewrites the queue with the progress only while it is running, under the queue's update lock:
  // a pause or cancel written by another process is kept as it is.
  private void write() {
    lastWrite = System.nanoTime();
    MoveQueue.Progress p = new MoveQueue.Progress(step, stepBytes, startedMillis, measuredRate());
    MoveQueue.update(table, q -> q.state() == MoveQueue.State.RUNNING ? q.withProgress(p) : q);
  }
}
