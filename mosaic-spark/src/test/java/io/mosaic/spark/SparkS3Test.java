package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.storage.SeaweedS3;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose metadata and rows are on S3 (SeaweedFS, {@link SeaweedS3}) in a local Spark, which
 * reaches S3 only through the session's {@code spark.hadoop.fs.s3a.*} settings, as a user gives
 * them (docs/spark.md, "Devices on S3"): the driver reads the table's properties, the tasks its
 * segments, and the rows come back. {@link S3LocalClusterIT} runs TPC-H so in separate executor
 * JVMs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkS3Test {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();

  private static final String FOLDER = "spark-local";
  private SparkSession spark;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("pool/nvme"));
    Path devices =
        Files.writeString(
            dir.resolve("devices.toml"),
            SparkTestTables.NVME
                + """

                [[device]]
                id = "s3"
                uri = "s3://%s/%s/devices/s3"
                capacity = "4 GB"
                threads = 4
                codec = "zstd"
                cost_per_gb = "2.3 ct"
                """
                    .formatted(SeaweedS3.BUCKET, FOLDER));
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-s3")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.devices", devices.toString());
    S3.settings().forEach((k, v) -> builder.config("spark.hadoop." + k, v));
    spark = builder.getOrCreate();
  }

  @AfterAll
  void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void aTableOnS3IsWrittenAppendedAndReadWithTheSessionsS3Settings() {
    String table = "s3://" + SeaweedS3.BUCKET + "/" + FOLDER + "/tables/orders";
    Dataset<Row> orders = SparkTestTables.orders(spark).cache();
    orders.write().format("mosaic").option("default_device", "s3").save(table);
    // An append reads the table's properties on the driver first, with the session's settings.
    Dataset<Row> few = orders.filter("o_orderkey < 400");
    few.write().format("mosaic").mode(SaveMode.Append).save(table);

    Dataset<Row> read = spark.read().format("mosaic").load(table);
    long appended = few.count();
    assertThat(appended).isPositive();
    assertThat(read.count()).isEqualTo(orders.count() + appended);
    Row sums = read.selectExpr("sum(o_orderkey)", "count(o_orderstatus)").first();
    Row expected =
        orders.unionAll(few).selectExpr("sum(o_orderkey)", "count(o_orderstatus)").first();
    assertThat(sums).isEqualTo(expected);
  }
}
