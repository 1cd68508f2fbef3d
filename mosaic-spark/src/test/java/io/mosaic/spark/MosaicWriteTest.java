package io.mosaic.spark;

import static org.apache.spark.sql.functions.callUDF;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.spark_partition_id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code df.write.format("mosaic")}: every save mode, concurrent appends from two jobs, and a
 * failed job, on a local Spark.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicWriteTest {
  private Path dir;
  private SparkSession spark;
  private DevicePool pool;
  private Dataset<Row> orders;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    Path devices = SparkTestTables.devices(dir);
    pool = DevicePool.load(devices);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-writes")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices.toString())
            .getOrCreate();
    orders = SparkTestTables.orders(spark).cache();
    // Fails the task of partition 2 (the other tasks write their segments first).
    spark
        .udf()
        .register(
            "fail_in_partition_2",
            (UDF2<Long, Integer, Long>)
                (key, partition) -> {
                  if (partition == 2) {
                    throw new IllegalStateException("task of partition 2 fails on purpose");
                  }
                  return key;
                },
            DataTypes.LongType);
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private String table(String name) {
    return dir.resolve("pool/nvme").resolve(name).toString();
  }

  private Dataset<Row> read(String name) {
    return spark.read().format("mosaic").load(table(name));
  }

  private List<Long> versions(String name) {
    return MosaicTable.open(Path.of(table(name)), pool).versions();
  }

  /** The same rows, duplicates counted (compared on the driver: the tables are small). */
  private static void assertSameRows(Dataset<Row> actual, Dataset<Row> expected) {
    assertThat(sorted(actual)).isEqualTo(sorted(expected));
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void errorIfExistsIsTheDefaultAndNamesThePathAndTheFix() {
    Dataset<Row> first = orders.filter(col("o_orderkey").lt(1000));
    first.write().format("mosaic").save(table("modes")); // a new table: written
    assertSameRows(read("modes"), first);
    List<Long> before = versions("modes");

    assertThatThrownBy(() -> orders.write().format("mosaic").save(table("modes")))
        .hasMessageContaining("a Mosaic table already exists at " + table("modes"))
        .hasMessageContaining("errorifexists")
        .hasMessageContaining(".mode(\"append\")")
        .hasMessageContaining(".mode(\"overwrite\")");
    assertThatThrownBy(
            () -> orders.write().format("mosaic").mode("errorifexists").save(table("modes")))
        .hasMessageContaining("a Mosaic table already exists at " + table("modes"));
    assertThat(versions("modes")).isEqualTo(before);
    assertSameRows(read("modes"), first);
  }

  @Test
  void ignoreLeavesAnExistingTableAsItIsAndCreatesAMissingOne() {
    Dataset<Row> first = orders.filter(col("o_orderkey").lt(1000));
    first.write().format("mosaic").mode("ignore").save(table("ignored")); // missing: created
    assertSameRows(read("ignored"), first);
    List<Long> before = versions("ignored");

    orders.write().format("mosaic").mode("ignore").save(table("ignored"));
    assertThat(versions("ignored")).isEqualTo(before);
    assertSameRows(read("ignored"), first);
  }

  @Test
  void appendAddsRowsAndOverwriteReplacesThem() {
    Dataset<Row> a = orders.filter(col("o_orderkey").lt(20_000));
    Dataset<Row> b = orders.filter(col("o_orderkey").geq(20_000));
    a.write().format("mosaic").mode("append").save(table("appended")); // creates
    b.write().format("mosaic").mode("append").save(table("appended"));
    assertSameRows(read("appended"), a.unionAll(b));
    // Appending the same rows again keeps both copies (no deduplication).
    a.write().format("mosaic").mode("append").save(table("appended"));
    assertSameRows(read("appended"), a.unionAll(b).unionAll(a));

    b.write().format("mosaic").mode("overwrite").save(table("appended"));
    assertSameRows(read("appended"), b);
    assertThat(read("appended").schema()).isEqualTo(SparkTestTables.ORDERS);
    // Overwrite of a missing table creates it.
    b.write().format("mosaic").mode("overwrite").save(table("overwritten"));
    assertSameRows(read("overwritten"), b);

    // Rows of another shape are refused, and the table keeps its rows.
    List<Long> before = versions("appended");
    assertThatThrownBy(
            () ->
                b.select("o_orderkey", "o_comment")
                    .write()
                    .format("mosaic")
                    .mode("append")
                    .save(table("appended")))
        .hasMessageContaining("o_custkey");
    assertThat(versions("appended")).isEqualTo(before);
  }

  @Test
  void concurrentAppendsFromTwoJobsAllLand() throws Exception {
    orders.limit(10).write().format("mosaic").save(table("concurrent"));
    Dataset<Row> seed = read("concurrent").cache();
    long seedVersions = versions("concurrent").size();
    List<Dataset<Row>> slices =
        List.of(
            orders.filter(col("o_orderkey").mod(2).equalTo(0)),
            orders.filter(col("o_orderkey").mod(2).equalTo(1)));
    int rounds = 2;
    CyclicBarrier start = new CyclicBarrier(slices.size());
    ExecutorService jobs = Executors.newFixedThreadPool(slices.size());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (Dataset<Row> slice : slices) {
        done.add(
            jobs.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    start.await();
                    slice.write().format("mosaic").mode("append").save(table("concurrent"));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      jobs.shutdownNow();
    }
    Dataset<Row> expected = seed;
    for (int r = 0; r < rounds; r++) {
      expected = expected.unionAll(orders);
    }
    assertSameRows(read("concurrent"), expected);
    // One version per job: no commit was lost or merged away.
    assertThat(versions("concurrent")).hasSize((int) seedVersions + rounds * slices.size());
  }

  @Test
  void aFailedJobLeavesNoPartialVersion() throws IOException {
    orders.limit(10).write().format("mosaic").save(table("failing"));
    List<Long> before = versions("failing");
    String tableId = MosaicTable.open(Path.of(table("failing")), pool).latest().tableId();
    long filesBefore = segmentFiles(tableId);

    Dataset<Row> failing =
        orders.withColumn(
            "o_orderkey", callUDF("fail_in_partition_2", col("o_orderkey"), spark_partition_id()));
    assertThatThrownBy(() -> failing.write().format("mosaic").mode("append").save(table("failing")))
        .hasStackTraceContaining("task of partition 2 fails on purpose");

    assertThat(versions("failing")).isEqualTo(before);
    assertThat(read("failing").count()).isEqualTo(10);
    // The tasks that finished did write segments; no version references them (gc removes them).
    assertThat(segmentFiles(tableId)).isGreaterThan(filesBefore);
  }

  private long segmentFiles(String tableId) throws IOException {
    long n = 0;
    for (String device : List.of("nvme", "hdd")) {
      Path root = dir.resolve("pool").resolve(device).resolve(tableId);
      if (Files.isDirectory(root)) {
        try (Stream<Path> files = Files.walk(root)) {
          n += files.filter(p -> p.toString().endsWith(".parquet")).count();
        }
      }
    }
    return n;
  }
}
