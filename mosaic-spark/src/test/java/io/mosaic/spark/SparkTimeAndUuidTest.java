package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.format.ValueCodec;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableReader;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code timestamp_tz}, {@code time} and {@code uuid} columns through Spark (docs/format.md,
 * "Types"): as {@code TimestampType}, {@code time(6)} and strings. A table of the schema Trino
 * creates, written by core's writer with the Arrow vectors Trino's page sink hands it, reads in
 * Spark as the reference values; rows Spark appends are stored as the same microseconds and bytes
 * (what Trino's reader decodes); range filters on each type skip row groups; a string that is not a
 * UUID is refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkTimeAndUuidTest {
  private static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.parse("int64"), false),
              new ColumnSpec("tstz", ColumnType.parse("timestamp_tz"), true),
              new ColumnSpec("t", ColumnType.parse("time"), true),
              new ColumnSpec("u", ColumnType.parse("uuid"), true)));
  private static final StructType SPARK_SCHEMA =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add("tstz", DataTypes.TimestampType, true)
          .add("t", TimeColumnVector.TYPE, true)
          .add("u", DataTypes.StringType, true);
  private static final long T0 = 1_700_000_000_000_000L;
  private static final int ROWS = 3000;

  private Path dir;
  private DevicePool pool;
  private SparkSession spark;
  private final BufferAllocator alloc = new RootAllocator();

  @BeforeAll
  void start(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    Path devices = SparkTestTables.devices(dir);
    pool = DevicePool.load(devices);
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-time-uuid")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "Asia/Kolkata")
            .config(SparkTypes.TIME_TYPE_ENABLED, "true")
            // A plan whose scan node the test can find (no adaptive stages around it).
            .config("spark.sql.adaptive.enabled", "false")
            .config("spark.mosaic.devices", devices.toString())
            .getOrCreate();
  }

  @AfterAll
  void stop() {
    spark.stop();
    alloc.close();
  }

  // Row i's values; every 7th is null. Rows from 2000 have a UUID with the high bit set: last in
  // unsigned (and text) order, first in signed order.
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

  private static Row sparkRow(long i) {
    if (isNull(i)) {
      return RowFactory.create(i, null, null, null);
    }
    long m = micros(i);
    Timestamp ts = Timestamp.from(Instant.ofEpochSecond(m / 1_000_000, (m % 1_000_000) * 1000));
    return RowFactory.create(
        i, ts, LocalTime.ofNanoOfDay(timeMicros(i) * 1000), uuid(i).toString());
  }

  private MosaicTable create(String name) {
    return MosaicTable.create(
        dir.resolve(name), pool, SCHEMA, Map.of(TableProperties.ROW_GROUP_ROWS, "1000"));
  }

  private Dataset<Row> read(String name) {
    return spark.read().format("mosaic").load(dir.resolve(name).toString());
  }

  private static List<String> text(List<Row> rows) {
    return rows.stream().map(Row::toString).toList();
  }

  private List<String> expected(long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(sparkRow(i));
    }
    return text(rows);
  }

  @Test
  void coreWrittenRowsReadAsTheReferenceValuesInSpark() throws IOException {
    MosaicTable table = create("from_core");
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
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
    Dataset<Row> t = read("from_core");
    assertThat(t.schema().fields()[1].dataType()).isEqualTo(DataTypes.TimestampType);
    assertThat(t.schema().fields()[2].dataType()).isEqualTo(TimeColumnVector.TYPE);
    assertThat(t.schema().fields()[3].dataType()).isEqualTo(DataTypes.StringType);
    assertThat(text(t.orderBy("id").collectAsList())).isEqualTo(expected(0, ROWS));
    assertRangesSkipRowGroups("from_core");
  }

  @Test
  void sparkAppendedRowsAreStoredAsTheReferenceMicrosecondsAndBytes() throws IOException {
    MosaicTable table = create("from_spark");
    List<Row> rows = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      rows.add(sparkRow(i));
    }
    spark
        .createDataFrame(rows, SPARK_SCHEMA)
        .coalesce(1)
        .write()
        .format("mosaic")
        .mode("append")
        .save(dir.resolve("from_spark").toString());
    Manifest m = MosaicTable.open(table.root(), pool).latest();
    assertThat(m.rowCount()).isEqualTo(ROWS);
    // What Trino's reader decodes: the segments' values, as core reads them.
    List<String> stored = new ArrayList<>();
    List<String> reference = new ArrayList<>();
    try (TableReader reader = new TableReader(table, m, m.schema().names())) {
      for (int g = 0; g < reader.rowGroupCount(); g++) {
        try (VectorSchemaRoot root = reader.read(g, alloc)) {
          List<FieldVector> v = root.getFieldVectors();
          for (int r = 0; r < root.getRowCount(); r++) {
            Object u = v.get(3).getObject(r);
            stored.add(
                v.get(0).getObject(r)
                    + " "
                    + v.get(1).getObject(r)
                    + " "
                    + v.get(2).getObject(r)
                    + " "
                    + (u == null ? null : ValueCodec.uuid((byte[]) u)));
          }
        }
      }
    }
    for (long i = 0; i < ROWS; i++) {
      reference.add(
          isNull(i)
              ? i + " null null null"
              : i + " " + micros(i) + " " + timeMicros(i) + " " + uuid(i));
    }
    assertThat(stored).isEqualTo(reference);
    assertThat(text(read("from_spark").orderBy("id").collectAsList())).isEqualTo(expected(0, ROWS));
    assertRangesSkipRowGroups("from_spark");
  }

  /** A range on each column reads only the row group it can match, and answers as unfiltered. */
  private void assertRangesSkipRowGroups(String name) {
    assertSkips(name, "tstz >= timestamp_micros(" + micros(2000) + ")", 2000, 3000);
    assertSkips(name, "t < TIME '02:30:00'", 0, 900);
    assertSkips(name, "u >= '" + uuid(2000) + "'", 2000, 3000);
    assertSkips(name, "u < '" + uuid(1000) + "'", 0, 1000);
  }

  private void assertSkips(String name, String where, long from, long to) {
    Dataset<Row> filtered = read(name).filter(where).orderBy("id");
    List<String> rows = text(filtered.collectAsList());
    List<String> want = new ArrayList<>();
    for (long i = from; i < to; i++) {
      if (!isNull(i)) {
        want.add(sparkRow(i).toString());
      }
    }
    assertThat(rows).as(where).isEqualTo(want);
    BatchScanExec scan = MosaicScanTest.scanOf(filtered);
    assertThat(scan.metrics().apply("rowGroupsSkipped").value()).as(where).isEqualTo(2);
  }

  @Test
  void withoutSparksTimeSettingATimeColumnIsRefusedNamingIt() {
    create("time_off");
    spark.conf().set(SparkTypes.TIME_TYPE_ENABLED, "false");
    try {
      assertThatThrownBy(() -> read("time_off").collectAsList())
          .hasStackTraceContaining("column 't' is time")
          .hasStackTraceContaining(SparkTypes.TIME_TYPE_ENABLED + "=true");
    } finally {
      spark.conf().set(SparkTypes.TIME_TYPE_ENABLED, "true");
    }
  }

  @Test
  void aStringThatIsNotAUuidIsRefusedNamingTheColumn() {
    create("bad");
    List<Row> rows = List.of(RowFactory.create(1L, null, null, "not-a-uuid"));
    assertThatThrownBy(
            () ->
                spark
                    .createDataFrame(rows, SPARK_SCHEMA)
                    .write()
                    .format("mosaic")
                    .mode("append")
                    .save(dir.resolve("bad").toString()))
        .hasStackTraceContaining("column 'u' is uuid, but a row has 'not-a-uuid'");
  }
}
