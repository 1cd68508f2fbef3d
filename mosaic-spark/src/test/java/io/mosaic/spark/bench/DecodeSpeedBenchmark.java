package io.mosaic.spark.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.GeneratedTableLoader;
import io.trino.tpch.LineItemGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Decoding speed, one core, page cache warm (issue 4): values per second for a long, a double and a
 * string column of TPC-H lineitem, read from the same Parquet file (a Mosaic segment, zstd) by
 * Mosaic's decoder (into Arrow), by parquet-java's record reader (into Groups) and by Spark's
 * vectorized reader (into ColumnarBatch), side by side in one JVM; best of five after a warm-up.
 *
 * <p>Run: {@code mosaic-spark/bench DecodeSpeedBenchmark [SF]}.
 */
public final class DecodeSpeedBenchmark {
  private static final int RUNS = 5;

  private DecodeSpeedBenchmark() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.5;
    Path dir = Files.createTempDirectory("mosaic-decode-bench");
    Files.writeString(
        dir.resolve("devices.toml"),
        "[[device]]\nid = \"d\"\npath = \"d\"\ncapacity = \"100 GB\"\nthreads = 1\ncodec = \"zstd\"\n"
            + "cost_per_gb = \"1 ct\"\n");
    Files.createDirectories(dir.resolve("d"));
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    TableSchema schema =
        new TableSchema(
            List.of(
                new ColumnSpec("l_orderkey", ColumnType.of(ColumnType.Kind.INT64), false),
                new ColumnSpec("l_extendedprice", ColumnType.of(ColumnType.Kind.DOUBLE), false),
                new ColumnSpec("l_comment", ColumnType.of(ColumnType.Kind.STRING), false)));
    MosaicTable table =
        GeneratedTableLoader.load(
            schema,
            new LineItemGenerator(sf, 1, 1).iterator(),
            (batch, n, r) -> {
              ((BigIntVector) batch.getVector(0)).setSafe(n, r.getOrderKey());
              ((Float8Vector) batch.getVector(1)).setSafe(n, r.getExtendedPrice());
              ((VarCharVector) batch.getVector(2))
                  .setSafe(n, r.getComment().getBytes(StandardCharsets.UTF_8));
            },
            dir.resolve("lineitem"),
            pool,
            Map.of(),
            written -> {});
    Manifest m = table.latest();
    long rows = m.rowCount();
    System.out.printf(
        Locale.ROOT,
        "TPC-H lineitem SF %s: %,d rows in %d row groups, zstd; million values per second, one core%n",
        sf,
        rows,
        m.rowGroups().size());
    System.out.printf(
        Locale.ROOT,
        "%-16s %-8s %10s %14s %10s %16s%n",
        "column",
        "type",
        "Mosaic",
        "parquet-java",
        "Spark",
        "Mosaic / Spark");
    try (BufferAllocator alloc = new RootAllocator()) {
      for (ColumnSpec c : schema.columns()) {
        SegmentEntry segment = m.segmentsOf(c.name()).get(0);
        Path file = pool.device("d").resolve(segment.path());
        double mosaic = best(() -> mosaic(table, c, segment, alloc), rows);
        double parquet = best(() -> parquetJava(file, c), rows);
        double spark = best(() -> spark(file, c), rows);
        System.out.printf(
            Locale.ROOT,
            "%-16s %-8s %10.1f %14.1f %10.1f %15.2fx%n",
            c.name(),
            c.type(),
            mosaic,
            parquet,
            spark,
            mosaic / spark);
      }
    }
  }

  private interface Read {
    long run() throws Exception;
  }

  /** Best rate of {@value #RUNS} runs after one warm-up, in million values per second. */
  private static double best(Read read, long rows) throws Exception {
    if (read.run() != rows) {
      throw new IllegalStateException("a reader returned the wrong number of values");
    }
    double best = 0;
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      read.run();
      best = Math.max(best, rows / ((System.nanoTime() - start) / 1e9) / 1e6);
    }
    return best;
  }

  private static long mosaic(MosaicTable table, ColumnSpec c, SegmentEntry s, BufferAllocator alloc)
      throws IOException {
    long n = 0;
    try (SegmentReader reader = new SegmentReader(table.name(), table.pool(), c, s)) {
      for (int g = 0; g < s.rowGroupCount(); g++) {
        try (FieldVector v = reader.read(g, alloc)) {
          n += v.getValueCount();
        }
      }
    }
    return n;
  }

  private static long parquetJava(Path file, ColumnSpec c) throws IOException {
    long n = 0;
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration(false))
            .build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        n += g.getFieldRepetitionCount(0);
      }
    }
    return n;
  }

  private static long spark(Path file, ColumnSpec c) throws Exception {
    long n = 0;
    VectorizedParquetRecordReader reader = new VectorizedParquetRecordReader(false, 4096);
    try {
      reader.initialize(file.toString(), List.of(c.name()));
      ColumnarBatch batch = reader.resultBatch();
      while (reader.nextBatch()) {
        n += batch.numRows();
      }
    } finally {
      reader.close();
    }
    return n;
  }
}
