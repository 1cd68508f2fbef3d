package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.trino.spi.type.VarcharType;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The SQL a Trino user runs against a Mosaic catalog, and the errors bad input gets. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicSqlTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    runner.execute("CREATE SCHEMA mosaic.tiny");
    runner.execute(
        "CREATE TABLE mosaic.tiny.nums WITH (row_group_rows = 100) AS"
            + " SELECT x, CAST(x AS varchar) AS s FROM UNNEST(sequence(1, 1000)) t(x)");
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private MaterializedResult sql(String sql) {
    return runner.execute(sql);
  }

  @Test
  void executeOptimizeCompactsTheRowGroupsOfSmallInserts() {
    sql(
        "CREATE TABLE tiny.small WITH (row_group_rows = 100) AS"
            + " SELECT x, CAST(x AS varchar) AS s FROM UNNEST(sequence(1, 150)) t(x)");
    for (int i = 1; i <= 8; i++) {
      sql(
          "INSERT INTO tiny.small SELECT x + "
              + 1000 * i
              + ", 'i' FROM UNNEST(sequence(1, 10)) t(x)");
    }
    MaterializedResult before = sql("SELECT x, s FROM tiny.small");
    assertThat(latest("small").rowGroups()).hasSizeGreaterThanOrEqualTo(10);

    sql("ALTER TABLE tiny.small EXECUTE optimize");

    io.mosaic.format.Manifest compacted = latest("small");
    assertThat(compacted.operation()).isEqualTo("optimize");
    assertThat(compacted.rowGroups()).containsExactly(100L, 100L, 30L);
    io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder(
        sql("SELECT x, s FROM tiny.small").getMaterializedRows(), before.getMaterializedRows());
    // Compact already: nothing committed.
    sql("ALTER TABLE tiny.small EXECUTE OPTIMIZE");
    assertThat(latest("small").version()).isEqualTo(compacted.version());
    assertThatThrownBy(() -> sql("ALTER TABLE tiny.small EXECUTE expire_snapshots"))
        .hasMessageContaining("not registered: EXPIRE_SNAPSHOTS");
  }

  @Test
  void deleteUpdateAndMergeChangeRowsThroughDeletionVectors() {
    sql(
        "CREATE TABLE tiny.people WITH (row_group_rows = 100) AS SELECT x AS id,"
            + " 'p' || CAST(x AS varchar) AS name, x * 10 AS score FROM UNNEST(sequence(1, 450)) t(x)");
    long created = latest("people").version();

    assertThat(sql("DELETE FROM tiny.people WHERE id % 50 = 0").getOnlyValue()).isEqualTo(9L);
    io.mosaic.format.Manifest deleted = latest("people");
    assertThat(deleted.operation()).isEqualTo("delete");
    // The segments stay as they were; five row groups get a deletion vector each.
    assertThat(deleted.segments()).isEqualTo(latestAt("people", created).segments());
    assertThat(deleted.deletions()).containsOnlyKeys(0, 1, 2, 3, 4);
    assertThat(sql("SELECT count(*) FROM tiny.people").getOnlyValue()).isEqualTo(441L);
    assertThat(sql("SELECT count(*) FROM tiny.people WHERE id % 50 = 0").getOnlyValue())
        .isEqualTo(0L);
    assertThat(sql("SELECT sum(score) FROM tiny.people").getOnlyValue())
        .isEqualTo(10L * (450 * 451 / 2 - 50 * (9 * 10 / 2)));
    assertThat(sql("SHOW STATS FOR tiny.people").getMaterializedRows())
        .filteredOn(r -> r.getField(0) == null)
        .singleElement()
        .satisfies(r -> assertThat(r.getField(4)).isEqualTo(441.0));

    assertThat(
            sql("UPDATE tiny.people SET score = -1, name = 'changed' WHERE id BETWEEN 99 AND 102")
                .getOnlyValue())
        .isEqualTo(3L);
    assertThat(latest("people").operation()).isEqualTo("merge");
    assertThat(
            sql("SELECT id, name, score FROM tiny.people WHERE id BETWEEN 98 AND 103 ORDER BY id")
                .getMaterializedRows())
        .extracting(r -> r.getFields())
        .containsExactly(
            List.of(98L, "p98", 980L),
            List.of(99L, "changed", -1L),
            List.of(101L, "changed", -1L),
            List.of(102L, "changed", -1L),
            List.of(103L, "p103", 1030L));

    sql(
        "MERGE INTO tiny.people t USING (VALUES (1, 'one'), (2, NULL), (1000, 'new')) AS s(id, name)"
            + " ON t.id = s.id"
            + " WHEN MATCHED AND s.name IS NULL THEN DELETE"
            + " WHEN MATCHED THEN UPDATE SET name = s.name"
            + " WHEN NOT MATCHED THEN INSERT (id, name, score) VALUES (s.id, s.name, 0)");
    assertThat(
            sql("SELECT id, name FROM tiny.people WHERE id IN (1, 2, 3, 1000) ORDER BY id")
                .getMaterializedRows())
        .extracting(r -> r.getFields())
        .containsExactly(List.of(1L, "one"), List.of(3L, "p3"), List.of(1000L, "new"));
    assertThat(sql("SELECT count(*) FROM tiny.people").getOnlyValue()).isEqualTo(441L);
    // The version before the changes still has every row.
    assertThat(sql("SELECT count(*) FROM tiny.people FOR VERSION AS OF " + created).getOnlyValue())
        .isEqualTo(450L);

    // optimize applies the deletion vectors: the same rows, none deleted, none stored in vain.
    MaterializedResult before = sql("SELECT id, name, score FROM tiny.people");
    sql("ALTER TABLE tiny.people EXECUTE optimize");
    io.mosaic.format.Manifest compacted = latest("people");
    assertThat(compacted.deletions()).isEmpty();
    assertThat(compacted.rowCount()).isEqualTo(441L);
    io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder(
        sql("SELECT id, name, score FROM tiny.people").getMaterializedRows(),
        before.getMaterializedRows());
  }

  @Test
  void sortedByWritesEachRowGroupInTheColumnsOrder() throws Exception {
    sql(
        "CREATE TABLE tiny.sorted WITH (row_group_rows = 100, sorted_by = 'x') AS"
            + " SELECT x, CAST(x AS varchar) AS s FROM UNNEST(sequence(1, 300)) t(x) ORDER BY rand()");
    io.mosaic.format.Manifest m = latest("sorted");
    assertThat(m.properties()).containsEntry("sorted_by", "x");
    assertThat(m.rowCount()).isEqualTo(300);
    io.mosaic.table.MosaicTable table =
        io.mosaic.table.MosaicTable.open(
            dir.resolve("metadata/tiny/sorted"), MosaicQueryRunner.pool(runner, "mosaic"));
    try (var alloc = new org.apache.arrow.memory.RootAllocator();
        var reader = new io.mosaic.table.TableReader(table, m, List.of("x"))) {
      for (int g = 0; g < reader.rowGroupCount(); g++) {
        try (var root = reader.read(g, alloc)) {
          var x = (org.apache.arrow.vector.BigIntVector) root.getVector(0);
          for (int i = 1; i < root.getRowCount(); i++) {
            assertThat(x.get(i)).as("row group %d row %d", g, i).isGreaterThan(x.get(i - 1));
          }
        }
      }
    }
    assertThat((String) sql("SHOW CREATE TABLE tiny.sorted").getOnlyValue())
        .contains("sorted_by = 'x'");
    assertThatThrownBy(
            () -> sql("CREATE TABLE tiny.badsort WITH (sorted_by = 'nope') AS SELECT 1 AS x"))
        .hasMessageContaining("sorted_by = 'nope' names no column of the table; name one of x");
  }

  private io.mosaic.format.Manifest latestAt(String table, long version) {
    return io.mosaic.table.MosaicTable.open(
            dir.resolve("metadata/tiny").resolve(table), MosaicQueryRunner.pool(runner, "mosaic"))
        .version(version);
  }

  private io.mosaic.format.Manifest latest(String table) {
    return io.mosaic.table.MosaicTable.open(
            dir.resolve("metadata/tiny").resolve(table), MosaicQueryRunner.pool(runner, "mosaic"))
        .latest();
  }

  @Test
  void schemaAndTableLifecycle() {
    sql("CREATE SCHEMA life");
    assertThat(sql("SHOW SCHEMAS").getOnlyColumnAsSet()).contains("life", "tiny");
    sql("CREATE TABLE life.t (a bigint, b varchar(10))");
    assertThat(sql("INSERT INTO life.t VALUES (1, 'x'), (2, NULL)").getOnlyValue()).isEqualTo(2L);
    sql("INSERT INTO life.t SELECT a + 10, b FROM life.t");
    assertThat(sql("SELECT a, b FROM life.t ORDER BY a").getMaterializedRows())
        .extracting(r -> r.getField(0), r -> r.getField(1))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, "x"),
            org.assertj.core.groups.Tuple.tuple(2L, null),
            org.assertj.core.groups.Tuple.tuple(11L, "x"),
            org.assertj.core.groups.Tuple.tuple(12L, null));
    assertThat(sql("SHOW TABLES FROM life").getOnlyColumnAsSet()).containsExactly("t");
    assertThat(sql("DESCRIBE life.t").getMaterializedRows())
        .extracting(r -> r.getField(0), r -> r.getField(1))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", "bigint"),
            org.assertj.core.groups.Tuple.tuple("b", "varchar(10)"));
    assertThatThrownBy(() -> sql("INSERT INTO life.t VALUES (3, 'longer than ten')"))
        .hasMessageContaining("Cannot truncate non-space characters");
    assertThatThrownBy(() -> sql("DROP SCHEMA life"))
        .hasMessageContaining("Cannot drop non-empty schema");
    sql("DROP TABLE life.t");
    assertThat(sql("SHOW TABLES FROM life").getRowCount()).isZero();
    sql("DROP SCHEMA life");
    assertThat(sql("SHOW SCHEMAS").getOnlyColumnAsSet()).doesNotContain("life");
  }

  /**
   * DROP TABLE in this long-lived JVM gives the devices their space back. Both nodes' connectors
   * and the pool loaded here share one count per device directory (core's Device), so the count
   * read here is the one the CTAS booked into and the drop released from.
   */
  @Test
  void dropTableGivesTheDevicesTheirSpaceBack() throws Exception {
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    Map<String, Long> used = new HashMap<>();
    Map<String, Long> free = new HashMap<>();
    for (Device d : pool.devices()) {
      used.put(d.id(), d.usedBytes());
      free.put(d.id(), d.freeBytes());
    }
    sql("CREATE SCHEMA space");
    sql(
        "CREATE TABLE space.orders WITH (default_device = 'slow') AS SELECT * FROM tpch.tiny.orders");
    assertThat(pool.device("slow").usedBytes()).isGreaterThan(used.get("slow"));

    // Renaming moves the table root only: the bytes stay booked and the rows readable.
    sql("ALTER TABLE space.orders RENAME TO tiny.orders_renamed");
    assertThat(sql("SELECT count(*) FROM tiny.orders_renamed").getOnlyValue()).isEqualTo(15000L);
    assertThat(sql("SHOW TABLES FROM space").getRowCount()).isZero();
    assertThat(pool.device("slow").usedBytes()).isGreaterThan(used.get("slow"));

    sql("DROP TABLE tiny.orders_renamed");
    for (Device d : pool.devices()) {
      assertThat(d.usedBytes())
          .as("device %s after DROP TABLE", d.id())
          .isEqualTo(used.get(d.id()));
      assertThat(d.freeBytes())
          .as("device %s after DROP TABLE", d.id())
          .isEqualTo(free.get(d.id()));
    }
    sql("DROP SCHEMA space");
  }

  @Test
  void everyTypeRoundTrips() {
    String values =
        "VALUES (true, TINYINT '-7', SMALLINT '300', 70000, BIGINT '9000000000', REAL '1.5',"
            + " DOUBLE '-2.25', DECIMAL '12345678.91', DECIMAL '1234567890123456789012.34567',"
            + " DATE '1998-12-01', TIMESTAMP '2020-02-29 12:34:56.123456', 'mosaïc',"
            + " X'00ff10'),"
            + " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)";
    String columns = "bo, ti, si, i, bi, r, d, sd, ld, dt, ts, s, vb";
    sql("CREATE TABLE types AS SELECT * FROM (" + values + ") t(" + columns + ")");
    MaterializedResult expected = sql("SELECT * FROM (" + values + ") t(" + columns + ")");
    MaterializedResult actual = sql("SELECT * FROM types");
    assertThat(actual.getMaterializedRows())
        .containsExactlyInAnyOrderElementsOf(expected.getMaterializedRows());
    // Including varchar(6) of 'mosaïc': the length is kept next to core's unbounded string.
    assertThat(actual.getTypes()).isEqualTo(expected.getTypes());
    assertThat(actual.getTypes()).contains(VarcharType.createVarcharType(6));
  }

  @Test
  void filtersAreExactWhateverRowGroupsAreSkipped() {
    assertThat(sql("SELECT count(*) FROM nums").getOnlyValue()).isEqualTo(1000L);
    assertThat(sql("SELECT count(*) FROM nums WHERE x BETWEEN 250 AND 349").getOnlyValue())
        .isEqualTo(100L);
    assertThat(sql("SELECT sum(x) FROM nums WHERE x IN (1, 500, 1000)").getOnlyValue())
        .isEqualTo(1501L);
    assertThat(sql("SELECT count(*) FROM nums WHERE x > 990 OR x < 3").getOnlyValue())
        .isEqualTo(12L);
    assertThat(sql("SELECT count(*) FROM nums WHERE s = '777'").getOnlyValue()).isEqualTo(1L);
    assertThat(sql("SELECT count(*) FROM nums WHERE x IS NULL").getOnlyValue()).isEqualTo(0L);
    assertThat(sql("SELECT count(*) FROM nums WHERE x > 5000").getOnlyValue()).isEqualTo(0L);
  }

  @Test
  void statisticsReachTheOptimizer() {
    List<MaterializedRow> stats = sql("SHOW STATS FOR nums").getMaterializedRows();
    MaterializedRow x = stats.stream().filter(r -> "x".equals(r.getField(0))).findFirst().get();
    MaterializedRow total = stats.get(stats.size() - 1);
    assertThat(total.getField(4)).isEqualTo(1000.0); // row_count
    assertThat(x.getField(3)).isEqualTo(0.0); // nulls_fraction
    assertThat(x.getField(5)).isEqualTo("1"); // low_value
    assertThat(x.getField(6)).isEqualTo("1000"); // high_value
  }

  @Test
  void placementAndSegmentsTables() {
    sql(
        "CREATE TABLE on_slow WITH (default_device = 'slow', row_group_rows = 100) AS"
            + " SELECT * FROM nums");
    MaterializedResult placement =
        sql("SELECT column_name, device, codec, segments FROM \"on_slow$placement\"");
    assertThat(placement.getMaterializedRows())
        .extracting(r -> r.getField(0), r -> r.getField(1))
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("x", "slow"),
            org.assertj.core.groups.Tuple.tuple("s", "slow"));
    assertThat(placement.getMaterializedRows().get(0).getField(2).toString()).isEqualTo("lz4");
    // Every column covers every row group once; 1000 rows make at least 10 groups of 100.
    List<MaterializedRow> segments =
        sql("SELECT column_name, device, sum(row_groups) FROM \"nums$segments\""
                + " GROUP BY column_name, device")
            .getMaterializedRows();
    assertThat(segments).hasSize(2).allMatch(r -> r.getField(1).equals("fast"));
    assertThat(segments.get(0).getField(2)).isEqualTo(segments.get(1).getField(2));
    assertThat((long) segments.get(0).getField(2)).isGreaterThanOrEqualTo(10L);
  }

  @Test
  void tableNamesThatLeaveTheSchemaAreRefused() {
    assertThatThrownBy(() -> sql("CREATE TABLE \"a/b\" (x bigint)"))
        .hasMessageContaining("table name 'a/b' is not allowed");
    assertThatThrownBy(() -> sql("CREATE TABLE \"..evil\" (x bigint)"))
        .hasMessageContaining("is not allowed");
    assertThatThrownBy(() -> sql("SELECT * FROM \"../tiny\""))
        .hasMessageContaining("is not allowed");
  }

  @Test
  void informationSchemaListsTheColumnsOfASchema() {
    sql("CREATE TABLE listed (k bigint, v varchar(3))");
    assertThat(
            sql("SELECT table_name, column_name, data_type FROM information_schema.columns"
                    + " WHERE table_schema = 'tiny' AND table_name IN ('nums', 'listed')")
                .getMaterializedRows())
        .extracting(r -> r.getField(0), r -> r.getField(1), r -> r.getField(2))
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("nums", "x", "bigint"),
            org.assertj.core.groups.Tuple.tuple("nums", "s", "varchar"),
            org.assertj.core.groups.Tuple.tuple("listed", "k", "bigint"),
            org.assertj.core.groups.Tuple.tuple("listed", "v", "varchar(3)"));
    assertThat(
            sql("SELECT DISTINCT table_name FROM information_schema.columns"
                    + " WHERE table_schema = 'tiny'")
                .getOnlyColumnAsSet())
        .contains("nums", "listed");
    sql("DROP TABLE listed");
  }

  @Test
  void namesTooLongForADirectoryAreRefused() {
    String longest = "t".repeat(MosaicStorage.MAX_NAME_LENGTH);
    sql("CREATE TABLE " + longest + " (a bigint)");
    sql("DROP TABLE " + longest);
    assertThatThrownBy(() -> sql("CREATE TABLE " + longest + "t (a bigint)"))
        .hasMessageContaining("table name '" + longest + "t' is too long: 256 characters")
        .hasMessageContaining("use a shorter name");
    assertThatThrownBy(() -> sql("CREATE SCHEMA " + "s".repeat(256)))
        .hasMessageContaining("namespace name '" + "s".repeat(256) + "' is too long");
  }

  @Test
  void badColumnTypesAndPropertiesAreExplained() {
    assertThatThrownBy(() -> sql("CREATE TABLE arr (x array(bigint))"))
        .hasMessageContaining("column 'x' has type array(bigint), which Mosaic cannot store");
    assertThatThrownBy(() -> sql("CREATE TABLE dev (x bigint) WITH (default_device = 'nope')"))
        .hasMessageContaining("unknown device 'nope'");
    assertThatThrownBy(() -> sql("CREATE TABLE rows0 (x bigint) WITH (row_group_rows = 0)"))
        .hasMessageContaining("row_group_rows = 0 must be a positive number of rows");
  }

  @Test
  void moveColumnsMigratesOnlineAndKeepsTheData() {
    sql("CREATE TABLE moved WITH (row_group_rows = 100) AS SELECT * FROM nums");
    Object before = sql("SELECT sum(x), count(DISTINCT s) FROM moved").getMaterializedRows().get(0);
    sql("CALL mosaic.system.move_columns('tiny', 'moved', 's=slow')");
    assertThat(
            sql("SELECT column_name, device, codec FROM \"moved$placement\"").getMaterializedRows())
        .extracting(r -> r.getField(0), r -> r.getField(1), r -> r.getField(2).toString())
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("x", "fast", "zstd"),
            org.assertj.core.groups.Tuple.tuple("s", "slow", "lz4"));
    assertThat(sql("SELECT sum(x), count(DISTINCT s) FROM moved").getMaterializedRows().get(0))
        .isEqualTo(before);
    assertThatThrownBy(() -> sql("CALL mosaic.system.move_columns('tiny', 'moved', 's=tape')"))
        .hasMessageContaining("unknown device 'tape'");
    assertThatThrownBy(() -> sql("CALL mosaic.system.move_columns('tiny', 'moved', 's:slow')"))
        .hasMessageContaining("write column=device pairs");
  }
}
