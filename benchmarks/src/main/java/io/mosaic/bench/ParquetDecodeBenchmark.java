package io.mosaic.bench;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import io.mosaic.segment.DeviceInputFile;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.GeneratedTableLoader;
import io.trino.tpch.LineItemGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
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
 * Decoding one zstd Parquet segment (a Mosaic column file, TPC-H lineitem SF 0.1, page cache warm)
 * into Arrow with Mosaic's {@link SegmentReader} (block decoder {@code ChunkDecoder}), against the
 * same decoder on parquet-java's page reader ({@code mosaic-file-reader}) and the baseline
 * parquet-java's record reader ({@code ParquetReader<Group>}) on the same file; one core. The same
 * approach as mosaic-spark's DecodeSpeedBenchmark, under JMH and without Spark.
 *
 * <p>Run: {@code benchmarks/bench jmh ParquetDecodeBenchmark -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
public class ParquetDecodeBenchmark {
  static final double SF = 0.1;

  @Param({"l_orderkey", "l_extendedprice", "l_comment"})
  public String column;

  @Param({"mosaic", "mosaic-file-reader", "parquet-java"})
  public String reader;

  private Path dir;
  private MosaicTable table;
  private ColumnSpec spec;
  private SegmentEntry segment;
  private Path file;
  private BufferAllocator alloc;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("mosaic-decode-jmh");
    Files.writeString(
        dir.resolve("devices.toml"),
        "[[device]]\nid = \"d\"\npath = \"d\"\ncapacity = \"100 GB\"\nthreads = 1\n"
            + "codec = \"zstd\"\ncost_per_gb = \"1 ct\"\n");
    Files.createDirectories(dir.resolve("d"));
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    TableSchema schema =
        new TableSchema(
            List.of(
                new ColumnSpec("l_orderkey", ColumnType.of(ColumnType.Kind.INT64), false),
                new ColumnSpec("l_extendedprice", ColumnType.of(ColumnType.Kind.DOUBLE), false),
                new ColumnSpec("l_comment", ColumnType.of(ColumnType.Kind.STRING), false)));
    table =
        GeneratedTableLoader.load(
            schema,
            new LineItemGenerator(SF, 1, 1).iterator(),
            (batch, n, r) -> {
              ((BigIntVector) batch.getVector(0)).setSafe(n, r.getOrderKey());
              ((Float8Vector) batch.getVector(1)).setSafe(n, r.getExtendedPrice());
              ((VarCharVector) batch.getVector(2))
                  .setSafe(n, r.getComment().getBytes(StandardCharsets.UTF_8));
            },
            dir.resolve("lineitem"),
            pool,
            Map.of(),
            rows -> {});
    alloc = new RootAllocator();
    Manifest m = table.latest();
    spec = schema.columns().stream().filter(c -> c.name().equals(column)).findFirst().orElseThrow();
    segment = m.segmentsOf(column).get(0);
    file = pool.device("d").resolve(segment.path());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    alloc.close();
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Decodes every value of the column; returns the count. */
  @Benchmark
  public long decode() throws IOException {
    return switch (reader) {
      case "mosaic" -> mosaic();
      case "mosaic-file-reader" -> mosaicFileReader();
      default -> parquetJava();
    };
  }

  /**
   * Mosaic's decoder on the pages of parquet-java's file reader, which copies each chunk into
   * buffers of its own and each page into a new array: {@link #mosaic} cuts the pages from the
   * chunk it read and decompresses them into reused scratch (segment/ChunkPages). The file's
   * checksum is computed as {@link SegmentReader} computes it on open, so only the page path
   * differs.
   */
  private long mosaicFileReader() throws IOException {
    long n = 0;
    Device device = table.pool().device(segment.device());
    Checksums.ofFile(device, segment.path());
    try (ParquetFileReader r =
        ParquetFileReader.open(
            DeviceInputFile.direct(device, segment.path()),
            SegmentReader.readOptions().usePageChecksumVerification(true).build())) {
      ColumnDescriptor d = r.getFooter().getFileMetaData().getSchema().getColumns().get(0);
      for (PageReadStore pages = r.readNextRowGroup();
          pages != null;
          pages = r.readNextRowGroup()) {
        try (FieldVector v = SegmentReader.decode(pages, d, spec, alloc)) {
          n += v.getValueCount();
        }
      }
    }
    return n;
  }

  private long mosaic() throws IOException {
    long n = 0;
    try (SegmentReader r = new SegmentReader(table.name(), table.pool(), spec, segment)) {
      for (int g = 0; g < segment.rowGroupCount(); g++) {
        try (FieldVector v = r.read(g, alloc)) {
          n += v.getValueCount();
        }
      }
    }
    return n;
  }

  private long parquetJava() throws IOException {
    long n = 0;
    try (ParquetReader<Group> r =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration(false))
            .build()) {
      for (Group g = r.read(); g != null; g = r.read()) {
        n += g.getFieldRepetitionCount(0);
      }
    }
    return n;
  }

  public static void main(String[] args) throws RunnerException {
    new Runner(new OptionsBuilder().include(ParquetDecodeBenchmark.class.getSimpleName()).build())
        .run();
  }
}
