package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.format.ValueCodec;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code timestamp_tz}, {@code time} and {@code uuid} columns (docs/format.md, "Column types"):
 * their Parquet types, a round trip with nulls through segments, typed statistics that survive the
 * manifest's JSON, and row-group pruning in each type's order (UUIDs unsigned, as Parquet and Trino
 * order them). Both engines' writers hand core these Arrow vectors, so what is asserted here is
 * what each engine's reader gets from the other's segments.
 */
class TimeAndUuidColumnsTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  private static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.parse("int64"), false),
              new ColumnSpec("tstz", ColumnType.parse("timestamp_tz"), true),
              new ColumnSpec("t", ColumnType.parse("time"), true),
              new ColumnSpec("u", ColumnType.parse("uuid"), true)));

  private static final int ROWS = 3000;
  private static final long T0 = 1_700_000_000_000_000L;

  // Rows 2000 and above have the high bit set: last in unsigned order, first in signed order.
  private static UUID uuid(int i) {
    long high = i >= 2000 ? Long.MIN_VALUE | i : i;
    return new UUID(high, 0x0123_4567_89ab_cdefL);
  }

  @Test
  void parquetTypesAreTheStandardLogicalTypes() {
    assertThat(SCHEMA.column("tstz").type().parquetType("tstz", true).toString())
        .isEqualTo("optional int64 tstz (TIMESTAMP(MICROS,true))");
    assertThat(SCHEMA.column("t").type().parquetType("t", true).toString())
        .isEqualTo("optional int64 t (TIME(MICROS,false))");
    assertThat(SCHEMA.column("u").type().parquetType("u", false).toString())
        .isEqualTo("required fixed_len_byte_array(16) u (UUID)");
    // Imports map them back (a TIMESTAMP(MICROS,true) column stays Spark's timestamp).
    assertThat(
            ColumnType.fromParquet(
                (PrimitiveType) SCHEMA.column("t").type().parquetType("t", true)))
        .isEqualTo(ColumnType.parse("time"));
    assertThat(
            ColumnType.fromParquet(
                (PrimitiveType) SCHEMA.column("u").type().parquetType("u", true)))
        .isEqualTo(ColumnType.parse("uuid"));
    assertThat(ColumnType.parse("timestamp_tz").toString()).isEqualTo("timestamp_tz");
    assertThat(ColumnType.SUPPORTED).contains("timestamp_tz", "time", "uuid");
  }

  @Test
  void valuesAndNullsRoundTripAndStatisticsPruneInEachTypesOrder() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"), pool, SCHEMA, Map.of(TableProperties.ROW_GROUP_ROWS, "1000"));
    List<List<Object>> expected = new ArrayList<>();
    Manifest m;
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int i = 0; i < ROWS; i++) {
        ((BigIntVector) batch.getVector(0)).setSafe(i, i);
        boolean isNull = i % 7 == 3;
        TimeStampMicroTZVector tstz = (TimeStampMicroTZVector) batch.getVector(1);
        TimeMicroVector t = (TimeMicroVector) batch.getVector(2);
        FixedSizeBinaryVector u = (FixedSizeBinaryVector) batch.getVector(3);
        if (isNull) {
          tstz.setNull(i);
          t.setNull(i);
          u.setNull(i);
        } else {
          tstz.setSafe(i, T0 + i * 1_000_003L);
          t.setSafe(i, i * 10_000_001L);
          u.setSafe(i, ValueCodec.uuidBytes(uuid(i)));
        }
      }
      batch.setRowCount(ROWS);
      expected.addAll(TableRoundTripTest.values(batch));
      writer.write(batch);
      m = table.append(List.of(writer.finish()));
    }
    assertThat(expected.get(3)).containsExactly(3L, null, null, null);
    assertThat(TableRoundTripTest.rows(table, m, alloc)).isEqualTo(expected);

    // Statistics: micros as Long, UUIDs as their bytes, min/max in unsigned byte order.
    RowGroupStats ts = m.segmentsOf("tstz").get(0).stats().get(0);
    assertThat(ts.min()).isEqualTo(T0);
    assertThat(ts.nulls()).isEqualTo(143);
    assertThat(m.segmentsOf("t").get(0).stats().get(2).max())
        .isEqualTo(2998 * 10_000_001L); // row 2999 is null
    RowGroupStats last = m.segmentsOf("u").get(0).stats().get(2);
    assertThat(ValueCodec.uuid((byte[]) last.min())).isEqualTo(uuid(2000));
    assertThat(ValueCodec.uuid((byte[]) last.max())).isEqualTo(uuid(2998));
    // The manifest's JSON form (UUIDs as text) reads back the same statistics.
    Manifest reopened = MosaicTable.open(table.root(), pool).latest();
    assertThat(reopened.segments()).usingRecursiveComparison().isEqualTo(m.segments());
    assertThat(TableRoundTripTest.rows(table, reopened, alloc)).isEqualTo(expected);

    // Range predicates prune row groups in each type's order.
    assertThat(select(m, Predicate.ge("tstz", Instant.ofEpochSecond(1_700_002_000L, 6_000_000L))))
        .containsExactly(2);
    assertThat(select(m, Predicate.lt("t", LocalTime.ofSecondOfDay(9_000)))).containsExactly(0);
    assertThat(select(m, Predicate.ge("u", uuid(2000)))).containsExactly(2);
    assertThat(select(m, Predicate.lt("u", uuid(1000)))).containsExactly(0);
    // Canonical text (Spark's form of a uuid) compares as the bytes do; other text is refused.
    assertThat(select(m, Predicate.le("u", uuid(1500).toString()))).containsExactly(0, 1);
    assertThatThrownBy(() -> select(m, Predicate.le("u", uuid(1500).toString().toUpperCase())))
        .isInstanceOf(MosaicException.class)
        .hasMessageContaining("does not fit column u of type uuid");
  }

  private static List<Integer> select(Manifest m, io.mosaic.scan.ColumnPredicate term) {
    return RowGroupFilter.bind("t", m, Predicate.of(term)).select(0, m.rowGroups().size());
  }
}
