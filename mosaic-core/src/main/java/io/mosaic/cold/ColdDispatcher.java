package io.mosaic.cold;

import io.mosaic.config.GroupPolicy;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The reader threads of one cold storage device, fed by its {@link GroupScheduler} (Skipper, VLDB
 * 2016, Section 4.4): every read of the device is submitted with its query, disk group and
 * relation; the threads take reads in the order the scheduler gives (whole rounds of one group,
 * round-robin over the queries' relations within it) and run them, so the device switches groups
 * only when the policy says so. One per cold device and {@code Retriever}, shared by all its scans.
 * The reads themselves complete whatever future their caller waits on.
 */
public final class ColdDispatcher implements AutoCloseable {
  private final GroupScheduler scheduler;
  private final Thread[] workers;
  private final Consumer<Throwable> uncaught;
  private boolean closed;
  // Reads running now, all of one group: a read of the next group starts only once they are done,
  // so the device sees the groups in the scheduler's order (two threads racing to the device would
  // otherwise switch to the new group and back).
  private int running;
  private int runningGroup = -1;
  // A worker holds a read of another group and waits for the running ones to finish: no other
  // worker takes a read from the scheduler until it starts, or a read taken later (the scheduler
  // may have switched on again, or back) could reach the device first, and the device would switch
  // in another order, and another number of times, than the scheduler decided.
  private boolean switchPending;

  /** A queued read and the scan it belongs to ({@link #withdraw}). */
  private record Task(Object owner, Runnable read) {}

  /**
   * @param device the device's id, for thread names
   * @param threads reader threads (the device's {@code threads}); a read runs on one of them
   * @param uncaught where a read that throws is reported (reads report their own failures; this is
   *     for bugs, so that a thread never dies silently)
   */
  public ColdDispatcher(
      String device, GroupPolicy policy, int groups, int threads, Consumer<Throwable> uncaught) {
    this.scheduler = new GroupScheduler(policy, groups);
    this.uncaught = uncaught;
    this.workers = new Thread[threads];
    AtomicInteger n = new AtomicInteger();
    for (int i = 0; i < threads; i++) {
      workers[i] = new Thread(this::serve, "mosaic-cold-" + device + "-" + n.incrementAndGet());
      workers[i].setDaemon(true);
      workers[i].start();
    }
  }

  /**
   * Queues {@code read}, a read of an object in disk group {@code group} for query {@code query}
   * and relation {@code relation} (table and column), on behalf of {@code owner} (its scan).
   *
   * @throws RejectedExecutionException once closed
   */
  public synchronized void execute(
      String query, int group, String relation, Object owner, Runnable read) {
    if (closed) {
      throw new RejectedExecutionException("the cold device's reader threads are shut down");
    }
    scheduler.submit(new ColdRequest(query, group, relation, new Task(owner, read)));
    notifyAll();
  }

  /**
   * Takes the reads {@code owner} still has queued out of the scheduler and runs them on the
   * calling thread: a closed scan's reads see it closed and return at once, instead of waiting for
   * their group's turn (which could be several switches away).
   */
  public void withdraw(Object owner) {
    List<ColdRequest> dropped;
    synchronized (this) {
      dropped = scheduler.withdraw(r -> ((Task) r.object()).owner() == owner);
    }
    for (ColdRequest r : dropped) {
      ((Task) r.object()).read().run();
    }
  }

  /** Group switches the scheduler has decided (the device's own counter also sees the first). */
  public synchronized long switches() {
    return scheduler.switches();
  }

  private void serve() {
    while (true) {
      Runnable read;
      synchronized (this) {
        GroupScheduler.Served next = null;
        try {
          while (!closed && (switchPending || (next = scheduler.next()) == null)) {
            wait();
          }
          int group = closed ? -1 : next.request().group();
          switchPending = running > 0 && runningGroup != group;
          while (!closed && running > 0 && runningGroup != group) {
            wait();
          }
          switchPending = false;
          notifyAll();
          if (closed) {
            return;
          }
          running++;
          runningGroup = group;
        } catch (InterruptedException e) {
          return;
        }
        read = ((Task) next.request().object()).read();
      }
      try {
        read.run();
      } catch (RuntimeException | Error e) {
        uncaught.accept(e);
      } finally {
        synchronized (this) {
          running--;
          notifyAll();
        }
      }
    }
  }

  /** Stops the threads; reads still queued are dropped, as a closed reader pool drops them. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    for (Thread t : workers) {
      t.interrupt();
    }
  }
}
