package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.MosaicException.Kind;
import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * One failure of each kind, provoked for real through Spark SQL, reaches the user as {@link
 * SparkErrors} says: a missing table as Spark's {@link NoSuchTableException}, every other kind as
 * the {@link MosaicException} with its kind (thrown as is on the driver, the cause of the failed
 * job on an executor). Besides {@code mosaic}, two catalogs see the same warehouse and devices
 * under other settings: {@code cramped}, whose devices hold 1 kB each, and {@code sluggish}, whose
 * nvme reads at 60 kB/s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkErrorsTest {
  private Path dir;
  private SparkSession spark;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    Path devices = SparkTestTables.devices(dir);
    SparkTestTables.deviceModel(DevicePool.load(devices));
    String toml = Files.readString(devices);
    Path cramped = dir.resolve("cramped.toml");
    Files.writeString(cramped, toml.replace("capacity = \"10 GB\"", "capacity = \"1 kB\""));
    Path sluggish = dir.resolve("sluggish.toml");
    Files.writeString(sluggish, toml.replace("read = \"2 GB/s\"", "read = \"300 kB/s\""));
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-errors")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2");
    for (var catalog :
        List.of(
            List.of("mosaic", devices.toString()),
            List.of("cramped", cramped.toString()),
            List.of("sluggish", sluggish.toString()))) {
      String name = catalog.get(0);
      builder
          .config("spark.sql.catalog." + name, MosaicCatalog.class.getName())
          .config("spark.sql.catalog." + name + ".devices", catalog.get(1))
          .config("spark.sql.catalog." + name + ".warehouse", dir.resolve("warehouse").toString());
    }
    spark = builder.getOrCreate();
    TpchSpark.dataFrame(spark, "orders", 0.01, 2).cache().createOrReplaceTempView("orders_src");
    spark.sql("CREATE NAMESPACE mosaic.tpch");
    spark.sql("CREATE TABLE mosaic.tpch.orders AS SELECT * FROM orders_src");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private void sql(String sql) {
    spark.sql(sql).collectAsList();
  }

  /** The MosaicException in {@code t}'s cause chain (Spark wraps an executor's failure). */
  private static MosaicException mosaic(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof MosaicException m) {
        return m;
      }
    }
    throw new AssertionError("no MosaicException in " + t, t);
  }

  private static void assertFails(Runnable action, Kind kind, String message) {
    assertThatThrownBy(action::run)
        .satisfies(
            e -> {
              MosaicException m = mosaic(e);
              assertThat(m.kind()).isEqualTo(kind);
              assertThat(m).hasMessageContaining(message);
            });
  }

  @Test
  void invalidArgument() {
    assertFails(
        () -> sql("CALL mosaic.system.move_columns('tpch.orders', 'o_comment')"),
        Kind.INVALID_ARGUMENT,
        "CALL mosaic.system.move_columns: placement entry 'o_comment' must be COLUMN=DEVICE");
  }

  @Test
  void notFound() {
    assertFails(
        () -> sql("CALL mosaic.system.move_columns('tpch.orders', 'nope=hdd')"),
        Kind.NOT_FOUND,
        "unknown column 'nope'");
    assertFails(
        () -> sql("CALL mosaic.system.move_columns('tpch.orders', 'o_comment=ssd')"),
        Kind.NOT_FOUND,
        "unknown device 'ssd'");
    assertThatThrownBy(() -> sql("SELECT * FROM mosaic.tpch.nope"))
        .isInstanceOf(org.apache.spark.sql.AnalysisException.class)
        .hasMessageContaining("TABLE_OR_VIEW_NOT_FOUND");
  }

  @Test
  void corrupt() throws IOException {
    sql("CREATE TABLE mosaic.tpch.damaged AS SELECT * FROM orders_src LIMIT 10");
    Path manifests = dir.resolve("warehouse/tpch/damaged").resolve(MosaicTable.MANIFESTS);
    Path latest;
    try (Stream<Path> files = Files.list(manifests)) {
      latest = files.filter(f -> f.toString().endsWith(".json")).sorted().reduce((a, b) -> b).get();
    }
    Files.writeString(latest, "{\"not\": \"a manifest\"");
    assertFails(
        () -> sql("SELECT * FROM mosaic.tpch.damaged"),
        Kind.CORRUPT,
        latest.getFileName().toString());
  }

  /**
   * Two moves of one column at once, each copying for seconds from the slow-reading device: both
   * plan from the same version, the first to commit wins, the second refuses to commit.
   */
  @Test
  void conflict() throws Exception {
    sql("CREATE TABLE mosaic.tpch.contested AS SELECT o_orderkey, o_comment FROM orders_src");
    String call = "CALL sluggish.system.move_columns('tpch.contested', 'o_comment=hdd')";
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Throwable>> calls = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        calls.add(
            threads.submit(
                () -> {
                  start.await();
                  try {
                    sql(call);
                    return null;
                  } catch (RuntimeException e) {
                    return e;
                  }
                }));
      }
      start.countDown();
      List<Throwable> failures = new ArrayList<>();
      for (Future<Throwable> f : calls) {
        Throwable t = f.get();
        if (t != null) {
          failures.add(t);
        }
      }
      assertThat(failures).as("exactly one of the two moves loses").hasSize(1);
      assertThat(mosaic(failures.get(0)).kind()).isEqualTo(Kind.CONFLICT);
      assertThat(failures.get(0)).hasMessageContaining("changed during migration");
    } finally {
      threads.shutdownNow();
    }
  }

  /** The write runs on an executor: the job fails with the device's failure as its cause. */
  @Test
  void deviceFull() {
    sql("CREATE NAMESPACE IF NOT EXISTS cramped.tpch");
    assertFails(
        () -> sql("CREATE TABLE cramped.tpch.big AS SELECT * FROM orders_src"),
        Kind.DEVICE_FULL,
        "device 'nvme'");
  }

  /** The scanned columns fit on no device of 1 kB: no placement exists. */
  @Test
  void infeasible() {
    sql("SELECT count(*), max(o_comment) FROM mosaic.tpch.orders WHERE o_totalprice > 10");
    assertFails(
        () -> sql("CALL cramped.system.place(table => 'tpch.orders')"), Kind.INFEASIBLE, "CALL");
  }

  @Test
  void unsupported() {
    assertFails(
        () -> sql("CREATE TABLE mosaic.tpch.lists (xs array<int>)"),
        Kind.UNSUPPORTED,
        "which Mosaic cannot store");
  }

  /** The directory a moved column's segments must go to is a file: the file system refuses. */
  @Test
  void io() throws IOException {
    sql("CREATE TABLE mosaic.tpch.blocked AS SELECT o_orderkey FROM orders_src LIMIT 10");
    MosaicTable table =
        MosaicTable.open(
            dir.resolve("warehouse/tpch/blocked"), DevicePool.load(dir.resolve("devices.toml")));
    Path target = dir.resolve("pool/hdd").resolve(table.latest().tableId());
    Files.createDirectories(target.getParent());
    Files.writeString(target, "not a directory");
    assertFails(
        () -> sql("CALL mosaic.system.move_columns('tpch.blocked', 'o_orderkey=hdd')"),
        Kind.IO,
        "CALL mosaic.system.move_columns");
  }
}
