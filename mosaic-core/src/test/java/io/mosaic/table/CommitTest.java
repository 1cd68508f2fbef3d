package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.TableSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class CommitTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  public static final TableSchema ALL_TYPES =
      new TableSchema(
          List.of(
              new ColumnSpec("b", ColumnType.parse("boolean"), true),
              new ColumnSpec("i8", ColumnType.parse("int8"), true),
              new ColumnSpec("i16", ColumnType.parse("int16"), true),
              new ColumnSpec("i32", ColumnType.parse("int32"), true),
              new ColumnSpec("i64", ColumnType.parse("int64"), true),
              new ColumnSpec("f", ColumnType.parse("float"), true),
              new ColumnSpec("d", ColumnType.parse("double"), true),
              new ColumnSpec("dec9", ColumnType.parse("decimal(9,3)"), true),
              new ColumnSpec("dec18", ColumnType.parse("decimal(18,4)"), true),
              new ColumnSpec("dec38", ColumnType.parse("decimal(38,10)"), true),
              new ColumnSpec("day", ColumnType.parse("date"), true),
              new ColumnSpec("ts", ColumnType.parse("timestamp"), true),
              new ColumnSpec("s", ColumnType.parse("string"), true),
              new ColumnSpec("bin", ColumnType.parse("binary"), true)));

  /** Row {@code i} of the all-types table: every 5th value of each column is null. */
  public static void fill(VectorSchemaRoot root, int rows, int seed) {
    fill(root, rows, seed, 5);
  }

  /** Every {@code nullEvery}-th value of each column null (shifted per column); 0: no nulls. */
  public static void fill(VectorSchemaRoot root, int rows, int seed, int nullEvery) {
    root.allocateNew();
    List<FieldVector> v = root.getFieldVectors();
    for (int i = 0; i < rows; i++) {
      int k = i + seed;
      for (int c = 0; c < v.size(); c++) {
        if (nullEvery > 0 && (k + c) % nullEvery == 0) {
          v.get(c).setNull(i);
        } else {
          set(v.get(c), c, i, k);
        }
      }
    }
    root.setRowCount(rows);
  }

  private static void set(FieldVector v, int column, int i, int k) {
    switch (column) {
      case 0 -> ((BitVector) v).setSafe(i, k % 2);
      case 1 -> ((TinyIntVector) v).setSafe(i, (byte) (k % 256 - 128));
      case 2 -> ((SmallIntVector) v).setSafe(i, (short) (k * 7 - 30_000));
      case 3 -> ((IntVector) v).setSafe(i, k * 31 - 1_000_000);
      case 4 -> ((BigIntVector) v).setSafe(i, (long) k * 1_000_000_007L - (1L << 40));
      case 5 -> ((Float4Vector) v).setSafe(i, k / 7f);
      case 6 -> ((Float8Vector) v).setSafe(i, -k / 3.0);
      case 7 -> ((DecimalVector) v).setSafe(i, BigDecimal.valueOf(k * 1001L - 50_000, 3));
      case 8 -> ((DecimalVector) v).setSafe(i, BigDecimal.valueOf(-k * 123_456_789L, 4));
      case 9 ->
          ((DecimalVector) v)
              .setSafe(
                  i, new BigDecimal("-12345678901234567890.0123456789").add(BigDecimal.valueOf(k)));
      case 10 -> ((DateDayVector) v).setSafe(i, 19_000 + k % 3000);
      case 11 -> ((TimeStampMicroTZVector) v).setSafe(i, 1_700_000_000_000_000L + k * 1_000_003L);
      // 1000 distinct strings: dictionary-encoded; the binary values below are too distinct to be.
      case 12 ->
          ((VarCharVector) v).setSafe(i, ("ünï " + k % 1000).getBytes(StandardCharsets.UTF_8));
      default -> ((VarBinaryVector) v).setSafe(i, new byte[] {(byte) k, 0, (byte) (k >> 8)});
    }
  }

  private WriteResult write(MosaicTable table, int rows, int seed) throws IOException {
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch =
            VectorSchemaRoot.create(table.latest().schema().arrowSchema(), alloc)) {
      fill(batch, rows, seed);
      writer.write(batch);
      return writer.finish();
    }
  }

  @Test
  void everyTypeRoundTripsWithNulls() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("types"), pool, ALL_TYPES, TableRoundTripTest.spread(ALL_TYPES));
    Manifest m = table.append(List.of(write(table, 5000, 0)));
    List<List<Object>> expected;
    try (VectorSchemaRoot batch = VectorSchemaRoot.create(ALL_TYPES.arrowSchema(), alloc)) {
      fill(batch, 5000, 0);
      expected = TableRoundTripTest.values(batch);
    }
    assertThat(expected.get(0)).contains((Object) null);
    assertThat(TableRoundTripTest.rows(table, m, alloc)).isEqualTo(expected);
    // Statistics are typed per column.
    RowGroupStats dec38 = m.segmentsOf("dec38").get(0).stats().get(0);
    assertThat(dec38.min()).isInstanceOf(BigDecimal.class);
    assertThat(m.segmentsOf("s").get(0).stats().get(0).nulls()).isEqualTo(1000);
    // The manifest round-trips through its JSON form unchanged.
    assertThat(MosaicTable.open(table.root(), pool).latest().segments())
        .usingRecursiveComparison()
        .isEqualTo(m.segments());
  }

  @Test
  void racingAppendsAllLand() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    TableSchema schema = TpchBatches.schema("k int64");
    MosaicTable table = MosaicTable.create(dir.resolve("race"), pool, schema, Map.of());
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<?>> jobs = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      int me = t;
      jobs.add(
          threads.submit(
              () -> {
                // Each thread opens the table on its own, as separate engines would.
                MosaicTable mine = MosaicTable.open(table.root(), pool);
                for (int n = 0; n < 10; n++) {
                  try (TableWriter writer = mine.newWriter();
                      VectorSchemaRoot batch =
                          VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
                    BigIntVector k = (BigIntVector) batch.getVector(0);
                    k.allocateNew(3);
                    for (int i = 0; i < 3; i++) {
                      k.set(i, me * 1000L + n * 10 + i);
                    }
                    batch.setRowCount(3);
                    writer.write(batch);
                    mine.append(List.of(writer.finish()));
                  }
                }
                return null;
              }));
    }
    for (Future<?> job : jobs) {
      job.get();
    }
    threads.shutdown();
    Manifest m = table.latest();
    assertThat(m.version()).isEqualTo(41);
    assertThat(m.rowCount()).isEqualTo(120);
    List<Long> keys = new ArrayList<>();
    TableRoundTripTest.rows(table, m, alloc).forEach(r -> keys.add((Long) r.get(0)));
    Long[] sorted = keys.toArray(new Long[0]);
    Arrays.sort(sorted);
    List<Long> want = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      for (int n = 0; n < 10; n++) {
        for (int i = 0; i < 3; i++) {
          want.add(t * 1000L + n * 10 + i);
        }
      }
    }
    assertThat(sorted).containsExactlyElementsOf(want);
  }

  @Test
  void overwriteReplacesAndAFailedJobLeavesNoVersion() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = MosaicTable.create(dir.resolve("t"), pool, ALL_TYPES, Map.of());
    table.append(List.of(write(table, 100, 0)));
    long before = table.latest().version();
    // A task that fails (closed without finish) commits nothing and removes its files.
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(ALL_TYPES.arrowSchema(), alloc)) {
      fill(batch, 10, 0);
      writer.write(batch);
    }
    assertThat(table.latest().version()).isEqualTo(before);
    Manifest m = table.overwrite(List.of(write(table, 7, 3)));
    assertThat(m.rowCount()).isEqualTo(7);
    assertThat(m.operation()).isEqualTo("overwrite");
    assertThatThrownBy(
            () ->
                table.append(
                    List.of(new WriteResult("w", TpchBatches.ORDERS, List.of(), List.of()))))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageStartingWith(
            "schema mismatch writing to table t: the data has (o_orderkey int64 not null");
  }
}
