package io.mosaic.design;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pacing of moves per device, shared by every transformation of this JVM (Section IV: moves
 * share each device with the queries, so the limit belongs to the device, not to one
 * transformation). Each device is a token bucket with no burst, kept as a virtual clock: the moment
 * its reserved bytes will have passed at its rate. A chunk that reads device A and writes device B
 * reserves its bytes on both and waits for the later; two tables moving onto the same device share
 * its rate.
 */
final class DeviceBuckets {
  // By the device's directory: two pools of one JVM may give different devices the same id.
  private static final Map<Path, long[]> NEXT = new ConcurrentHashMap<>();

  private DeviceBuckets() {}

  /**
   * Reserves {@code bytes} on each device (by its directory) at its rate (bytes per second), from
   * {@code now} (the {@code System.nanoTime()} the copy started) or the device's clock if later,
   * and returns the time at which all of them are through.
   */
  static long reserveAt(Map<Path, Double> rates, long bytes, long now) {
    long due = now;
    for (Map.Entry<Path, Double> e : rates.entrySet()) {
      long[] next = NEXT.computeIfAbsent(e.getKey().toAbsolutePath().normalize(), k -> new long[1]);
      long cost = (long) Math.min(bytes / e.getValue() * 1e9, 1e15);
      synchronized (next) {
        // An idle device does not save up: its clock starts from when this copy did.
        long start = next[0] - now > 0 ? next[0] : now;
        next[0] = start + cost;
        due = next[0] - due > 0 ? next[0] : due;
      }
    }
    return due;
  }
}
