package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.table.MosaicTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * DELETE, UPDATE and MERGE INTO on a local Spark (docs/spark.md, "Row-level changes"): deletion
 * vectors, read back by Spark's scans, time travel and optimize.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkRowChangesTest {
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
            .appName("mosaic-row-changes")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.warehouse.dir", dir.resolve("spark-warehouse").toString())
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .getOrCreate();
    spark.sql("CREATE NAMESPACE mosaic.dml");
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  private List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).toList();
  }

  private MosaicTable table(String name) {
    return MosaicTable.open(dir.resolve("warehouse/dml").resolve(name), pool);
  }

  @Test
  void deleteUpdateAndMergeIntoThroughDeletionVectors() {
    String t = "mosaic.dml.people";
    spark.sql(
        "CREATE TABLE "
            + t
            + " TBLPROPERTIES ('row_group_rows' = '100') AS SELECT id, concat('p', id) AS name,"
            + " id * 10 AS score FROM range(1, 451) ORDER BY id");
    long created = table("people").latest().version();
    Manifest before = table("people").latest();

    spark.sql("DELETE FROM " + t + " WHERE id % 50 = 0");
    Manifest deleted = table("people").latest();
    assertThat(deleted.operation()).isEqualTo("delete");
    assertThat(deleted.segments()).isEqualTo(before.segments());
    assertThat(deleted.liveRowCount()).isEqualTo(441);
    assertThat(rows("SELECT count(*), sum(score) FROM " + t))
        .containsExactly("[441," + 10L * (450 * 451 / 2 - 50 * 45) + "]");
    assertThat(rows("SELECT id FROM " + t + " WHERE id % 50 = 0")).isEmpty();

    spark.sql("UPDATE " + t + " SET score = -1, name = 'changed' WHERE id BETWEEN 99 AND 102");
    assertThat(table("people").latest().operation()).isEqualTo("update");
    assertThat(
            rows("SELECT id, name, score FROM " + t + " WHERE id BETWEEN 98 AND 103 ORDER BY id"))
        .containsExactly(
            "[98,p98,980]",
            "[99,changed,-1]",
            "[101,changed,-1]",
            "[102,changed,-1]",
            "[103,p103,1030]");

    spark
        .createDataFrame(
            List.of(
                org.apache.spark.sql.RowFactory.create(1L, "one"),
                org.apache.spark.sql.RowFactory.create(2L, null),
                org.apache.spark.sql.RowFactory.create(1000L, "new")),
            new org.apache.spark.sql.types.StructType().add("id", "bigint").add("name", "string"))
        .createOrReplaceTempView("changes");
    spark.sql(
        "MERGE INTO "
            + t
            + " t USING changes s ON t.id = s.id"
            + " WHEN MATCHED AND s.name IS NULL THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET t.name = s.name"
            + " WHEN NOT MATCHED THEN INSERT (id, name, score) VALUES (s.id, s.name, 0)");
    assertThat(rows("SELECT id, name FROM " + t + " WHERE id IN (1, 2, 3, 1000) ORDER BY id"))
        .containsExactly("[1,one]", "[3,p3]", "[1000,new]");
    assertThat(rows("SELECT count(*) FROM " + t)).containsExactly("[441]");
    // Time travel reads the version before the changes, every row of it.
    assertThat(rows("SELECT count(*) FROM " + t + " VERSION AS OF " + created))
        .containsExactly("[450]");

    // optimize applies the deletion vectors: the same rows, none deleted.
    List<String> live = rows("SELECT * FROM " + t + " ORDER BY id, name");
    spark.sql("CALL mosaic.system.optimize(table => 'dml.people')");
    Manifest compacted = table("people").latest();
    assertThat(compacted.deletions()).isEmpty();
    assertThat(compacted.rowCount()).isEqualTo(441);
    assertThat(rows("SELECT * FROM " + t + " ORDER BY id, name")).isEqualTo(live);
  }

  @Test
  void rowsDeletedByAnotherEngineAreNotReadAndStaleChangesConflict() throws Exception {
    String t = "mosaic.dml.shared";
    spark.sql(
        "CREATE TABLE "
            + t
            + " TBLPROPERTIES ('row_group_rows' = '10') AS SELECT id FROM range(0, 30) ORDER BY id");
    MosaicTable table = table("shared");
    long base = table.latest().version();
    // Another engine (core's API, as Trino commits) deletes ids 3 and 15, found by their row ids.
    DeletedRows.Collector ids = new DeletedRows.Collector();
    for (Row r : spark.sql("SELECT _row_id FROM " + t + " WHERE id IN (3, 15)").collectAsList()) {
      ids.add(r.getLong(0));
    }
    Map<Integer, DeletedRows> gone = ids.deletions();
    assertThat(gone.values().stream().mapToInt(DeletedRows::count).sum()).isEqualTo(2);
    table.changeRows("delete", base, gone, List.of());
    assertThat(rows("SELECT count(*) FROM " + t)).containsExactly("[28]");
    assertThat(rows("SELECT id FROM " + t + " WHERE id IN (2, 3, 4, 15) ORDER BY id"))
        .containsExactly("[2]", "[4]");
    // A DELETE planned on the old version, committed after another change to its row group.
    assertThatThrownBy(
            () ->
                table.changeRows(
                    "delete",
                    base,
                    Map.of(gone.keySet().iterator().next(), DeletedRows.of(0)),
                    List.of()))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("another change deleted rows of row group");
  }
}
