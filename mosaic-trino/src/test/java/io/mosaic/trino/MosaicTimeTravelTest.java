package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.warehouse.Warehouse;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code FOR VERSION AS OF}, {@code FOR TIMESTAMP AS OF} and the {@code $versions} and {@code
 * $history} tables on an in-process Trino (docs/trino.md, "Time travel").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicTimeTravelTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    runner.execute("CREATE SCHEMA mosaic.tt");
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

  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS 'UTC'");

  /** A {@code timestamp(3) with time zone} literal of {@code t}, rounded down to milliseconds. */
  private static String at(Instant t) {
    return "TIMESTAMP '" + LITERAL.format(t.atZone(java.time.ZoneOffset.UTC)) + "'";
  }

  private List<Long> keys(String from) {
    return sql("SELECT x FROM " + from + " ORDER BY x")
        .getOnlyColumn()
        .map(Long.class::cast)
        .toList();
  }

  @Test
  void readsEachVersionByNumberAndTimeAndListsThem() throws Exception {
    sql("CREATE TABLE tt.t (x bigint, s varchar)");
    List<Instant> between = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Thread.sleep(20);
      between.add(Instant.now()); // after v(i+1), before v(i+2)
      Thread.sleep(20);
      sql(
          "INSERT INTO tt.t SELECT x, CAST(x AS varchar) FROM UNNEST(sequence("
              + (i * 10 + 1)
              + ", "
              + (i * 10 + 10)
              + ")) u(x)");
    }
    Thread.sleep(20);
    between.add(Instant.now()); // after v4
    List<List<Long>> held = List.of(List.of(), range(10), range(20), range(30));
    for (int v = 1; v <= 4; v++) {
      assertThat(keys("tt.t FOR VERSION AS OF " + v)).isEqualTo(held.get(v - 1));
      assertThat(keys("tt.t FOR VERSION AS OF BIGINT '" + v + "'")).isEqualTo(held.get(v - 1));
      assertThat(keys("tt.t FOR TIMESTAMP AS OF " + at(between.get(v - 1))))
          .isEqualTo(held.get(v - 1));
    }
    // A timestamp without time zone is in the session's zone, as Iceberg reads it.
    java.time.ZoneId zone = runner.getDefaultSession().getTimeZoneKey().getZoneId();
    assertThat(
            keys(
                "tt.t FOR TIMESTAMP AS OF TIMESTAMP '"
                    + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
                        .format(between.get(2).atZone(zone))
                    + "'"))
        .isEqualTo(held.get(2));
    assertThat(keys("tt.t")).isEqualTo(held.get(3));

    MaterializedResult versions =
        sql("SELECT version, parent, operation, row_count, committed_at FROM tt.\"t$versions\"");
    assertThat(versions.getMaterializedRows())
        .extracting(r -> r.getField(0), r -> r.getField(1), r -> r.getField(2), r -> r.getField(3))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, null, "create", 0L),
            org.assertj.core.groups.Tuple.tuple(2L, 1L, "append", 10L),
            org.assertj.core.groups.Tuple.tuple(3L, 2L, "append", 20L),
            org.assertj.core.groups.Tuple.tuple(4L, 3L, "append", 30L));
    // Each version's commit time lies between the instants taken around its statement.
    for (int v = 2; v <= 4; v++) {
      Instant committed =
          ((ZonedDateTime) versions.getMaterializedRows().get(v - 1).getField(4)).toInstant();
      assertThat(committed).isAfter(between.get(v - 2));
      if (v <= 3) {
        assertThat(committed).isBefore(between.get(v - 1));
      }
      // Its own commit time reads it.
      assertThat(keys("tt.t FOR TIMESTAMP AS OF " + at(committed.plusMillis(1))))
          .isEqualTo(held.get(v - 1));
    }
    assertThat(
            sql("SELECT version, parent, is_current_ancestor FROM tt.\"t$history\" ORDER BY version")
                .getMaterializedRows())
        .extracting(MaterializedRow::getFields)
        .containsExactly(
            java.util.Arrays.asList(1L, null, true),
            List.of(2L, 1L, true),
            List.of(3L, 2L, true),
            List.of(4L, 3L, true));
    assertThat(
            sql("SELECT count(*) FROM tt.\"t$history\" h JOIN tt.\"t$versions\" v"
                    + " ON h.version = v.version AND h.made_current_at = v.committed_at")
                .getOnlyValue())
        .isEqualTo(4L);

    // A version never committed names the readable ones.
    assertThatThrownBy(() -> sql("SELECT * FROM tt.t FOR VERSION AS OF 7"))
        .hasMessageContaining("table t has no version 7 to read: it was never committed")
        .hasMessageContaining("readable now: 4 versions, v1 (committed at");
    assertThatThrownBy(
            () -> sql("SELECT * FROM tt.t FOR TIMESTAMP AS OF TIMESTAMP '2001-01-01 00:00:00 UTC'"))
        .hasMessageContaining("table t did not exist at 2001-01-01T00:00:00Z");
    assertThatThrownBy(() -> sql("SELECT * FROM tt.t FOR VERSION AS OF 'main'"))
        .hasMessageContaining("takes a version number");
  }

  private static List<Long> range(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 1; i <= n; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void aRetiredVersionIsRefusedAndAPinnedOneReadsThroughCommits() throws Exception {
    sql("CREATE TABLE tt.g AS SELECT x FROM UNNEST(sequence(1, 5)) u(x)"); // v1 empty, v2
    sql("INSERT INTO tt.g VALUES 6"); // v3
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    MosaicTable table = Warehouse.open(dir.resolve("metadata"), pool).open("tt", "g");
    // A scan of v2 running (its pin held) while more is committed and gc runs: v2 stays readable.
    try (TablePin running = table.pin(2)) {
      sql("INSERT INTO tt.g VALUES 7"); // v4
      new GarbageCollector(table).collect(Duration.ZERO);
      assertThat(keys("tt.g FOR VERSION AS OF 2")).containsExactly(1L, 2L, 3L, 4L, 5L);
      assertThat(sql("SELECT version FROM tt.\"g$versions\"").getOnlyColumnAsSet())
          .containsExactlyInAnyOrder(2L, 4L);
    }
    new GarbageCollector(table).collect(Duration.ZERO);
    assertThatThrownBy(() -> sql("SELECT * FROM tt.g FOR VERSION AS OF 3"))
        .hasMessageContaining("table g has no version 3 to read: gc retired it")
        .hasMessageContaining("readable now: only v4 (committed at")
        .hasMessageContaining("run gc less often");
    assertThatThrownBy(() -> sql("SELECT * FROM tt.g FOR VERSION AS OF 2"))
        .hasMessageContaining("gc retired it");
    assertThat(keys("tt.g")).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
  }
}
