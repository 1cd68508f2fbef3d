package io.mosaic.spark;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executors in separate JVMs ({@code local-cluster[2,1,1024]}): two executors write, append to and
 * read the same table, whose devices are paths every executor sees. Spark's standalone workers
 * launch executors from {@code $SPARK_HOME}: failsafe points SPARK_HOME at an empty distribution
 * (only a {@code jars} directory) and the executors get this JVM's class path as their extra class
 * path, the way a cluster would get Spark's jars plus the shaded jar.
 */
class LocalClusterIT {
  @TempDir Path dir;

  @Test
  void twoExecutorJvmsWriteAndReadTheSameTable() throws IOException {
    Path devices = SparkTestTables.devices(dir);
    SparkSession spark = localCluster("mosaic-local-cluster", devices).getOrCreate();
    try {
      assertTwoExecutorJvms(spark);

      Dataset<Row> orders = SparkTestTables.orders(spark).repartition(4).cache();
      String table = dir.resolve("pool/nvme/orders").toString();
      Dataset<Row> early = orders.filter(col("o_orderdate").lt("1995-01-01"));
      Dataset<Row> late = orders.filter(col("o_orderdate").geq("1995-01-01"));
      early.write().format("mosaic").save(table);
      late.write().format("mosaic").mode("append").save(table);

      // Read back by the executors, compared on the driver (the table is small).
      Dataset<Row> back = spark.read().format("mosaic").load(table);
      assertThat(sorted(back)).hasSize(15_000).isEqualTo(sorted(orders));
      assertThat(back.filter(col("o_orderdate").lt("1995-01-01")).count())
          .isEqualTo(early.count())
          .isPositive();
      // Tasks of both executors wrote segments, committed once per job by the driver.
      MosaicTable written = MosaicTable.open(Path.of(table), DevicePool.load(devices));
      assertThat(written.versions()).hasSize(3); // create, two appends
      assertThat(written.latest().rowCount()).isEqualTo(15_000);
    } finally {
      spark.stop();
    }
  }

  /**
   * A session on {@code local-cluster[2,1,1024]} over the pool {@code devices}: two executor JVMs
   * launched from failsafe's empty SPARK_HOME, with this JVM's class path.
   */
  static SparkSession.Builder localCluster(String appName, Path devices) throws IOException {
    Path sparkHome = Path.of(System.getenv("SPARK_HOME"));
    Files.createDirectories(sparkHome.resolve("jars"));
    String classPath =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(e -> !e.contains("surefire") && !e.contains("failsafe"))
            .collect(Collectors.joining(File.pathSeparator));
    return SparkSession.builder()
        .master("local-cluster[2,1,1024]")
        .appName(appName)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.executor.memory", "512m")
        .config("spark.executor.extraClassPath", classPath)
        .config("spark.executor.extraJavaOptions", System.getProperty("mosaic.child.jvm.flags"))
        .config("spark.mosaic.devices", devices.toString());
  }

  /** Tasks ran in two executor JVMs, neither of them the driver's. */
  static void assertTwoExecutorJvms(SparkSession spark) {
    long driver = ProcessHandle.current().pid();
    List<Long> pids =
        spark
            .range(0, 8, 1, 8)
            .mapPartitions(
                (MapPartitionsFunction<Long, Long>)
                    rows -> List.of(ProcessHandle.current().pid()).iterator(),
                Encoders.LONG())
            .distinct()
            .collectAsList();
    assertThat(pids).as("executor JVMs").hasSize(2).doesNotContain(driver);
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }
}
