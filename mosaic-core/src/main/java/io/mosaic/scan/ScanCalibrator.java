package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.device.Bandwidth;
import io.mosaic.device.Codec;
import io.mosaic.device.CpuModel;
import io.mosaic.device.DevicePool;
import io.mosaic.device.Latency;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * Measures the host's processors for the cost model ({@link CpuModel}, docs/cost-model.md) by the
 * path scans take: whole scans through a {@link Retriever} of sample tables whose devices are not
 * throttled and whose files the page cache holds, so decoding, not I/O, bounds them.
 *
 * <ul>
 *   <li>decoding per core, per codec: a retriever with one decoding thread, uncompressed bytes of
 *       the sample's columns per second of scanning;
 *   <li>cores: the same scans with every decoding thread, divided by the rate of one;
 *   <li>fixed cost per scan: the mean time of scanning one column of a tiny table.
 * </ul>
 */
public final class ScanCalibrator {
  /** Receives progress, for a person at a terminal. */
  public interface Listener {
    void measured(String what, String result);
  }

  /** Rounds per throughput figure; the figure is their median. */
  static final int ROUNDS = 3;

  private final DevicePool pool;
  private final long minNanos;
  private final Listener listener;

  /**
   * @param pool the pool the sample tables live in (devices without throttles)
   * @param minSecondsPerFigure how long each throughput figure scans, at least (repeating scans, in
   *     {@value #ROUNDS} rounds)
   */
  public ScanCalibrator(DevicePool pool, double minSecondsPerFigure, Listener listener) {
    this.pool = pool;
    this.minNanos = (long) (minSecondsPerFigure * 1e9);
    this.listener = listener;
  }

  /**
   * @param samples per codec, a table stored with that codec (all its columns are scanned)
   * @param tiny a table of one row, for the fixed cost
   * @param threads the decoding threads of an engine's retriever (its cores)
   */
  public CpuModel measure(Map<Codec, MosaicTable> samples, MosaicTable tiny, int threads) {
    if (samples.isEmpty()) {
      throw MosaicException.invalid("CPU calibration needs at least one sample table");
    }
    Map<Codec, Bandwidth> perCore = new EnumMap<>(Codec.class);
    try (Retriever one = new Retriever(pool, 1, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
      // Every sample scanned first, so the JIT has compiled the decoders of all codecs before the
      // first figure is taken (the first codec measured would otherwise pay for it).
      samples.values().forEach(table -> rate(one, table));
      for (Map.Entry<Codec, MosaicTable> e : samples.entrySet()) {
        Bandwidth rate = rate(one, e.getValue());
        perCore.put(e.getKey(), rate);
        listener.measured(
            e.getKey().configName() + " decoding, 1 core",
            String.format(java.util.Locale.ROOT, "%.1f MB/s", rate.megabytesPerSecond()));
      }
    }
    // The parallel speed-up is measured on the codec that costs the most CPU per byte, where the
    // cores, not the readers, bound the scan.
    Codec slowest =
        perCore.entrySet().stream()
            .min(Map.Entry.comparingByValue())
            .map(Map.Entry::getKey)
            .orElseThrow();
    double cores = 1;
    if (threads > 1) {
      try (Retriever all = new Retriever(pool, threads, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
        double parallel = rate(all, samples.get(slowest)).bytesPerSecond();
        cores = Math.max(1, Math.min(threads, parallel / perCore.get(slowest).bytesPerSecond()));
      }
    }
    listener.measured(
        "cores a scan gets",
        String.format(java.util.Locale.ROOT, "%.2f of %d decoding threads", cores, threads));
    Latency fixed;
    try (Retriever retriever =
        new Retriever(pool, threads, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
      fixed = fixedCost(retriever, tiny);
    }
    listener.measured(
        "fixed cost per scan",
        String.format(java.util.Locale.ROOT, "%.2f ms", fixed.nanos() / 1e6));
    return new CpuModel(cores, fixed, perCore);
  }

  /**
   * Uncompressed bytes of every column of {@code table} decoded per second: the median of {@value
   * #ROUNDS} rounds of repeated scans, so one round slowed by a neighbour on a shared machine does
   * not become the model's rate (one-second calibrations differed by 20 % and more between runs).
   */
  private Bandwidth rate(Retriever retriever, MosaicTable table) {
    Manifest m = table.latest();
    long bytes = m.segments().stream().mapToLong(SegmentEntry::uncompressedBytes).sum();
    ScanRequest request = ScanRequest.of(m.schema().names()).recorded(false);
    scanAll(retriever, table, request); // warm: JIT, page cache, pooled vectors
    double[] rates = new double[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      long start = System.nanoTime();
      long scans = 0;
      do {
        scanAll(retriever, table, request);
        scans++;
      } while (System.nanoTime() - start < minNanos / ROUNDS);
      rates[round] = bytes * scans / ((System.nanoTime() - start) / 1e9);
    }
    Arrays.sort(rates);
    return new Bandwidth(rates[ROUNDS / 2]);
  }

  /**
   * The mean time of a scan of the one-row table's first column, recorded in the trace like any
   * scan, since an engine's scans are. The mean, not the median: a workload's time is a sum of
   * scans, so occasional slow ones (a collection, a late thread) count in it.
   */
  private static Latency fixedCost(Retriever retriever, MosaicTable tiny) {
    ScanRequest request = ScanRequest.of(tiny.latest().schema().names().subList(0, 1));
    for (int i = 0; i < 50; i++) {
      scanAll(retriever, tiny, request);
    }
    long[] nanos = new long[101];
    for (int i = 0; i < nanos.length; i++) {
      long start = System.nanoTime();
      scanAll(retriever, tiny, request);
      nanos[i] = System.nanoTime() - start;
    }
    return new Latency(Arrays.stream(nanos).sum() / nanos.length);
  }

  private static void scanAll(Retriever retriever, MosaicTable table, ScanRequest request) {
    try (Scan scan = retriever.scan(table, request)) {
      while (scan.hasNext()) {
        scan.next();
      }
    }
  }
}
