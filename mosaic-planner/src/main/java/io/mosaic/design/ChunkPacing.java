package io.mosaic.design;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Paces the bytes of one copied chunk in slices of about {@link #SLICE_NANOS} at the rate decided
 * for each slice, so the schedule's decision (Physical Design Management in Ceph, Section IV:
 * {@code slow-start} uses the devices while no query does) is taken every slice rather than once
 * per chunk: at 0.2 MB/s a 1 MB chunk was one decision per 5 s, and the idle gaps were used only by
 * chance. Each slice is reserved in the devices' shared buckets ({@link DeviceBuckets}: per device,
 * no burst), the first from when the chunk's copy started, so the token-bucket semantics are those
 * of a chunk reserved at once when the rate does not change (the same due time).
 */
final class ChunkPacing {
  /** How long a slice takes at the slowest device's rate: how often the rate is decided again. */
  static final long SLICE_NANOS = 150_000_000L;

  /** Sleeps until a {@code System.nanoTime()} (a test's clock moves there instead). */
  interface Sleep {
    void until(long due);
  }

  private ChunkPacing() {}

  /**
   * The bytes of one slice at {@code rates} (by device directory, bytes per second): what the
   * slowest device passes in {@link #SLICE_NANOS}, at least a byte. A copy asks for chunks of this
   * size, so that at a low rate no chunk reaches a device ahead of the pace.
   */
  static long sliceBytes(Map<Path, Double> rates) {
    double slowest =
        rates.values().stream().mapToDouble(Double::doubleValue).min().orElse(Double.MAX_VALUE);
    return (long)
        Math.max(1, Math.min(Long.MAX_VALUE / 2.0, Math.ceil(slowest * SLICE_NANOS / 1e9)));
  }

  /**
   * Charges {@code bytes} copied from {@code copyStart} to the devices' buckets, slice by slice,
   * each at the rates {@code rates} gives when it is reserved (by device directory, bytes per
   * second), and sleeps until the buckets let the last slice through; {@code between} runs after
   * each slice's sleep (a pause lands within a slice).
   */
  static void pace(
      long bytes,
      long copyStart,
      Supplier<Map<Path, Double>> rates,
      Sleep sleep,
      Runnable between) {
    long left = bytes;
    long from = copyStart;
    while (left > 0) {
      Map<Path, Double> now = rates.get();
      long slice = Math.min(left, sliceBytes(now));
      long due = DeviceBuckets.reserveAt(now, slice, from);
      left -= slice;
      sleep.until(due);
      between.run();
      // The next slice follows this one in the chunk's time: a copy slower than the rate so far
      // has used its slots already (as one reservation of the whole chunk would have).
      from = due;
    }
  }
}
