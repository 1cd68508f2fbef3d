package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.TableSorter;
import io.mosaic.table.MosaicTable;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The table property sorted_by in Spark (docs/spark.md, "Sort order on write"). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkSortedWriteTest {
  @TempDir static Path dir;
  private SparkSession spark;
  private DevicePool pool;

  @BeforeAll
  void start() throws Exception {
    Path devices = SparkTestTables.devices(dir);
    pool = DevicePool.load(devices);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-sorted-write")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "3")
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .getOrCreate();
    spark.sql("CREATE NAMESPACE mosaic.s");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  @Test
  void rowsArriveRangePartitionedAndSortedSoRowGroupsHoldRanges() {
    spark.sql(
        "CREATE TABLE mosaic.s.events (id bigint, tag string)"
            + " TBLPROPERTIES ('sorted_by' = 'id', 'row_group_rows' = '400')");
    // Rows in a random order, from several tasks.
    spark.sql(
        "INSERT INTO mosaic.s.events SELECT id, concat('t', id % 7) FROM range(0, 3000)"
            + " DISTRIBUTE BY rand(7) SORT BY rand(11)");
    Manifest m = MosaicTable.open(dir.resolve("warehouse/s/events"), pool).latest();
    assertThat(m.properties()).containsEntry(TableProperties.SORTED_BY, "id");
    assertThat(m.rowCount()).isEqualTo(3000);
    assertThat(m.rowGroups().size()).isGreaterThanOrEqualTo(8);
    // Spark range-partitioned and sorted the rows by id before the tasks wrote them: the row
    // groups' ranges of id follow each other, so a range on id skips row groups.
    assertThat(TableSorter.sortedBy(m, "id")).isTrue();
    assertThat(
            spark
                .sql("SELECT count(*), min(id), max(id) FROM mosaic.s.events WHERE id < 100")
                .collectAsList()
                .get(0)
                .toString())
        .isEqualTo("[100,0,99]");
  }
}
