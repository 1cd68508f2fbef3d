package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settles dependency convergence early: a real local Spark runs with mosaic-core's Parquet, Arrow
 * and compression libraries on the same class path.
 */
class SparkSmokeTest {
  @TempDir Path dir;

  @Test
  void localSparkWritesAndReadsZstdParquetBesideCoresArrow() {
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-smoke")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate();
    try {
      String path = dir.resolve("numbers").toString();
      spark
          .range(0, 100_000)
          .selectExpr("id", "id % 7 AS bucket")
          .write()
          .option("compression", "zstd")
          .parquet(path);
      Dataset<Row> sums = spark.read().parquet(path).groupBy("bucket").sum("id").orderBy("bucket");
      long total = sums.collectAsList().stream().mapToLong(r -> r.getLong(1)).sum();
      assertThat(total).isEqualTo(100_000L * 99_999 / 2);
      assertThat(spark.version()).isEqualTo("4.2.0");
    } finally {
      spark.stop();
    }

    // The Parquet and Arrow that Spark runs with are the ones mosaic-core is built against.
    assertThat(org.apache.parquet.Version.FULL_VERSION).contains("1.17.0");
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector vector = new BigIntVector("v", allocator)) {
      vector.allocateNew(3);
      vector.set(0, 42);
      vector.setValueCount(1);
      assertThat(vector.get(0)).isEqualTo(42);
    }
  }
}
