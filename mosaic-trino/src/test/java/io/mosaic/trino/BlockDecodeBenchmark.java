package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.airlift.slice.Slices;
import io.mosaic.device.DevicePool;
import io.mosaic.scan.RawChunk;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.RowGroupChunks;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.reader.ColumnReaderFactory;
import io.trino.spi.block.Block;
import io.trino.spi.block.ByteArrayBlock;
import io.trino.spi.block.Int128ArrayBlock;
import io.trino.spi.block.IntArrayBlock;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.block.ShortArrayBlock;
import io.trino.spi.block.VariableWidthBlock;
import io.trino.spi.type.DecimalType;
import io.trino.spi.type.Type;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.joda.time.DateTimeZone;

/**
 * The prototype measurement behind the Trino read path (docs/benchmarks.md, "Trino: decoding
 * straight into blocks"): one scan of a Mosaic table's columns decoded into Trino blocks three
 * ways, single-threaded decoding, process CPU time and wall time per scan:
 *
 * <ul>
 *   <li>{@code trino-parquet}: chunk mode, trino-parquet's column readers into blocks, 8192 rows a
 *       batch, every batch loaded (option (a));
 *   <li>{@code chunkdecoder}: vector mode, Mosaic's {@code ChunkDecoder} into (pooled) Arrow
 *       vectors on one decode thread, not copied: what a block-writing sink for it (option (b))
 *       would cost at best;
 *   <li>{@code arrow+copy}: the same plus the copy into Java arrays the page source did before (the
 *       old {@code ArrowToBlocks}).
 * </ul>
 *
 * <p>Run: {@code .mvn/test-main.sh}'s {@code mosaic_test_main mosaic-trino 4g
 * io.mosaic.trino.BlockDecodeBenchmark DEVICES_TOML TABLE_DIR ITERATIONS COLUMN...} over a table
 * {@code mosaic-trino/tpch-bench} wrote (e.g. {@code /tmp/mosaic-tpch-trino-sf1}).
 */
public final class BlockDecodeBenchmark {
  private BlockDecodeBenchmark() {}

  public static void main(String[] args) throws Exception {
    DevicePool pool = DevicePool.load(Path.of(args[0]));
    MosaicTable table = MosaicTable.open(Path.of(args[1]), pool);
    int iterations = Integer.parseInt(args[2]);
    List<String> columns = List.of(args).subList(3, args.length);
    List<Type> types = new ArrayList<>();
    for (String c : columns) {
      types.add(TrinoTypes.toTrino(table.latest().schema().column(c).type()));
    }
    ScanRequest request = ScanRequest.of(columns).recorded(false);
    try (Retriever retriever = new Retriever(pool, 1, Retriever.DEFAULT_POOLED_VECTOR_BYTES)) {
      for (String mode : List.of("trino-parquet", "chunkdecoder", "arrow+copy")) {
        double[] cpu = new double[iterations];
        double[] wall = new double[iterations];
        long check = 0;
        for (int i = -2; i < iterations; i++) { // two warm-up scans
          long cpu0 = cpu();
          long wall0 = System.nanoTime();
          check = scan(mode, retriever, table, request, types);
          if (i >= 0) {
            cpu[i] = (cpu() - cpu0) / 1e9;
            wall[i] = (System.nanoTime() - wall0) / 1e9;
          }
        }
        Arrays.sort(cpu);
        Arrays.sort(wall);
        System.out.printf(
            Locale.ROOT,
            "%-14s %s: cpu median %.3f s (min %.3f), wall median %.3f s (min %.3f); %d values%n",
            mode,
            columns,
            cpu[iterations / 2],
            cpu[0],
            wall[iterations / 2],
            wall[0],
            check);
      }
    }
  }

  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long scan(
      String mode, Retriever retriever, MosaicTable table, ScanRequest request, List<Type> types) {
    long values = 0;
    try (TablePin pin = table.pin()) {
      if (mode.equals("trino-parquet")) {
        ColumnReaderFactory factory =
            new ColumnReaderFactory(DateTimeZone.UTC, ParquetReaderOptions.defaultOptions());
        AggregatedMemoryContext memory = AggregatedMemoryContext.newSimpleAggregatedMemoryContext();
        try (Scan scan = retriever.chunks(table, pin, request)) {
          while (scan.hasNext()) {
            RowGroupChunks g = scan.nextChunks();
            for (int c = 0; c < types.size(); c++) {
              RawChunk chunk = g.chunks().get(c);
              ChunkColumnReader reader =
                  new ChunkColumnReader(
                      chunk, java.util.Optional.empty(), types.get(c), c, factory, memory);
              for (long at = 0; at < g.rows(); at += MosaicPageSource.MAX_PAGE_ROWS) {
                int n = (int) Math.min(MosaicPageSource.MAX_PAGE_ROWS, g.rows() - at);
                reader.next(n);
                values += reader.read().getPositionCount();
              }
            }
          }
        }
        return values;
      }
      boolean copy = mode.equals("arrow+copy");
      try (Scan scan = retriever.scan(table, pin, request)) {
        while (scan.hasNext()) {
          VectorSchemaRoot root = scan.next();
          for (int c = 0; c < types.size(); c++) {
            values +=
                copy
                    ? block(root.getVector(c), types.get(c)).getPositionCount()
                    : root.getVector(c).getValueCount();
          }
        }
      }
      return values;
    }
  }

  // ---- The page source's former copy from Arrow (ArrowToBlocks), kept to measure it.

  static Block block(FieldVector vector, Type type) {
    int n = vector.getValueCount();
    Optional<boolean[]> nulls = nulls(vector, n);
    if (vector instanceof BigIntVector || vector instanceof TimeStampVector) {
      return new LongArrayBlock(n, nulls, longs(vector.getDataBuffer(), n));
    }
    if (vector instanceof Float8Vector) {
      // Trino keeps a double as its raw IEEE bits in a long, as Arrow does.
      return new LongArrayBlock(n, nulls, longs(vector.getDataBuffer(), n));
    }
    if (vector instanceof IntVector
        || vector instanceof DateDayVector
        || vector instanceof Float4Vector) {
      int[] values = new int[n];
      ArrowBuf data = vector.getDataBuffer();
      for (int i = 0; i < n; i++) {
        values[i] = data.getInt(4L * i);
      }
      return new IntArrayBlock(n, nulls, values);
    }
    if (vector instanceof SmallIntVector) {
      short[] values = new short[n];
      ArrowBuf data = vector.getDataBuffer();
      for (int i = 0; i < n; i++) {
        values[i] = data.getShort(2L * i);
      }
      return new ShortArrayBlock(n, nulls, values);
    }
    if (vector instanceof TinyIntVector) {
      byte[] values = new byte[n];
      vector.getDataBuffer().getBytes(0, values, 0, n);
      return new ByteArrayBlock(n, nulls, values);
    }
    if (vector instanceof BitVector bits) {
      byte[] values = new byte[n];
      for (int i = 0; i < n; i++) {
        values[i] = (byte) (bits.isNull(i) ? 0 : bits.get(i));
      }
      return new ByteArrayBlock(n, nulls, values);
    }
    if (vector instanceof DecimalVector) {
      // Arrow stores a decimal as 16 little-endian bytes: low word first.
      ArrowBuf data = vector.getDataBuffer();
      if (((DecimalType) type).isShort()) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
          values[i] = data.getLong(16L * i);
        }
        return new LongArrayBlock(n, nulls, values);
      }
      long[] values = new long[2 * n];
      for (int i = 0; i < n; i++) {
        values[2 * i] = data.getLong(16L * i + 8);
        values[2 * i + 1] = data.getLong(16L * i);
      }
      return new Int128ArrayBlock(n, nulls, values);
    }
    if (vector instanceof BaseVariableWidthVector v) {
      int[] offsets = new int[n + 1];
      ArrowBuf offsetBuffer = v.getOffsetBuffer();
      for (int i = 0; i <= n; i++) {
        offsets[i] = offsetBuffer.getInt(4L * i);
      }
      int start = offsets[0];
      if (start != 0) {
        for (int i = 0; i <= n; i++) {
          offsets[i] -= start;
        }
      }
      byte[] bytes = new byte[offsets[n]];
      v.getDataBuffer().getBytes(start, bytes, 0, bytes.length);
      Slice slice = Slices.wrappedBuffer(bytes);
      return new VariableWidthBlock(n, slice, offsets, nulls);
    }
    throw new IllegalStateException(
        "no Trino block for Arrow vector " + vector.getClass().getSimpleName());
  }

  private static long[] longs(ArrowBuf data, int n) {
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = data.getLong(8L * i);
    }
    return values;
  }

  private static Optional<boolean[]> nulls(FieldVector vector, int n) {
    if (vector.getNullCount() == 0) {
      return Optional.empty();
    }
    boolean[] nulls = new boolean[n];
    for (int i = 0; i < n; i++) {
      nulls[i] = vector.isNull(i);
    }
    return Optional.of(nulls);
  }
}
