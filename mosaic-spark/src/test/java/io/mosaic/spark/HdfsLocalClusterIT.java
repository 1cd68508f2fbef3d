package io.mosaic.spark;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executors in separate JVMs ({@code local-cluster[2,1,1024]}) on a pool whose devices are HDFS
 * directories with the policies ALL_SSD, HOT and COLD (docs/spark.md, "Devices on HDFS"): both
 * executors write and read the same table, Spark jobs and a core writer append to it concurrently,
 * and the TPC-H queries ({@link ClusterTpch#queries}) answer on HDFS what they answer on local
 * files: what Spark answers over the same rows as Parquet, kept by {@link TpchQueriesTest} earlier
 * in the build ({@link TpchReference}), or, when this class runs alone, what they answer on a local
 * Mosaic device. The executors reach HDFS with the driver's {@code spark.hadoop.*} settings,
 * shipped in each partition's options.
 *
 * <p>The TPC-H scale is SF 0.01 for CI; {@code -Dmosaic.tpch.hdfs.scale=0.1} runs SF 0.1, the
 * acceptance scale of docs/distributed-storage.md. Launching executors is as in {@link
 * LocalClusterIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HdfsLocalClusterIT {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  private static final double SCALE =
      Double.parseDouble(System.getProperty("mosaic.tpch.hdfs.scale", "0.01"));

  @TempDir static Path dir;
  private SparkSession spark;
  private Path devices;
  private final long started = System.nanoTime();

  /** Where the tables' metadata lives: on HDFS, where every executor reaches it. */
  private static String tableRoot() {
    return HDFS.uri() + "spark-cluster/tables";
  }

  private static Path writePool() throws Exception {
    Files.createDirectories(dir.resolve("pool/nvme"));
    return Files.writeString(
        dir.resolve("devices.toml"), SparkTestTables.NVME + HDFS.policyDevicesToml());
  }

  @BeforeAll
  void start() throws Exception {
    devices = writePool();
    SparkSession.Builder builder =
        LocalClusterIT.localCluster("mosaic-hdfs-local-cluster", devices)
            // All of a worker's 1024 MB: with 512 MB, Spark's execution memory ((512 - 300) * 0.6
            // MB) is too small for TPC-H's joins at SF 0.1.
            .config("spark.executor.memory", "1g");
    // The cluster's client settings (MiniHdfs): one replica, small blocks, ...
    MiniHdfs.CLIENT_SETTINGS.forEach((k, v) -> builder.config("spark.hadoop." + k, v));
    spark = builder.getOrCreate();
    System.out.printf(
        Locale.ROOT,
        "HDFS up in %.1f s, Spark with 2 executors in %.1f s%n",
        HDFS.startTime().toMillis() / 1e3,
        (System.nanoTime() - started) / 1e9);
  }

  @AfterAll
  void stop() {
    if (spark != null) {
      spark.stop();
    }
    System.out.printf(
        Locale.ROOT, "HdfsLocalClusterIT: %.1f s%n", (System.nanoTime() - started) / 1e9);
  }

  private String table(String name) {
    return tableRoot() + "/" + name;
  }

  @Test
  void twoExecutorJvmsWriteAndReadTheSameTableOnHdfs() throws Exception {
    LocalClusterIT.assertTwoExecutorJvms(spark);

    Dataset<Row> orders = SparkTestTables.orders(spark).repartition(4).cache();
    String table = table("orders");
    Dataset<Row> early = orders.filter(col("o_orderdate").lt("1995-01-01"));
    Dataset<Row> late = orders.filter(col("o_orderdate").geq("1995-01-01"));
    early.write().format("mosaic").option("default_device", "hot").save(table);
    late.write().format("mosaic").mode("append").save(table);

    Dataset<Row> back = spark.read().format("mosaic").load(table);
    assertThat(sorted(back)).hasSize(15_000).isEqualTo(sorted(orders));
    MosaicTable written = MosaicTable.open(table, pool());
    assertThat(written.versions()).hasSize(3); // create, two appends
    assertThat(written.latest().segments())
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.device()).isEqualTo("hot"));
    assertBlocksOnTheirDevicesType();
  }

  private DevicePool pool() {
    return DevicePool.load(devices, HDFS.conf());
  }

  private static List<String> sorted(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void sparkJobsAndACoreWriterAppendConcurrently() throws Exception {
    String table = table("events");
    spark
        .range(0, 0)
        .selectExpr("id", "'none' AS who")
        .write()
        .format("mosaic")
        .option("default_device", "ssd")
        .save(table);
    int before = MosaicTable.open(table, pool()).versions().size();
    int rounds = 3;
    int rows = 2000;
    // Writer w appends ids [(w * rounds + r) * rows, + rows) in round r.
    ExecutorService writers = Executors.newFixedThreadPool(3);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int w = 0; w < 2; w++) {
        int writer = w;
        done.add(
            writers.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    long first = ((long) writer * rounds + r) * rows;
                    spark
                        .range(first, first + rows, 1, 2)
                        .selectExpr("id", "'spark" + writer + "' AS who")
                        .write()
                        .format("mosaic")
                        .mode("append")
                        .save(table);
                  }
                  return null;
                }));
      }
      done.add(writers.submit(() -> coreAppends(table, 2, rounds, rows)));
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      writers.shutdownNow();
    }
    long n = 3L * rounds * rows;
    assertThat(
            spark
                .read()
                .format("mosaic")
                .load(table)
                .selectExpr("count(*)", "count(DISTINCT id)", "sum(id)", "count(DISTINCT who)")
                .collectAsList()
                .get(0)
                .toString())
        .isEqualTo("[" + n + "," + n + "," + n * (n - 1) / 2 + ",3]");
    // One version per append, none lost to a concurrent commit.
    assertThat(MosaicTable.open(table, pool()).versions()).hasSize(before + 3 * rounds);
    assertBlocksOnTheirDevicesType();
  }

  /**
   * A third writer outside Spark, through the core library, as another engine would append (a Trino
   * cluster does not fit on this module's class path).
   */
  private Void coreAppends(String path, int writer, int rounds, int rows) throws Exception {
    MosaicTable table = MosaicTable.open(path, pool());
    try (BufferAllocator alloc = new RootAllocator()) {
      for (int r = 0; r < rounds; r++) {
        long first = ((long) writer * rounds + r) * rows;
        try (TableWriter w = table.newWriter();
            VectorSchemaRoot batch =
                VectorSchemaRoot.create(table.latest().schema().arrowSchema(), alloc)) {
          BigIntVector id = (BigIntVector) batch.getVector("id");
          VarCharVector who = (VarCharVector) batch.getVector("who");
          for (int i = 0; i < rows; i++) {
            id.setSafe(i, first + i);
            who.setSafe(i, "core".getBytes(StandardCharsets.UTF_8));
          }
          batch.setRowCount(rows);
          w.write(batch);
          table.append(List.of(w.finish()));
        }
      }
    }
    return null;
  }

  @Test
  void tpchQueriesOnHdfsAnswerAsOnLocalFiles() throws Exception {
    ClusterTpch tpch = new ClusterTpch(spark, SCALE, "hdfs", this::table);
    tpch.load(MiniHdfs::tpchDevice);
    tpch.assertAnswersAsOnLocalFiles();
  }

  /** Every block of every segment on an HDFS device lies on its policy's storage type. */
  private static void assertBlocksOnTheirDevicesType() throws Exception {
    for (var device : MiniHdfs.POLICY_DEVICES.entrySet()) {
      assertThat(HDFS.blockTypes("/mosaic/" + device.getKey()))
          .allSatisfy((file, types) -> assertThat(types).as(file).containsOnly(device.getValue()));
    }
  }
}
