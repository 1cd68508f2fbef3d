package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Each setting resolves as docs/spark.md says: the option wins over the session conf {@code
 * spark.mosaic.<name>}, which wins over the table property.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicOptionsTest {
  private Path dir;
  private Path devices;
  private SparkSession spark;
  private Dataset<Row> orders;

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    devices = SparkTestTables.devices(dir);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-options")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate();
    orders = SparkTestTables.orders(spark).cache();
  }

  @AfterEach
  void unsetConf() {
    for (String name : new String[] {"devices", "pushdown", "row_group_rows", "default_device"}) {
      spark.conf().unset("spark.mosaic." + name);
    }
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private String table(String name) {
    return dir.resolve("pool/nvme").resolve(name).toString();
  }

  private Manifest manifest(String name) {
    return MosaicTable.open(Path.of(table(name)), DevicePool.load(devices)).latest();
  }

  @Test
  void devicesComeFromTheOptionThenTheSessionConfThenTheTableProperty() throws IOException {
    orders.write().format("mosaic").option("devices", devices.toString()).save(table("dev"));
    assertThat(manifest("dev").properties())
        .containsEntry("devices", devices.toAbsolutePath().normalize().toString());
    // No option, no conf: the table property finds the pool.
    assertThat(spark.read().format("mosaic").load(table("dev")).count()).isEqualTo(15_000);

    // The conf wins over the property: a wrong conf is what the error names.
    Path missing = dir.resolve("elsewhere/devices.toml");
    spark.conf().set("spark.mosaic.devices", missing.toString());
    assertThatThrownBy(() -> spark.read().format("mosaic").load(table("dev")).count())
        .hasMessageContaining(missing.toString());
    // The option wins over the conf.
    assertThat(
            spark
                .read()
                .format("mosaic")
                .option("devices", devices.toString())
                .load(table("dev"))
                .count())
        .isEqualTo(15_000);
    spark.conf().unset("spark.mosaic.devices");

    // A pool whose devices.toml went away: the error names the property and the fix.
    Path other = dir.resolve("other");
    Files.createDirectories(other);
    Path otherDevices = SparkTestTables.devices(other);
    String otherTable = other.resolve("pool/nvme/t").toString();
    orders
        .limit(10)
        .write()
        .format("mosaic")
        .option("devices", otherDevices.toString())
        .save(otherTable);
    Files.delete(otherDevices);
    assertThatThrownBy(() -> spark.read().format("mosaic").load(otherTable).count())
        .hasMessageContaining("table property devices names " + otherDevices)
        .hasMessageContaining("which does not exist")
        .hasMessageContaining("spark.mosaic.devices");
  }

  private BatchScanExec scan(Dataset<Row> df) {
    return (BatchScanExec)
        CollectionConverters.asJava(df.queryExecution().executedPlan().collectLeaves()).stream()
            .filter(p -> p instanceof BatchScanExec)
            .findFirst()
            .orElseThrow();
  }

  private boolean pushed(Dataset<Row> reader) {
    MosaicScan s = (MosaicScan) scan(reader.filter("o_orderkey < 100")).scan();
    return !s.predicate().terms().isEmpty();
  }

  @Test
  void pushdownComesFromTheOptionThenTheSessionConfThenTheTableProperty() {
    spark.conf().set("spark.mosaic.devices", devices.toString());
    orders.write().format("mosaic").option("pushdown", "false").save(table("push"));
    assertThat(manifest("push").properties()).containsEntry("pushdown", "false");
    assertThat(pushed(spark.read().format("mosaic").load(table("push")))).isFalse();
    spark.conf().set("spark.mosaic.pushdown", "true");
    assertThat(pushed(spark.read().format("mosaic").load(table("push")))).isTrue();
    assertThat(
            pushed(spark.read().format("mosaic").option("pushdown", "false").load(table("push"))))
        .isFalse();
    // Without any setting, filters are pushed.
    orders.write().format("mosaic").save(table("push-default"));
    spark.conf().unset("spark.mosaic.pushdown");
    assertThat(pushed(spark.read().format("mosaic").load(table("push-default")))).isTrue();
    assertThatThrownBy(
            () ->
                pushed(
                    spark.read().format("mosaic").option("pushdown", "maybe").load(table("push"))))
        .hasMessageContaining("option pushdown = 'maybe' must be true or false");
  }

  private static long largestRowGroup(Manifest m) {
    return m.rowGroups().stream().mapToLong(Long::longValue).max().orElseThrow();
  }

  @Test
  void newTablesTakeRowGroupRowsAndDefaultDeviceFromTheOptionThenTheSessionConf() {
    spark.conf().set("spark.mosaic.devices", devices.toString());
    spark.conf().set("spark.mosaic.row_group_rows", "5000");
    spark.conf().set("spark.mosaic.default_device", "hdd");
    orders
        .write()
        .format("mosaic")
        .option("row_group_rows", "1000")
        .option("default_device", "nvme")
        .save(table("by-option"));
    Manifest byOption = manifest("by-option");
    assertThat(byOption.properties())
        .containsEntry("row_group_rows", "1000")
        .containsEntry("default_device", "nvme");
    assertThat(largestRowGroup(byOption)).isEqualTo(1000);
    assertThat(byOption.segments()).extracting(SegmentEntry::device).containsOnly("nvme");

    orders.write().format("mosaic").save(table("by-conf"));
    Manifest byConf = manifest("by-conf");
    assertThat(byConf.properties())
        .containsEntry("row_group_rows", "5000")
        .containsEntry("default_device", "hdd");
    assertThat(largestRowGroup(byConf)).isEqualTo(5000);
    assertThat(byConf.segments()).extracting(SegmentEntry::device).containsOnly("hdd");

    // An existing table keeps its property: another conf does not change its row groups.
    spark.conf().set("spark.mosaic.row_group_rows", "2000");
    orders.write().format("mosaic").mode("append").save(table("by-conf"));
    assertThat(largestRowGroup(manifest("by-conf"))).isEqualTo(5000);
    assertThat(manifest("by-conf").rowCount()).isEqualTo(30_000);
    // An option it cannot honour is refused, naming the property and the fix.
    assertThatThrownBy(
            () ->
                orders
                    .write()
                    .format("mosaic")
                    .mode("append")
                    .option("row_group_rows", "2000")
                    .save(table("by-conf")))
        .hasMessageContaining("option row_group_rows = '2000' does not match table property")
        .hasMessageContaining("'5000'")
        .hasMessageContaining("fixed when a table is created");
    assertThat(manifest("by-conf").rowCount()).isEqualTo(30_000);
  }

  @Test
  void executorSettingsComeFromTheApplicationConf() {
    ExecutorSettings defaults = ExecutorSettings.from(new SparkConf(false));
    assertThat(defaults.decodeThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(defaults.vectorPoolBytes()).isEqualTo(256L << 20);
    ExecutorSettings set =
        ExecutorSettings.from(
            new SparkConf(false)
                .set("spark.mosaic.decode_threads", "3")
                .set("spark.mosaic.vector_pool_memory", "64m"));
    assertThat(set)
        .isEqualTo(new ExecutorSettings(3, 64L << 20, ExecutorSettings.defaultSharedBufferBytes()));
    assertThat(
            ExecutorSettings.from(new SparkConf(false).set("spark.mosaic.vector_pool_memory", "0"))
                .vectorPoolBytes())
        .isZero();
  }

  @Test
  void badExecutorSettingsNameTheConfAndTheFix() {
    assertThatThrownBy(
            () ->
                ExecutorSettings.from(new SparkConf(false).set("spark.mosaic.decode_threads", "0")))
        .hasMessageContaining("spark.mosaic.decode_threads = '0'")
        .hasMessageContaining("at least 1");
    assertThatThrownBy(
            () ->
                ExecutorSettings.from(
                    new SparkConf(false).set("spark.mosaic.vector_pool_memory", "lots")))
        .hasMessageContaining("spark.mosaic.vector_pool_memory = 'lots'")
        .hasMessageContaining("such as 256m");
  }
}
