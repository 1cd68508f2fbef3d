package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The fixed cost of one scan: what a scan costs besides moving its bytes, which the paper's Eq. 2-4
 * leave out. The table is tiny (two long columns of 1,000 rows, one row group, one unthrottled
 * device), so {@link #scan} is almost all fixed cost: pin the latest version, read and check its
 * manifest, open the segments' footers, hand the chunk reads to the reader and decode pools,
 * deliver the one batch, close and append the scan to the trace.
 *
 * <p>The other methods break it down: {@link #scanUnrecorded} leaves out the trace append, {@link
 * #scanPinned} also the pin and the manifest (what remains is footers, hand-offs, decoding and
 * close), and {@link #pin}, {@link #latestManifest} and {@link #traceAppend} time those parts
 * alone.
 *
 * <p>Run: {@code benchmarks/bench jmh ScanFixedCostBenchmark -wi 3 -i 5 -f 1} (results in docs/
 * benchmarks.md, "Fixed cost per scan").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class ScanFixedCostBenchmark {
  private static final long ROWS = 1_000;
  private static final String[] DEVICES = {"d0"};
  private static final List<String> COLUMNS = List.of("c0");

  private Path dir;
  private MosaicTable table;
  private Retriever retriever;
  private TablePin heldPin;
  private TraceLog trace;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("mosaic-fixed-cost-jmh");
    DevicePool pool = RetrieverBenchmark.pool(dir, DEVICES, new int[] {0}, new int[] {2});
    // Two columns on the one device; scans read one of them (a projection, as queries do).
    table = RetrieverBenchmark.table(dir, pool, new String[] {"d0", "d0"}, ROWS);
    retriever = new Retriever(pool);
    heldPin = table.pin();
    trace = new TraceLog(table.root());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    heldPin.close();
    retriever.close();
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static long drain(Scan s) {
    long rows = 0;
    while (s.hasNext()) {
      rows += s.next().getRowCount();
    }
    return rows;
  }

  /** One whole scan as an engine's split runs it: pin, manifest, footers, batch, close, trace. */
  @Benchmark
  public long scan() {
    try (Scan s = retriever.scan(table, ScanRequest.of(COLUMNS))) {
      return drain(s);
    }
  }

  /** The same scan without its trace append. */
  @Benchmark
  public long scanUnrecorded() {
    try (Scan s = retriever.scan(table, ScanRequest.of(COLUMNS).recorded(false))) {
      return drain(s);
    }
  }

  /** A scan of a version pinned beforehand (as engines split a query), without trace append. */
  @Benchmark
  public long scanPinned() {
    try (Scan s = retriever.scan(table, heldPin, ScanRequest.of(COLUMNS).recorded(false))) {
      return drain(s);
    }
  }

  /** Pinning the latest version (its pin file and its manifest) and releasing the pin. */
  @Benchmark
  public long pin() {
    try (TablePin p = table.pin()) {
      return p.version();
    }
  }

  /** Finding and reading the latest manifest. */
  @Benchmark
  public Manifest latestManifest() {
    return table.latest();
  }

  /** Appending one scan's record to the trace. */
  @Benchmark
  public void traceAppend() {
    trace.appendScan(
        null,
        0,
        -1,
        "q",
        table.name(),
        COLUMNS,
        List.of(0),
        Map.of("d0", 8_000L),
        Instant.now(),
        1);
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(ScanFixedCostBenchmark.class.getSimpleName()).build())
        .run();
  }
}
