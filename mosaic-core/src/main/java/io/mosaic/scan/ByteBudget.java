package io.mosaic.scan;

/**
 * The bound on a scan's prefetched bytes (paper Section 3.3: the buffer holds the chunks being
 * processed and those being prefetched). Tracks its peak, so tests can check the bound held.
 */
final class ByteBudget {
  private final long limit;
  private long used;
  private long peak;

  ByteBudget(long limit) {
    this.limit = limit;
  }

  /**
   * Takes {@code bytes} if they fit. A chunk larger than the whole budget is admitted only when
   * nothing else is held, so a scan always progresses.
   */
  synchronized boolean tryTake(long bytes) {
    if (used + bytes > limit && !(used == 0 && bytes > limit)) {
      return false;
    }
    used += bytes;
    peak = Math.max(peak, used);
    return true;
  }

  /** Takes {@code bytes} whether or not they fit: for chunks the consumer is blocked on. */
  synchronized void take(long bytes) {
    used += bytes;
    peak = Math.max(peak, used);
  }

  synchronized void give(long bytes) {
    used -= bytes;
  }

  synchronized long used() {
    return used;
  }

  synchronized long peak() {
    return peak;
  }

  long limit() {
    return limit;
  }
}
