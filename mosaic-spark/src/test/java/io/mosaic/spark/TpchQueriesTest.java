package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 22 TPC-H queries (the texts shipped in io.trino.tpch) over Mosaic tables return exactly what
 * Spark returns over the same data written as Parquet. Those answers are kept for {@link
 * HdfsLocalClusterIT} ({@link TpchReference}).
 */
class TpchQueriesTest {
  private static final double SCALE = 0.01;

  @TempDir Path dir;

  @Test
  void the22QueriesMatchSparkOverParquet() throws IOException {
    Files.createDirectories(dir.resolve("pool/ssd"));
    Files.createDirectories(dir.resolve("pool/hdd"));
    Path devices = dir.resolve("devices.toml");
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
        id = "hdd"
        path = "pool/hdd"
        capacity = "10 GB"
        threads = 1
        codec = "lz4"
        cost_per_gb = "30 ct"
        """);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-tpch")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices.toString())
            .getOrCreate();
    try {
      for (TpchTable<?> table : TpchTable.getTables()) {
        Dataset<Row> df = TpchSpark.dataFrame(spark, table.getTableName(), SCALE, 2);
        df.write().parquet(dir.resolve("parquet").resolve(table.getTableName()).toString());
        df.write()
            .format("mosaic")
            .mode("append")
            .save(dir.resolve("mosaic").resolve(table.getTableName()).toString());
      }
      int checked = 0;
      int withRows = 0;
      TpchReference.clear(SCALE);
      for (int q = 1; q <= 22; q++) {
        List<String> statements = TpchSpark.statements(q);
        List<Row> parquet = run(spark, statements, "parquet");
        List<Row> mosaic = run(spark, statements, "mosaic");
        assertThat(mosaic).as("TPC-H q%d", q).isEqualTo(parquet);
        TpchReference.write(SCALE, q, parquet);
        checked++;
        withRows += parquet.isEmpty() ? 0 : 1;
        System.out.println("TPC-H q" + q + ": " + parquet.size() + " rows");
      }
      assertThat(checked).isEqualTo(22);
      assertThat(withRows)
          .as("queries with a non-empty answer at SF 0.01")
          .isGreaterThanOrEqualTo(20);
      TpchReference.complete(SCALE);
    } finally {
      spark.stop();
    }
  }

  private List<Row> run(SparkSession spark, List<String> statements, String format) {
    for (TpchTable<?> table : TpchTable.getTables()) {
      String path = dir.resolve(format).resolve(table.getTableName()).toString();
      Dataset<Row> df =
          format.equals("parquet")
              ? spark.read().parquet(path)
              : spark.read().format("mosaic").load(path);
      df.createOrReplaceTempView(table.getTableName());
    }
    List<Row> result = null;
    for (String s : statements) {
      result = spark.sql(s).collectAsList();
    }
    return result;
  }
}
