package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark over tables on emulated cold devices (docs/cold-storage.md): TPC-H queries over a device
 * without a scheduler (the naive path) and over one with the rank scheduler, alone and from two
 * concurrent clients, on the ordered path (sharing normal: row groups taken in the order the device
 * serves them) and on shared reads (relevance), return what Spark returns over Parquet.
 */
class SparkColdTest {
  private static final List<Integer> QUERIES = List.of(1, 3, 6, 12, 14);
  private static final List<String> TABLES = List.of("customer", "orders", "lineitem", "part");

  @TempDir Path dir;

  @Test
  void queriesOverColdDevicesMatchParquetUnderEveryPathAndConcurrently() throws Exception {
    Files.createDirectories(dir.resolve("pool/ssd"));
    Path devices = dir.resolve("devices.toml");
    String cold = "cold = { groups = 4, switch = \"20 ms\", read = \"400 MB/s\", policy = \"%s\" }";
    Files.writeString(
        devices,
        """
        [[device]]
        id = "ssd"
        path = "pool/ssd"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "60 ct"
        metadata = true

        [[device]]
        id = "naive"
        path = "pool/naive"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        %s

        [[device]]
        id = "sched"
        path = "pool/sched"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        %s
        """
            .formatted(cold.formatted("none"), cold.formatted("rank")));
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-cold")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices.toString())
            .getOrCreate();
    try {
      for (String table : TABLES) {
        // Four parts: each written by its own task, so a column's segments lie in several groups.
        Dataset<Row> df = TpchSpark.dataFrame(spark, table, 0.01, 4);
        df.write().parquet(path("parquet", table));
        for (String device : List.of("naive", "sched")) {
          df.write()
              .format("mosaic")
              .option("default_device", device)
              .option("row_group_rows", "2000")
              .mode("append")
              .save(path(device, table));
        }
      }
      DevicePool pool = DevicePool.load(devices);
      long schedBefore = pool.device("sched").groupSwitches();
      for (int q : QUERIES) {
        List<Row> expected = run(spark, q, "parquet", null);
        assertThat(expected).as("q%d has rows", q).isNotEmpty();
        for (String sharing : List.of("normal", "relevance")) {
          assertThat(run(spark, q, "naive", sharing))
              .as("q%d naive %s", q, sharing)
              .isEqualTo(expected);
          assertThat(run(spark, q, "sched", sharing))
              .as("q%d rank %s", q, sharing)
              .isEqualTo(expected);
        }
      }
      assertThat(pool.device("sched").groupSwitches() - schedBefore)
          .as("the scheduled device was read")
          .isPositive();
      // Two clients at once over the scheduled device, each running the five queries.
      ExecutorService clients = Executors.newFixedThreadPool(2);
      try {
        List<Future<List<List<Row>>>> results = new ArrayList<>();
        for (int client = 0; client < 2; client++) {
          String sharing = client == 0 ? "normal" : "relevance";
          results.add(
              clients.submit(
                  () -> {
                    List<List<Row>> answers = new ArrayList<>();
                    for (int q : QUERIES) {
                      answers.add(run(spark, q, "sched", sharing));
                    }
                    return answers;
                  }));
        }
        for (Future<List<List<Row>>> f : results) {
          List<List<Row>> answers = f.get();
          for (int i = 0; i < QUERIES.size(); i++) {
            assertThat(answers.get(i))
                .as("q%d from a concurrent client", QUERIES.get(i))
                .isEqualTo(run(spark, QUERIES.get(i), "parquet", null));
          }
        }
      } finally {
        clients.shutdownNow();
      }
    } finally {
      spark.stop();
    }
  }

  private String path(String format, String table) {
    return dir.resolve(format).resolve(table).toString();
  }

  /** Runs TPC-H query {@code q} over the tables of {@code format}; views are per session. */
  private List<Row> run(SparkSession parent, int q, String format, String sharing) {
    SparkSession spark = parent.newSession();
    for (String table : TABLES) {
      Dataset<Row> df =
          format.equals("parquet")
              ? spark.read().parquet(path("parquet", table))
              : spark
                  .read()
                  .format("mosaic")
                  .option("sharing_policy", sharing)
                  .load(path(format, table));
      df.createOrReplaceTempView(table);
    }
    List<Row> result = null;
    for (String s : TpchSpark.statements(q)) {
      result = spark.sql(s).collectAsList();
    }
    return result;
  }
}
