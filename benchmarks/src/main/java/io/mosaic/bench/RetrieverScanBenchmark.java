package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The retriever on emulated devices (JMH variant of {@link RetrieverBenchmark}): one scan of four
 * columns of seeded random longs (4 x 16 MB, codec none), one column per device, all four devices
 * throttled at {@code rate} MB/s. Eq. 3 predicts {@code 16 MB / rate} (the devices read in
 * parallel). Baseline: {@code rate = 0}, the same scan unthrottled (the machine's own limit).
 *
 * <p>Run: {@code benchmarks/bench jmh RetrieverScanBenchmark -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class RetrieverScanBenchmark {
  private static final long ROWS = 2L << 20;
  private static final String[] DEVICES = {"d0", "d1", "d2", "d3"};

  /** Emulated read rate of each device in MB/s; 0 reads unthrottled. */
  @Param({"0", "100"})
  public int rate;

  private Path dir;
  private MosaicTable table;
  private Retriever retriever;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("mosaic-retriever-jmh");
    int[] rates = new int[DEVICES.length];
    int[] threads = new int[DEVICES.length];
    Arrays.fill(rates, rate);
    Arrays.fill(threads, 2);
    DevicePool pool = RetrieverBenchmark.pool(dir, DEVICES, rates, threads);
    table = RetrieverBenchmark.table(dir, pool, DEVICES, ROWS);
    retriever = new Retriever(pool);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    retriever.close();
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Scans the four columns; returns the rows delivered. */
  @Benchmark
  public long scan() {
    long rows = 0;
    try (Scan s =
        retriever.scan(table, ScanRequest.of(List.of("c0", "c1", "c2", "c3")).recorded(false))) {
      while (s.hasNext()) {
        rows += s.next().getRowCount();
      }
    }
    return rows;
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(RetrieverScanBenchmark.class.getSimpleName()).build())
        .run();
  }
}
