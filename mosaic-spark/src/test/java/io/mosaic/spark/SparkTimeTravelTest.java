package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.warehouse.Warehouse;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code VERSION AS OF}, {@code TIMESTAMP AS OF}, the read options {@code versionAsOf} and {@code
 * timestampAsOf}, and {@code CALL versions} / {@code CALL history} on a local Spark (docs/spark.md,
 * "Time travel").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkTimeTravelTest {
  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

  private Path dir;
  private Path devices;
  private SparkSession spark;
  private Warehouse warehouse;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    devices = SparkTestTables.devices(dir);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-time-travel")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .getOrCreate();
    spark.sql("CREATE NAMESPACE mosaic.tt");
    warehouse = Warehouse.open(dir.resolve("warehouse").toString(), DevicePool.load(devices));
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private static List<Long> keys(Dataset<Row> rows) {
    return rows.orderBy("x").collectAsList().stream().map(r -> r.getLong(0)).toList();
  }

  private List<Long> keys(String from) {
    return keys(spark.sql("SELECT x FROM " + from));
  }

  private static List<Long> range(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 1; i <= n; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void readsEachVersionByNumberTimeAndOptionAndListsThem() throws Exception {
    spark.sql("CREATE TABLE mosaic.tt.t (x bigint, s string)"); // v1
    List<Instant> between = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Thread.sleep(20);
      between.add(Instant.now()); // after v(i+1), before v(i+2)
      Thread.sleep(20);
      spark.sql(
          "INSERT INTO mosaic.tt.t SELECT id, CAST(id AS string) FROM range("
              + (i * 10 + 1)
              + ", "
              + (i * 10 + 11)
              + ")");
    }
    Thread.sleep(20);
    between.add(Instant.now());
    List<List<Long>> held = List.of(List.of(), range(10), range(20), range(30));
    String location = warehouse.location("tt", "t");
    for (int v = 1; v <= 4; v++) {
      List<Long> expected = held.get(v - 1);
      String time = LOCAL.format(between.get(v - 1));
      assertThat(keys("mosaic.tt.t VERSION AS OF " + v)).as("v%d", v).isEqualTo(expected);
      assertThat(keys("mosaic.tt.t TIMESTAMP AS OF '" + time + "'")).isEqualTo(expected);
      assertThat(
              keys(
                  spark
                      .read()
                      .format("mosaic")
                      .option("devices", devices.toString())
                      .option("versionAsOf", v)
                      .load(location)))
          .isEqualTo(expected);
      assertThat(
              keys(
                  spark
                      .read()
                      .format("mosaic")
                      .option("devices", devices.toString())
                      .option("timestampAsOf", time)
                      .load(location)))
          .isEqualTo(expected);
    }
    assertThat(keys("mosaic.tt.t")).isEqualTo(held.get(3));

    List<Row> versions = spark.sql("CALL mosaic.system.versions(table => 'tt.t')").collectAsList();
    assertThat(versions)
        .extracting(r -> r.getLong(0), r -> r.get(2), r -> r.getString(3), r -> r.getLong(4))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, null, "create", 0L),
            org.assertj.core.groups.Tuple.tuple(2L, 1L, "append", 10L),
            org.assertj.core.groups.Tuple.tuple(3L, 2L, "append", 20L),
            org.assertj.core.groups.Tuple.tuple(4L, 3L, "append", 30L));
    for (int v = 2; v <= 4; v++) {
      Instant committed = ((Timestamp) versions.get(v - 1).get(1)).toInstant();
      assertThat(committed).isAfter(between.get(v - 2)).isBefore(between.get(v - 1));
    }
    assertThat(spark.sql("CALL mosaic.system.history(table => 'tt.t')").collectAsList())
        .extracting(r -> r.getLong(1), r -> r.get(2), r -> r.getBoolean(3))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, null, true),
            org.assertj.core.groups.Tuple.tuple(2L, 1L, true),
            org.assertj.core.groups.Tuple.tuple(3L, 2L, true),
            org.assertj.core.groups.Tuple.tuple(4L, 3L, true));

    assertThatThrownBy(() -> keys("mosaic.tt.t VERSION AS OF 9"))
        .hasMessageContaining("table t has no version 9 to read: it was never committed")
        .hasMessageContaining("readable now: 4 versions, v1 (committed at");
    assertThatThrownBy(() -> keys("mosaic.tt.t TIMESTAMP AS OF '2001-01-01 00:00:00'"))
        .hasMessageContaining("table t did not exist at 2001-01-01T00:00:00Z");
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .format("mosaic")
                    .option("devices", devices.toString())
                    .option("versionAsOf", 2)
                    .option("timestampAsOf", "2026-01-01")
                    .load(location)
                    .collectAsList())
        .hasMessageContaining("give one of them");
  }

  @Test
  void aRetiredVersionIsRefusedAndAPinnedOneReadsThroughCommits() throws Exception {
    spark.sql("CREATE TABLE mosaic.tt.g AS SELECT id AS x FROM range(1, 6)"); // v1 empty, v2
    spark.sql("INSERT INTO mosaic.tt.g VALUES (6)"); // v3
    MosaicTable table = warehouse.open("tt", "g");
    // A scan of v2 running (its pin held) while more is committed and gc runs: v2 stays readable.
    try (TablePin running = table.pin(2)) {
      spark.sql("INSERT INTO mosaic.tt.g VALUES (7)"); // v4
      new GarbageCollector(table).collect(Duration.ZERO);
      assertThat(keys("mosaic.tt.g VERSION AS OF 2")).containsExactly(1L, 2L, 3L, 4L, 5L);
      assertThat(spark.sql("CALL mosaic.system.versions(table => 'tt.g')").collectAsList())
          .extracting(r -> r.getLong(0))
          .containsExactly(2L, 4L);
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThatThrownBy(() -> keys("mosaic.tt.g VERSION AS OF 3"))
        .hasMessageContaining("table g has no version 3 to read: gc retired it")
        .hasMessageContaining("readable now: only v4 (committed at")
        .hasMessageContaining("run gc less often");
    assertThatThrownBy(
            () ->
                spark
                    .read()
                    .format("mosaic")
                    .option("devices", devices.toString())
                    .option("versionAsOf", "2")
                    .load(warehouse.location("tt", "g"))
                    .collectAsList())
        .hasMessageContaining("table g has no version 2 to read: gc retired it");
    assertThat(keys("mosaic.tt.g")).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
  }
}
