package io.mosaic.bench;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.device.DeviceReadChannel;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Accuracy of the emulated-device throttle (docs/benchmarks.md): reads {@value #FILE_MIB} MiB
 * through an emulated device with 1 and 4 reader threads, and reports delivered MB/s as a ratio of
 * the configured rate. Baseline: the same read through an unthrottled device ({@code rate = 0}),
 * which shows how far above every throttle the machine itself is.
 *
 * <p>Run: {@code benchmarks/bench ThrottleBenchmark} (prints JMH's table, then the ratios).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class ThrottleBenchmark {
  static final int FILE_MIB = 256;
  private static final int BLOCK = 1 << 20;

  /** Emulated read rate in MB/s; 0 reads the directory unthrottled. */
  @Param({"0", "100", "400"})
  public int rate;

  @Param({"1", "4"})
  public int threads;

  private Path dir;
  private Device device;
  private Path file;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("mosaic-throttle-bench");
    Path config = dir.resolve("devices.toml");
    Files.writeString(
        config,
        "[[device]]\nid = \"d\"\npath = \"d\"\ncapacity = \"1 GB\"\nthreads = "
            + threads
            + "\ncodec = \"none\"\ncost_per_gb = \"1 ct\"\n"
            + (rate > 0 ? "emulate = { read = \"" + rate + " MB/s\" }\n" : ""));
    Files.createDirectories(dir.resolve("d"));
    device = DevicePool.load(config).device("d");
    file = device.resolve("data.bin");
    byte[] block = new byte[BLOCK];
    new Random(42).nextBytes(block);
    try (OutputStream out = Files.newOutputStream(file)) {
      for (int i = 0; i < FILE_MIB; i++) {
        out.write(block);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Files.deleteIfExists(file);
    Files.deleteIfExists(dir.resolve("d"));
    Files.deleteIfExists(dir.resolve("devices.toml"));
    Files.deleteIfExists(dir);
  }

  /** Reads the whole file once, 1 MiB blocks taken in order from a shared cursor. */
  @Benchmark
  public long readFile() throws Exception {
    AtomicInteger cursor = new AtomicInteger();
    List<Thread> readers = new ArrayList<>();
    long[] bytes = new long[threads];
    IOException[] failure = new IOException[1];
    for (int t = 0; t < threads; t++) {
      int me = t;
      Thread reader =
          new Thread(
              () -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK);
                try (DeviceReadChannel ch = device.openForRead(file)) {
                  for (int i = cursor.getAndIncrement();
                      i < FILE_MIB;
                      i = cursor.getAndIncrement()) {
                    buf.clear();
                    bytes[me] += ch.readFully(buf, (long) i * BLOCK);
                  }
                } catch (IOException e) {
                  failure[0] = e;
                }
              });
      reader.start();
      readers.add(reader);
    }
    for (Thread reader : readers) {
      reader.join();
    }
    if (failure[0] != null) {
      throw failure[0];
    }
    long total = 0;
    for (long b : bytes) {
      total += b;
    }
    return total;
  }

  public static void main(String[] args) throws RunnerException {
    Collection<RunResult> results =
        new Runner(new OptionsBuilder().include(ThrottleBenchmark.class.getSimpleName()).build())
            .run();
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "%-10s %-8s %-12s %-14s %s%n",
        "rate",
        "threads",
        "time (ms)",
        "delivered",
        "delivered / rate");
    for (RunResult r : results) {
      int rate = Integer.parseInt(r.getParams().getParam("rate"));
      String threads = r.getParams().getParam("threads");
      double ms = r.getPrimaryResult().getScore();
      double mbps = FILE_MIB * (double) BLOCK / 1e6 / (ms / 1e3);
      System.out.printf(
          Locale.ROOT,
          "%-10s %-8s %-12.1f %-14s %s%n",
          rate == 0 ? "none" : rate + " MB/s",
          threads,
          ms,
          String.format(Locale.ROOT, "%.1f MB/s", mbps),
          rate == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * mbps / rate));
    }
  }
}
