package io.mosaic.table;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.Migrator;
import io.mosaic.storage.LocalStorage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The writer and migration process that {@link CrashSafetyTest} and {@link LockFreeCrashTest} kill:
 * three appends (each its own task and commit), a migration of a row range of one column (splitting
 * its segments) and of every other column to another device and codec, and one more append. Run
 * with {@code -Dmosaic.crash.at=N} it stops at its N-th crash point.
 */
public final class CrashWorkload {
  public static final TableSchema SCHEMA =
      TpchBatches.schema("k int64", "v double", "s string", "d decimal(12,2)");
  static final int BATCHES = 4;
  public static final int ROWS = 3000;

  static final String LOCK_FREE = "lockfree:";
  static final String STARTED = "STARTED";

  private CrashWorkload() {}

  /**
   * The version log of a lock-free table kept in local directory {@code dir}, on {@code clock} (the
   * checks age it past every retention).
   */
  static VersionLog lockFreeLog(Path dir, Clock clock) throws IOException {
    return new VersionLog(
        new LocalStorage(Files.createDirectories(dir)), "", "t", Retention.defaults(), clock);
  }

  /** Batch {@code b}: deterministic rows, so any committed prefix can be checked. */
  static void fill(VectorSchemaRoot root, int b) {
    root.allocateNew();
    for (int i = 0; i < ROWS; i++) {
      long k = b * 100_000L + i;
      ((BigIntVector) root.getVector(0)).setSafe(i, k);
      ((Float8Vector) root.getVector(1)).setSafe(i, k / 7.0);
      ((VarCharVector) root.getVector(2)).setSafe(i, ("row " + k).getBytes(StandardCharsets.UTF_8));
      ((DecimalVector) root.getVector(3)).setSafe(i, BigDecimal.valueOf(k * 3, 2));
    }
    root.setRowCount(ROWS);
  }

  /** A table of this workload's schema at {@code root} holding batches {@code 0 .. batches-1}. */
  public static MosaicTable table(Path root, DevicePool pool, int batches) throws IOException {
    MosaicTable table = MosaicTable.create(root, pool, SCHEMA, properties());
    for (int b = 0; b < batches; b++) {
      append(table, b);
    }
    return table;
  }

  /** Appends batch {@code b} with one writer and one commit. */
  public static Manifest append(MosaicTable table, int b) throws IOException {
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
      fill(batch, b);
      writer.write(batch);
      return table.append(List.of(writer.finish()));
    }
  }

  /** The rows of the given batches, as {@link TableRoundTripTest#values} gives them. */
  public static List<List<Object>> rows(int... ids) {
    List<List<Object>> rows = new java.util.ArrayList<>();
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
      for (int b : ids) {
        fill(root, b);
        rows.addAll(TableRoundTripTest.values(root));
      }
    }
    return rows;
  }

  static Map<String, String> properties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, "2000");
    for (int c = 0; c < SCHEMA.columns().size(); c++) {
      props.put("column." + SCHEMA.columns().get(c).name() + ".device", TestPool.IDS[c]);
    }
    return props;
  }

  public static void main(String[] args) throws Exception {
    DevicePool pool = DevicePool.load(Path.of(args[0]), ChildJvm.hadoopConf());
    // "lockfree:<dir>" opens a table on local files with the lock-free protocol (docs/format.md
    // "Commits without POSIX locks"); a path is a table with POSIX locks, an hdfs:// URI one on
    // HDFS.
    MosaicTable table =
        args[1].startsWith(LOCK_FREE)
            ? MosaicTable.open(
                lockFreeLog(Path.of(args[1].substring(LOCK_FREE.length())), Clock.systemUTC()),
                pool)
            : MosaicTable.open(args[1], pool);
    // Random kills count their moment from here, past the JVM's start (CrashKills).
    System.out.println(STARTED);
    System.out.flush();
    try (BufferAllocator alloc = new RootAllocator()) {
      for (int b = 0; b < BATCHES; b++) {
        if (b == BATCHES - 1) {
          // Row groups [1,3) of k (crossing two segments, issue 26) move alone, splitting both;
          // every other column moves whole.
          Migrator migrator = new Migrator(table);
          migrator.apply(
              migrator.planRanges(List.of(new Migrator.RangeTarget("k", 1, 3, TestPool.IDS[1]))),
              new Migrator.Listener() {});
          Map<String, String> placement = new LinkedHashMap<>();
          for (int c = 1; c < SCHEMA.columns().size(); c++) {
            placement.put(SCHEMA.columns().get(c).name(), TestPool.IDS[(c + 1) % 4]);
          }
          migrator.apply(migrator.plan(placement), new Migrator.Listener() {});
        }
        try (TableWriter writer = table.newWriter();
            VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
          fill(batch, b);
          writer.write(batch);
          table.append(List.of(writer.finish()));
        }
      }
    }
    System.out.println("DONE " + CrashPoints.count());
  }
}
