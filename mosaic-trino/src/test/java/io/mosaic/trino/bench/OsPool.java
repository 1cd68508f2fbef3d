package io.mosaic.trino.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Cold caches for the headline benchmark (docs/experiments/headline.md): before each measured query
 * the page cache is dropped (as root, the way {@code benchmarks/os-pool drop-caches} does), so
 * every query reads its data through the emulated devices' throttle.
 */
final class OsPool {
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  private OsPool() {}

  static void dropCaches() {
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      Files.writeString(DROP_CACHES, "3");
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot drop the page cache ("
              + DROP_CACHES
              + "): run the headline benchmark as root, as benchmarks/os-pool needs",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while syncing", e);
    }
  }

  /** The 1-minute load average, recorded beside every measurement (the machine is shared). */
  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException e) {
      return Double.NaN;
    }
  }
}
