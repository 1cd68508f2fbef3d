package io.mosaic.device;

import io.mosaic.config.ColdSpec;
import io.mosaic.config.Emulation;
import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Paces reads of an emulated device (docs/configuration.md, "Emulated devices"). The device serves
 * one request at a time on a shared timeline: a read of {@code n} bytes occupies it for {@code n /
 * rate} seconds (plus a seek when the read is not sequential), and the reader returns only when its
 * slot has ended. All threads reading the device share the one timeline, so their sum never exceeds
 * the rate.
 *
 * <p>The slot starts when the device becomes free, or when the read started if the device was idle;
 * the bytes are read for real before the reader waits, so a disk slower than the throttle still
 * shows. An idle device banks at most {@link #BURST_NANOS} of credit, which absorbs the scheduler's
 * wake-up lag without letting a long-idle device burst.
 *
 * <p>A cold device's throttle ({@link #cold}) also keeps the device's active disk group: a read of
 * another group first occupies the timeline for the group switch, then makes its group the active
 * one, as Skipper's emulated CSD does (VLDB 2016, Section 5.1: requests served one at a time, a
 * switch added as a delay). Reads of every group queue on the one timeline, so while a switch runs
 * the device serves nothing else. No group is spun up at first: the first read switches too.
 */
final class DeviceThrottle {
  static final long BURST_NANOS = 2_000_000;

  private final Emulation emulation;
  private final ColdSpec cold;
  private final double nanosPerByte;
  private long nextFreeNanos = Long.MIN_VALUE / 2;
  private Object lastFile;
  private long lastEnd = -1;
  private int activeGroup = -1;
  private long switches;

  DeviceThrottle(Emulation emulation) {
    this(emulation, null);
  }

  private DeviceThrottle(Emulation emulation, ColdSpec cold) {
    this.emulation = emulation;
    this.cold = cold;
    this.nanosPerByte = 1e9 / emulation.read().bytesPerSecond();
  }

  /** The throttle of a cold device: the active group read at its rate, switches in between. */
  public static DeviceThrottle cold(ColdSpec cold) {
    return new DeviceThrottle(cold.activeGroup(), cold);
  }

  public Emulation emulation() {
    return emulation;
  }

  /** Group switches so far (0 unless cold), the first spin-up included. */
  public synchronized long switches() {
    return switches;
  }

  /** The disk group spun up now, or -1 (not cold, or nothing read yet). */
  public synchronized int activeGroup() {
    return activeGroup;
  }

  /**
   * Books a read of {@code bytes} at {@code position} of {@code file} that began at {@code
   * startNanos} ({@link System#nanoTime()}), and blocks until the device would have delivered it.
   * The read costs a seek unless it continues where the device's previous read ended, whichever
   * thread issued that one (a disk head is shared, not per thread).
   */
  public void pace(Object file, long position, long startNanos, long bytes)
      throws InterruptedIOException {
    if (cold != null) {
      throw new IllegalStateException("a cold device's read needs its disk group");
    }
    pace(file, -1, position, startNanos, bytes);
  }

  /**
   * As {@link #pace(Object, long, long, long)}, for a file of disk {@code group} (-1 on a warm
   * device): on a cold device, a read of a group other than the active one first waits for the
   * switch. A switch gets no idle credit: it begins no earlier than the read did.
   */
  public void pace(Object file, int group, long position, long startNanos, long bytes)
      throws InterruptedIOException {
    if (cold != null && (group < 0 || group >= cold.groups())) {
      throw new IllegalArgumentException(
          "disk group " + group + " of a cold device with " + cold.groups() + " groups");
    }
    long end;
    synchronized (this) {
      boolean seek = !file.equals(lastFile) || position != lastEnd;
      boolean switching = cold != null && group != activeGroup;
      long busy =
          Math.round(bytes * nanosPerByte)
              + (seek ? emulation.seek().nanos() : 0)
              + (switching ? cold.switchLatency().nanos() : 0);
      long begin = Math.max(nextFreeNanos, switching ? startNanos : startNanos - BURST_NANOS);
      end = begin + busy;
      nextFreeNanos = end;
      lastFile = file;
      lastEnd = position + bytes;
      if (switching) {
        activeGroup = group;
        switches++;
      }
    }
    for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading an emulated device");
      }
    }
  }
}
