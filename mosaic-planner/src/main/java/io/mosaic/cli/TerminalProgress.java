package io.mosaic.cli;

import io.mosaic.calibration.DeviceCalibrator;
import io.mosaic.device.Device;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows a long operation's progress on the terminal: a line per phase, and on an interactive
 * terminal a percentage redrawn in place at most five times a second.
 */
final class TerminalProgress implements DeviceCalibrator.Listener {
  private final PrintWriter err;
  private final boolean interactive;
  private final AtomicLong done = new AtomicLong();
  private volatile long total;
  private volatile String label = "";
  private volatile long lastDraw;
  private volatile long phaseStart;

  TerminalProgress(PrintWriter err, boolean interactive) {
    this.err = err;
    this.interactive = interactive;
  }

  @Override
  public void started(Device device, String phase, long totalBytes) {
    done.set(0);
    total = totalBytes;
    label = device.id() + ": " + phase;
    phaseStart = System.nanoTime();
    if (!interactive) {
      err.printf(Locale.ROOT, "%s (%.1f MB) ...%n", label, totalBytes / 1e6);
    }
  }

  @Override
  public void advanced(long bytes) {
    long now = System.nanoTime();
    long d = done.addAndGet(bytes);
    if (interactive && now - lastDraw > 200_000_000L) {
      lastDraw = now;
      double seconds = (now - phaseStart) / 1e9;
      err.printf(
          Locale.ROOT,
          "\r%-28s %3d%%  %.1f MB/s   ",
          label,
          total == 0 ? 100 : (int) (100 * d / total),
          d / 1e6 / Math.max(seconds, 1e-9));
      err.flush();
    }
  }

  @Override
  public void finished(Device device, String phase, String result) {
    err.printf(
        Locale.ROOT, "%s%-28s %s%n", interactive ? "\r" : "", device.id() + ": " + phase, result);
    err.flush();
  }
}
