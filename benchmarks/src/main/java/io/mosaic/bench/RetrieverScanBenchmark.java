package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.ColumnSpec;
import io.mosaic.table.ColumnType;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableSchema;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
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
    StringBuilder toml = new StringBuilder();
    for (String d : DEVICES) {
      Files.createDirectories(dir.resolve(d));
      toml.append("[[device]]\nid = \"")
          .append(d)
          .append("\"\npath = \"")
          .append(d)
          .append(
              "\"\ncapacity = \"10 GB\"\nthreads = 2\ncodec = \"none\"\ncost_per_gb = \"1 ct\"\n")
          .append(rate > 0 ? "emulate = { read = \"" + rate + " MB/s\" }\n" : "")
          .append('\n');
    }
    Files.writeString(dir.resolve("devices.toml"), toml);
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    List<ColumnSpec> specs = new ArrayList<>();
    Map<String, String> props = new HashMap<>();
    for (int i = 0; i < DEVICES.length; i++) {
      specs.add(new ColumnSpec("c" + i, ColumnType.of(ColumnType.Kind.INT64), false));
      props.put("column.c" + i + ".device", DEVICES[i]);
    }
    TableSchema schema = new TableSchema(specs);
    table = MosaicTable.create(dir.resolve("t"), pool, schema, props);
    SplittableRandom random = new SplittableRandom(42);
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      for (long done = 0; done < ROWS; done += 65_536) {
        int n = (int) Math.min(65_536, ROWS - done);
        batch.allocateNew();
        for (int c = 0; c < DEVICES.length; c++) {
          BigIntVector v = (BigIntVector) batch.getVector(c);
          for (int i = 0; i < n; i++) {
            v.setSafe(i, random.nextLong());
          }
        }
        batch.setRowCount(n);
        writer.write(batch);
      }
      table.append(List.of(writer.finish()));
    }
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
