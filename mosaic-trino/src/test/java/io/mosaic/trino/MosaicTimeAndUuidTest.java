package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.ValueCodec;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code timestamp(6) with time zone}, {@code time(6)} and {@code uuid} in Trino (docs/format.md,
 * "Types"): the types Mosaic stores for them, values written by Trino stored as the reference
 * microseconds and bytes (what Spark's reader decodes, SparkTimeAndUuidTest), values written by
 * core's writer as Spark's writer hands them read back as the reference, the zone not kept, other
 * precisions refused, and a range on each type skipping row groups.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicTimeAndUuidTest {
  private static final long T0 = 1_700_000_000_000_000L;
  private static final int ROWS = 3000;

  @TempDir static Path dir;
  private DistributedQueryRunner runner;
  private DevicePool pool;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir);
    pool = DevicePool.load(dir.resolve("devices.toml"));
    runner.execute("CREATE SCHEMA mosaic.tu");
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  // Row i's values; every 7th is null; UUIDs from row 2000 have the high bit set (last unsigned).
  private static boolean isNull(long i) {
    return i % 7 == 3;
  }

  private static long micros(long i) {
    return T0 + i * 1_000_003L;
  }

  private static long timeMicros(long i) {
    return i * 10_000_001L;
  }

  private static UUID uuid(long i) {
    return new UUID(i >= 2000 ? Long.MIN_VALUE | i : i, 0x0123_4567_89ab_cdefL);
  }

  /** Row i as Trino SQL literals. */
  private static String literals(long i) {
    if (isNull(i)) {
      return "(" + i + ", NULL, NULL, NULL)";
    }
    return String.format(
        Locale.ROOT,
        "(%d, %s AT TIME ZONE 'Europe/Warsaw', TIME '%s', UUID '%s')",
        i,
        instant(micros(i)),
        TIME.format(LocalTime.ofNanoOfDay(timeMicros(i) * 1000)),
        uuid(i));
  }

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");
  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS 'UTC'").withZone(ZoneOffset.UTC);

  /** Microseconds since the epoch as a Trino timestamp(6) with time zone expression. */
  private static String instant(long micros) {
    return "CAST(from_unixtime_nanos(" + micros * 1000 + ") AS timestamp(6) with time zone)";
  }

  /** Row i as Trino shows it: UTC (the zone is not kept), time(6), uuid text. */
  private static String shown(long i) {
    if (isNull(i)) {
      return i + ",null,null,null";
    }
    return i
        + ","
        + UTC.format(Instant.ofEpochSecond(micros(i) / 1_000_000, micros(i) % 1_000_000 * 1000))
        + ","
        + TIME.format(LocalTime.ofNanoOfDay(timeMicros(i) * 1000))
        + ","
        + uuid(i);
  }

  private List<String> select(String table, String where) {
    List<String> rows = new ArrayList<>();
    for (MaterializedRow r :
        runner
            .execute(
                "SELECT id, CAST(tstz AS varchar), CAST(t AS varchar), CAST(u AS varchar)"
                    + " FROM mosaic.tu."
                    + table
                    + where
                    + " ORDER BY id")
            .getMaterializedRows()) {
      rows.add(r.getField(0) + "," + r.getField(1) + "," + r.getField(2) + "," + r.getField(3));
    }
    return rows;
  }

  private static List<String> shown(long from, long to, boolean nulls) {
    List<String> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      if (nulls || !isNull(i)) {
        rows.add(shown(i));
      }
    }
    return rows;
  }

  @Test
  void trinoWritesTheReferenceValuesAndRangesSkipRowGroups() {
    runner.execute(
        "CREATE TABLE mosaic.tu.w (id bigint, tstz timestamp(6) with time zone, t time(6), u uuid)"
            + " WITH (row_group_rows = 1000)");
    Session oneWriter =
        Session.builder(runner.getDefaultSession())
            .setSystemProperty("scale_writers", "false")
            .setSystemProperty("redistribute_writes", "false")
            .setSystemProperty("task_min_writer_count", "1")
            .build();
    StringBuilder values = new StringBuilder();
    for (long i = 0; i < ROWS; i++) {
      values.append(i == 0 ? "" : ",").append(literals(i));
    }
    runner.execute(
        oneWriter,
        "INSERT INTO mosaic.tu.w SELECT * FROM (VALUES " + values + ") v(a, b, c, d) ORDER BY a");
    Manifest m = MosaicTable.open(dir.resolve("metadata/tu/w"), pool).latest();
    assertThat(m.schema().column("tstz").type()).isEqualTo(ColumnType.parse("timestamp_tz"));
    assertThat(m.schema().column("t").type()).isEqualTo(ColumnType.parse("time"));
    assertThat(m.schema().column("u").type()).isEqualTo(ColumnType.parse("uuid"));
    assertThat(m.rowGroups()).hasSize(3);
    // The stored values are the reference microseconds and bytes (statistics show them).
    assertThat(m.segmentsOf("tstz").get(0).stats().get(0).min()).isEqualTo(micros(0));
    assertThat(m.segmentsOf("t").get(0).stats().get(2).max())
        .isEqualTo(timeMicros(2998)); // row 2999 is null
    assertThat(ValueCodec.uuid((byte[]) m.segmentsOf("u").get(0).stats().get(2).min()))
        .isEqualTo(uuid(2000));
    assertThat(select("w", "")).isEqualTo(shown(0, ROWS, true));

    assertRangeReadsOneRowGroup("w", " WHERE tstz >= " + instant(micros(2000)), 2000, 3000);
    assertRangeReadsOneRowGroup("w", " WHERE t < TIME '02:30:00.000000'", 0, 900);
    assertRangeReadsOneRowGroup("w", " WHERE u >= UUID '" + uuid(2000) + "'", 2000, 3000);
    assertRangeReadsOneRowGroup("w", " WHERE u < UUID '" + uuid(1000) + "'", 0, 1000);
  }

  private void assertRangeReadsOneRowGroup(String table, String where, long from, long to) {
    assertThat(select(table, where)).as(where).isEqualTo(shown(from, to, false));
    MaterializedResultWithPlan r =
        runner.executeWithPlan(
            runner.getDefaultSession(), "SELECT id FROM mosaic.tu." + table + where);
    assertThat((long) r.result().getRowCount()).isEqualTo(shown(from, to, false).size());
    // Two columns (id and the filtered one) of one row group of three, read or shared with the
    // scan of the query before (cooperative scans).
    Map<String, Long> metrics = MosaicQueryRunner.connectorMetrics(runner, r.queryId());
    assertThat(
            metrics.getOrDefault(MosaicPageSource.CHUNKS_READ, 0L)
                + metrics.getOrDefault(MosaicPageSource.CHUNKS_SHARED, 0L))
        .as(where)
        .isEqualTo(2L);
  }

  @Test
  void rowsCoreWritesAsSparksWriterDoesReadAsTheReference() throws Exception {
    runner.execute(
        "CREATE TABLE mosaic.tu.s (id bigint, tstz timestamp(6) with time zone, t time(6), u uuid)"
            + " WITH (row_group_rows = 1000)");
    MosaicTable table = MosaicTable.open(dir.resolve("metadata/tu/s"), pool);
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch =
            VectorSchemaRoot.create(table.latest().schema().arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int i = 0; i < ROWS; i++) {
        ((BigIntVector) batch.getVector(0)).setSafe(i, i);
        if (isNull(i)) {
          for (int c = 1; c < 4; c++) {
            batch.getVector(c).setNull(i);
          }
          continue;
        }
        ((TimeStampMicroTZVector) batch.getVector(1)).setSafe(i, micros(i));
        ((TimeMicroVector) batch.getVector(2)).setSafe(i, timeMicros(i));
        ((FixedSizeBinaryVector) batch.getVector(3)).setSafe(i, ValueCodec.uuidBytes(uuid(i)));
      }
      batch.setRowCount(ROWS);
      writer.write(batch);
      table.append(List.of(writer.finish()));
    }
    assertThat(select("s", "")).isEqualTo(shown(0, ROWS, true));
  }

  @Test
  void otherPrecisionsAreRefusedNamingTheOneStored() {
    assertThatThrownBy(
            () -> runner.execute("CREATE TABLE mosaic.tu.p9 (x timestamp(9) with time zone)"))
        .hasMessageContaining("has type timestamp(9) with time zone")
        .hasMessageContaining("use timestamp(6) with time zone");
    assertThatThrownBy(() -> runner.execute("CREATE TABLE mosaic.tu.p3 (x time(3))"))
        .hasMessageContaining("use time(6)");
  }
}
