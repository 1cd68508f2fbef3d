package io.mosaic.bench;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Cost;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableSchema;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.ColumnSize;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The retriever on emulated devices (docs/benchmarks.md, "Scan retriever on emulated devices"),
 * each run side by side in one JVM:
 *
 * <ol>
 *   <li>one column on one device throttled at {@code X} MB/s: delivered throughput (bytes off the
 *       device per second of scan) as a share of {@code X};
 *   <li>four columns on four devices throttled in the ratio of the paper's Table 1 (2100 : 410 :
 *       320 : 230, scaled by 1/10): measured scan time against the prediction of Eq. 3, computed by
 *       Mosaic's own cost model from the segments' real sizes.
 * </ol>
 *
 * Columns hold seeded random longs in codec {@code none}, so bytes on the device are what the model
 * counts. Run: {@code benchmarks/bench RetrieverBenchmark [WORK_DIR]}.
 */
public final class RetrieverBenchmark {
  private static final int RUNS = 3;

  private RetrieverBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path work =
        args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("mosaic-retriever-bench");
    singleColumn(work.resolve("single"), 100);
    singleColumn(work.resolve("single400"), 400);
    fourDevices(work.resolve("four"));
  }

  /** Devices {@code ids} under {@code dir}, codec none, each throttled at its rate (0: not). */
  static DevicePool pool(Path dir, String[] ids, int[] mbps, int[] threads) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < ids.length; i++) {
      Files.createDirectories(dir.resolve(ids[i]));
      sb.append("[[device]]\nid = \"")
          .append(ids[i])
          .append("\"\npath = \"")
          .append(ids[i])
          .append("\"\ncapacity = \"100 GB\"\nthreads = ")
          .append(threads[i])
          .append("\ncodec = \"none\"\ncost_per_gb = \"1 ct\"\n")
          .append(mbps[i] > 0 ? "emulate = { read = \"" + mbps[i] + " MB/s\" }\n" : "")
          .append('\n');
    }
    Files.writeString(dir.resolve("devices.toml"), sb);
    return DevicePool.load(dir.resolve("devices.toml"));
  }

  /** A table of {@code devices.length} seeded random long columns, column i on device i. */
  static MosaicTable table(Path dir, DevicePool pool, String[] devices, long rows)
      throws IOException {
    List<ColumnSpec> specs = new ArrayList<>();
    Map<String, String> props = new HashMap<>();
    for (int i = 0; i < devices.length; i++) {
      specs.add(new ColumnSpec("c" + i, ColumnType.of(ColumnType.Kind.INT64), false));
      props.put("column.c" + i + ".device", devices[i]);
    }
    TableSchema schema = new TableSchema(specs);
    MosaicTable table = MosaicTable.create(dir.resolve("t"), pool, schema, props);
    SplittableRandom random = new SplittableRandom(42);
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      for (long done = 0; done < rows; done += 65_536) {
        int n = (int) Math.min(65_536, rows - done);
        batch.allocateNew();
        for (int c = 0; c < devices.length; c++) {
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
    return table;
  }

  /** Scans all columns once; returns {elapsed seconds, bytes read}. */
  private static double[] scan(Retriever retriever, MosaicTable table, List<String> columns) {
    long start = System.nanoTime();
    try (Scan scan = retriever.scan(table, ScanRequest.of(columns))) {
      while (scan.hasNext()) {
        scan.next();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long bytes = scan.stats().bytesPerDevice().values().stream().mapToLong(Long::longValue).sum();
      return new double[] {seconds, bytes};
    }
  }

  private static void singleColumn(Path dir, int mbps) throws IOException {
    DevicePool pool = pool(dir, new String[] {"d"}, new int[] {mbps}, new int[] {2});
    MosaicTable table = table(dir, pool, new String[] {"d"}, 24L << 20);
    try (Retriever retriever = new Retriever(pool)) {
      System.out.printf(
          Locale.ROOT,
          "%n1 column on 1 device at %d MB/s (%d MB):%n",
          mbps,
          table.latest().segments().get(0).fileBytes() / 1_000_000);
      scan(retriever, table, List.of("c0")); // warm-up: JIT-compiles the read and decode paths
      for (int run = 1; run <= RUNS; run++) {
        double[] r = scan(retriever, table, List.of("c0"));
        double delivered = r[1] / 1e6 / r[0];
        System.out.printf(
            Locale.ROOT,
            "  run %d: %.2f s, delivered %.1f MB/s = %.1f%% of the throttle%n",
            run,
            r[0],
            delivered,
            100 * delivered / mbps);
      }
    }
  }

  private static void fourDevices(Path dir) throws IOException {
    String[] ids = {"nvme", "ssd", "raid5", "hdd"};
    int[] mbps = {210, 41, 32, 23};
    DevicePool pool = pool(dir, ids, mbps, new int[] {4, 2, 2, 1});
    MosaicTable table = table(dir, pool, ids, 4L << 20);
    Manifest m = table.latest();
    // Eq. 2-3 from the segments' real sizes: each device reads its column at its throttle.
    List<DeviceProfile> devices = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      Device d = pool.device(ids[i]);
      Bandwidth rate = d.spec().emulation().orElseThrow().read();
      devices.add(
          new DeviceProfile(
              ids[i],
              Codec.NONE,
              d.spec().emulation().orElseThrow().seek(),
              rate,
              rate,
              1.0,
              d.spec().capacity().bytes(),
              Cost.ofCents(1)));
    }
    List<ColumnSize> sizes = new ArrayList<>();
    Map<ColumnRef, String> placement = new HashMap<>();
    List<ColumnRef> refs = new ArrayList<>();
    for (int i = 0; i < ids.length; i++) {
      ColumnRef ref = new ColumnRef("t", "c" + i);
      long stored = m.segmentsOf("c" + i).stream().mapToLong(s -> s.compressedBytes()).sum();
      sizes.add(new ColumnSize(ref, stored, Map.of(Codec.NONE, stored)));
      placement.put(ref, ids[i]);
      refs.add(ref);
    }
    CostModel model = CostModel.of(devices, sizes);
    double predicted =
        model
            .predict(
                Workload.merging(List.of(DistinctScan.of(1, refs.toArray(new ColumnRef[0])))),
                new Placement(placement))
            .totalSeconds();
    try (Retriever retriever = new Retriever(pool)) {
      System.out.printf(
          Locale.ROOT,
          "%n4 columns (%d MB each) on 4 devices at 210 : 41 : 32 : 23 MB/s; Eq. 3 predicts %.2f s:%n",
          sizes.get(0).bytes() / 1_000_000,
          predicted);
      scan(retriever, table, List.of("c0", "c1", "c2", "c3")); // warm-up
      for (int run = 1; run <= RUNS; run++) {
        double[] r = scan(retriever, table, List.of("c0", "c1", "c2", "c3"));
        System.out.printf(
            Locale.ROOT,
            "  run %d: measured %.2f s = %.1f%% of the prediction (%+.1f%%)%n",
            run,
            r[0],
            100 * r[0] / predicted,
            100 * (r[0] - predicted) / predicted);
      }
    }
  }
}
