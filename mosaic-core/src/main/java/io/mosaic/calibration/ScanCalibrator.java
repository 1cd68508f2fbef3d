package io.mosaic.calibration;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.model.CpuModel;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * Measures the host's processors for the cost model ({@link CpuModel}, docs/cost-model.md) by the
 * path scans take: whole scans through a {@link Retriever} of sample tables whose devices are not
 * throttled and whose files the page cache holds, so decoding, not I/O, bounds them.
 *
 * <ul>
 *   <li>decoding per core, per codec and by kind of value: a retriever with one decoding thread,
 *       uncompressed bytes per second of scanning the sample's fixed-width columns, and its string
 *       columns in two sets whose bytes per value differ (a cost per value and one per byte);
 *   <li>cores: scans of all columns with every decoding thread, divided by the rate of one, in
 *       rounds that take turns;
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
    Map<Codec, CpuModel.Decoding> byKind = new EnumMap<>(Codec.class);
    try (Retriever one = new Retriever(pool, 1, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
      // Every sample scanned first, for as long as a figure takes, so the JIT has compiled the
      // decoders of all codecs before the first figure is taken (one scan of a small sample is
      // over in a fraction of a second).
      long warm = System.nanoTime();
      do {
        samples.values().forEach(t -> scanAll(one, t, ScanRequest.of(all(t)).recorded(false)));
      } while (System.nanoTime() - warm < minNanos);
      for (Map.Entry<Codec, MosaicTable> e : samples.entrySet()) {
        Kinds kinds = Kinds.of(e.getValue().latest());
        String codec = e.getKey().configName();
        Optional<CpuModel.Decoding> decoding = kinds.measure(this, one, e.getValue());
        Bandwidth rate =
            decoding
                .map(d -> kinds.meanRate(d))
                .orElseGet(() -> rate(one, e.getValue(), all(e.getValue())));
        perCore.put(e.getKey(), rate);
        decoding.ifPresent(d -> byKind.put(e.getKey(), d));
        listener.measured(
            codec + " decoding, 1 core",
            decoding
                .map(
                    d ->
                        String.format(
                            Locale.ROOT,
                            "%.1f MB/s (fixed-width %.1f MB/s; strings %.1f MB/s + %.1f ns a value)",
                            rate.megabytesPerSecond(),
                            d.fixedWidth().megabytesPerSecond(),
                            d.variableBytes().megabytesPerSecond(),
                            d.variableValueNanos()))
                .orElseGet(
                    () -> String.format(Locale.ROOT, "%.1f MB/s", rate.megabytesPerSecond())));
      }
    }
    // The parallel speed-up is measured on the codec that costs the most CPU per byte, where the
    // cores, not the readers, bound the scan, over all the sample's columns. One thread and all
    // threads take turns, round by round, and the speed-up is the median of the rounds' ratios,
    // so a slow moment of the machine weighs on both sides of a ratio, not on one figure alone
    // (the spread of this figure: docs/experiments/README.md, "Decoding by kind of value").
    Codec slowest =
        perCore.entrySet().stream()
            .min(Map.Entry.comparingByValue())
            .map(Map.Entry::getKey)
            .orElseThrow();
    double cores = 1;
    if (threads > 1) {
      MosaicTable table = samples.get(slowest);
      ScanRequest request = ScanRequest.of(all(table)).recorded(false);
      try (Retriever one = new Retriever(pool, 1, Retriever.DEFAULT_POOLED_VECTOR_BYTES);
          Retriever all = new Retriever(pool, threads, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
        scanAll(all, table, request); // warm its threads and pooled vectors
        double[] ratios = new double[2 * ROUNDS + 1];
        for (int round = 0; round < ratios.length; round++) {
          double single = scansPerSecond(one, table, request, minNanos / ROUNDS / 2);
          ratios[round] = scansPerSecond(all, table, request, minNanos / ROUNDS / 2) / single;
        }
        Arrays.sort(ratios);
        cores = Math.max(1, Math.min(threads, ratios[ratios.length / 2]));
      }
    }
    listener.measured(
        "cores a scan gets",
        String.format(Locale.ROOT, "%.2f of %d decoding threads", cores, threads));
    Latency fixed;
    try (Retriever retriever =
        new Retriever(pool, threads, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
      fixed = fixedCost(retriever, tiny);
    }
    listener.measured(
        "fixed cost per scan", String.format(Locale.ROOT, "%.2f ms", fixed.nanos() / 1e6));
    return new CpuModel(cores, fixed, perCore, byKind);
  }

  /**
   * A sample's columns by the kind of their values (docs/cost-model.md, "Decoding by kind of
   * value"): the fixed-width ones, the widest string column (most bytes per value), and the other
   * strings, with their uncompressed bytes and values.
   */
  record Kinds(
      List<String> fixed,
      long fixedBytes,
      List<String> narrow,
      long narrowBytes,
      List<String> widest,
      long widestBytes,
      long rows) {
    static Kinds of(Manifest m) {
      List<String> fixed = new ArrayList<>();
      List<String> strings = new ArrayList<>();
      Map<String, Long> bytes = new HashMap<>();
      for (ColumnSpec c : m.schema().columns()) {
        bytes.put(
            c.name(),
            m.segmentsOf(c.name()).stream().mapToLong(SegmentEntry::uncompressedBytes).sum());
        (c.type().isVariableWidth() ? strings : fixed).add(c.name());
      }
      List<String> widest = new ArrayList<>();
      if (!strings.isEmpty()) {
        String w = strings.stream().max(Comparator.comparingLong(bytes::get)).orElseThrow();
        strings.remove(w);
        widest.add(w);
      }
      ToLongFunction<List<String>> sum = names -> names.stream().mapToLong(bytes::get).sum();
      return new Kinds(
          List.copyOf(fixed),
          sum.applyAsLong(fixed),
          List.copyOf(strings),
          sum.applyAsLong(strings),
          List.copyOf(widest),
          sum.applyAsLong(widest),
          m.rowCount());
    }

    /**
     * The rates by kind: fixed-width columns per byte; for strings, {@code t = values * a + bytes *
     * b} solved from two figures whose bytes per value differ (the widest string column and the
     * others; {@link #stringCosts}). Empty where the sample lacks fixed-width or string columns.
     */
    Optional<CpuModel.Decoding> measure(
        ScanCalibrator calibrator, Retriever retriever, MosaicTable table) {
      if (fixed.isEmpty() || widest.isEmpty() || rows <= 0) {
        return Optional.empty();
      }
      Bandwidth fixedRate = calibrator.rate(retriever, table, fixed);
      long wideBytes = Math.max(widestBytes, 1);
      double tWide = wideBytes / calibrator.rate(retriever, table, widest).bytesPerSecond();
      if (narrow.isEmpty() || narrowBytes <= 0) {
        return Optional.of(new CpuModel.Decoding(fixedRate, new Bandwidth(wideBytes / tWide), 0));
      }
      double tNarrow = narrowBytes / calibrator.rate(retriever, table, narrow).bytesPerSecond();
      return Optional.of(
          stringCosts(
              fixedRate,
              new Figure(tNarrow, (double) rows * narrow.size(), narrowBytes),
              new Figure(tWide, rows, wideBytes)));
    }

    /** The mean rate over all the sample's columns that the rates by kind give. */
    Bandwidth meanRate(CpuModel.Decoding d) {
      double seconds =
          d.seconds(fixedBytes, rows * fixed.size(), false)
              + d.seconds(narrowBytes, rows * narrow.size(), true)
              + d.seconds(widestBytes, rows, true);
      return new Bandwidth((fixedBytes + narrowBytes + widestBytes) / seconds);
    }
  }

  /** One scan of a set of string columns: its seconds, its values and its uncompressed bytes. */
  record Figure(double seconds, double values, double bytes) {}

  /**
   * Solves {@code t = values * a + bytes * b} for strings' cost per value {@code a} and per byte
   * {@code b} from two measured sets; where the figures give no such split (a or b not positive,
   * the sets alike), strings cost per byte alone.
   */
  static CpuModel.Decoding stringCosts(Bandwidth fixedWidth, Figure one, Figure two) {
    double det = one.values() * two.bytes() - two.values() * one.bytes();
    double a = det == 0 ? -1 : (one.seconds() * two.bytes() - two.seconds() * one.bytes()) / det;
    double b = (one.seconds() - one.values() * a) / one.bytes();
    if (a >= 0 && b > 0) {
      return new CpuModel.Decoding(fixedWidth, new Bandwidth(1 / b), a * 1e9);
    }
    double perByte = (one.seconds() + two.seconds()) / (one.bytes() + two.bytes());
    return new CpuModel.Decoding(fixedWidth, new Bandwidth(1 / perByte), 0);
  }

  private static List<String> all(MosaicTable table) {
    return table.latest().schema().names();
  }

  /**
   * Uncompressed bytes of {@code columns} of {@code table} decoded per second: the median of
   * {@value #ROUNDS} rounds of repeated scans, so one round slowed by a neighbour on a shared
   * machine does not become the model's rate (one-second calibrations differed by 20 % and more
   * between runs).
   */
  private Bandwidth rate(Retriever retriever, MosaicTable table, List<String> columns) {
    Manifest m = table.latest();
    long bytes =
        columns.stream()
            .flatMap(c -> m.segmentsOf(c).stream())
            .mapToLong(SegmentEntry::uncompressedBytes)
            .sum();
    ScanRequest request = ScanRequest.of(columns).recorded(false);
    scanAll(retriever, table, request); // warm: JIT, page cache, pooled vectors
    double[] rates = new double[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      rates[round] = bytes * scansPerSecond(retriever, table, request, minNanos / ROUNDS);
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

  /** Whole scans per second, repeated for at least {@code nanos}. */
  private static double scansPerSecond(
      Retriever retriever, MosaicTable table, ScanRequest request, long nanos) {
    long start = System.nanoTime();
    long scans = 0;
    do {
      scanAll(retriever, table, request);
      scans++;
    } while (System.nanoTime() - start < nanos);
    return scans / ((System.nanoTime() - start) / 1e9);
  }

  private static void scanAll(Retriever retriever, MosaicTable table, ScanRequest request) {
    try (Scan scan = retriever.scan(table, request)) {
      while (scan.hasNext()) {
        scan.next();
      }
    }
  }
}
