package io.mosaic.device;

import java.io.InterruptedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Paces reads of an emulated device (DESIGN section 7). The device serves one request at a time on
 * a shared timeline: a read of {@code n} bytes occupies it for {@code n / rate} seconds (plus a
 * seek when the read is not sequential), and the reader returns only when its slot has ended. All
 * threads reading the device share the one timeline, so their sum never exceeds the rate.
 *
 * <p>The slot starts when the device becomes free, or when the read started if the device was idle;
 * the bytes are read for real before the reader waits, so a disk slower than the throttle still
 * shows. An idle device banks at most {@link #BURST_NANOS} of credit, which absorbs the scheduler's
 * wake-up lag without letting a long-idle device burst.
 */
public final class DeviceThrottle {
  static final long BURST_NANOS = 2_000_000;

  private final Emulation emulation;
  private final double nanosPerByte;
  private long nextFreeNanos = Long.MIN_VALUE / 2;
  private Object lastFile;
  private long lastEnd = -1;

  public DeviceThrottle(Emulation emulation) {
    this.emulation = emulation;
    this.nanosPerByte = 1e9 / emulation.read().bytesPerSecond();
  }

  public Emulation emulation() {
    return emulation;
  }

  /**
   * Books a read of {@code bytes} at {@code position} of {@code file} that began at {@code
   * startNanos} ({@link System#nanoTime()}), and blocks until the device would have delivered it.
   * The read costs a seek unless it continues where the device's previous read ended, whichever
   * thread issued that one (a disk head is shared, not per thread).
   */
  public void pace(Object file, long position, long startNanos, long bytes)
      throws InterruptedIOException {
    long end;
    synchronized (this) {
      boolean seek = !file.equals(lastFile) || position != lastEnd;
      long busy = Math.round(bytes * nanosPerByte) + (seek ? emulation.seek().nanos() : 0);
      long begin = Math.max(nextFreeNanos, startNanos - BURST_NANOS);
      end = begin + busy;
      nextFreeNanos = end;
      lastFile = file;
      lastEnd = position + bytes;
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
