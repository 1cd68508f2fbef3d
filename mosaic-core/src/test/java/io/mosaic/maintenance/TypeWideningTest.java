package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.segment.DeviceInputFile;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.SchemaChange;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TableWriter;
import io.mosaic.table.TestPool;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER COLUMN ... TYPE to a wider type (docs/format.md, "Column ids"): no segment is rewritten,
 * old ones are widened as every reader reads them (value path, scans with pushed-down predicates,
 * compaction, migration), and compaction leaves segments of the new type.
 */
class TypeWideningTest {
  static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.parse("int64"), false),
              new ColumnSpec("small", ColumnType.parse("int8"), true),
              new ColumnSpec("n", ColumnType.parse("int32"), true),
              new ColumnSpec("f", ColumnType.parse("float"), true),
              new ColumnSpec("d", ColumnType.parse("decimal(9,2)"), true),
              new ColumnSpec("s", ColumnType.parse("string"), true)));

  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  /** Row {@code i} in the types of {@code schema}; every 5th row holds NULLs. */
  private static List<Object> row(TableSchema schema, long i) {
    boolean nulls = i % 5 == 3;
    List<Object> row = new ArrayList<>();
    row.add(i);
    long n = (i * 7919) % 2000 - 1000;
    for (int c = 1; c < schema.columns().size(); c++) {
      ColumnType t = schema.columns().get(c).type();
      Object v =
          switch (c) {
            case 1 -> n % 100;
            case 2 -> n * 1_000_003L;
            case 3 -> n / 8.0 + 0.1;
            case 4 -> BigDecimal.valueOf(n * 1234567L % 99_999_999L, 2);
            default -> "s" + i;
          };
      row.add(nulls && c < 5 ? null : typed(t, v));
    }
    return row;
  }

  /** {@code v} as the value {@code t}'s Arrow vector gives back. */
  private static Object typed(ColumnType t, Object v) {
    return switch (t.kind()) {
      case INT8 -> (byte) (long) (Long) v;
      case INT16 -> (short) (long) (Long) v;
      case INT32 -> (int) (long) (Long) v;
      case INT64 -> (Long) v;
      case FLOAT -> (float) (double) (Double) v;
      case DOUBLE -> v instanceof Float f ? (double) f : (Double) v;
      default -> v;
    };
  }

  private static List<List<Object>> rows(TableSchema schema, long from, long to) {
    List<List<Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(row(schema, i));
    }
    return rows;
  }

  /** {@code rows} in the types of {@code to}: what the widened column reads back. */
  private static List<List<Object>> widened(TableSchema to, List<List<Object>> rows) {
    return rows.stream()
        .map(
            r -> {
              List<Object> out = new ArrayList<>();
              for (int c = 0; c < r.size(); c++) {
                Object v = r.get(c);
                ColumnType t = to.columns().get(c).type();
                out.add(
                    v == null
                        ? null
                        : v instanceof Number x && !(v instanceof BigDecimal)
                            ? typed(t, x instanceof Float f ? (Object) (double) f : x.longValue())
                            : v);
              }
              return out;
            })
        .toList();
  }

  private WriteResult written(MosaicTable table, List<List<Object>> rows) throws IOException {
    TableSchema schema = table.latest().schema();
    try (TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      batch.allocateNew();
      for (int c = 0; c < schema.columns().size(); c++) {
        FieldVector v = batch.getVector(c);
        for (int i = 0; i < rows.size(); i++) {
          Object x = rows.get(i).get(c);
          if (x == null) {
            v.setNull(i);
            continue;
          }
          if (v instanceof TinyIntVector b) {
            b.setSafe(i, (Byte) x);
          } else if (v instanceof SmallIntVector b) {
            b.setSafe(i, (Short) x);
          } else if (v instanceof IntVector b) {
            b.setSafe(i, (Integer) x);
          } else if (v instanceof BigIntVector b) {
            b.setSafe(i, (Long) x);
          } else if (v instanceof Float4Vector b) {
            b.setSafe(i, (Float) x);
          } else if (v instanceof Float8Vector b) {
            b.setSafe(i, (Double) x);
          } else if (v instanceof DecimalVector b) {
            b.setSafe(i, (BigDecimal) x);
          } else {
            ((VarCharVector) v).setSafe(i, ((String) x).getBytes(StandardCharsets.UTF_8));
          }
        }
      }
      batch.setRowCount(rows.size());
      writer.write(batch);
      return writer.finish();
    }
  }

  private MosaicTable table(DevicePool pool) {
    return MosaicTable.create(
        dir.resolve("t"), pool, SCHEMA, Map.of(TableProperties.ROW_GROUP_ROWS, "100"));
  }

  private static final List<SchemaChange> WIDEN =
      List.of(
          new SchemaChange.SetColumnType("small", ColumnType.parse("int16")),
          new SchemaChange.SetColumnType("N", ColumnType.parse("int64")),
          new SchemaChange.SetColumnType("f", ColumnType.parse("double")),
          // From Parquet INT32 to FIXED_LEN_BYTE_ARRAY: another physical type, the same values.
          new SchemaChange.SetColumnType("d", ColumnType.parse("decimal(20,2)")));

  private List<List<Object>> scan(DevicePool pool, MosaicTable table, Predicate where) {
    List<List<Object>> rows = new ArrayList<>();
    try (Retriever retriever = new Retriever(pool);
        Scan scan =
            retriever.scan(
                table,
                ScanRequest.of(table.latest().schema().names()).where(where).recorded(false))) {
      while (scan.hasNext()) {
        rows.addAll(TableFixtures.values(scan.next()));
      }
    }
    return rows;
  }

  /** The Parquet type of each segment of {@code column}, as its footer says. */
  private static List<ColumnType> storedTypes(DevicePool pool, Manifest m, String column)
      throws IOException {
    List<ColumnType> types = new ArrayList<>();
    for (SegmentEntry s : m.segmentsOf(column)) {
      DeviceInputFile file = DeviceInputFile.direct(pool.device(s.device()), s.path());
      try (ParquetFileReader r =
          ParquetFileReader.open(file, SegmentReader.readOptions().build())) {
        PrimitiveType p = r.getFooter().getFileMetaData().getSchema().getType(0).asPrimitiveType();
        types.add(ColumnType.fromParquet(p));
      }
    }
    return types;
  }

  @Test
  void oldSegmentsReadWidenedThroughEveryReaderUntilCompactionRewritesThem() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool);
    List<List<Object>> before = rows(SCHEMA, 0, 250);
    table.append(List.of(written(table, before)));
    Manifest old = table.latest();

    Manifest altered = table.alter(WIDEN);
    TableSchema wide = altered.schema();
    assertThat(wide.columns().stream().map(c -> c.type().toString()))
        .containsExactly("int64", "int16", "int64", "double", "decimal(20,2)", "string");
    assertThat(wide.ids()).isEqualTo(SCHEMA.ids());
    // No segment rewritten: the same entries, still of the narrower Parquet types.
    assertThat(altered.segments()).isEqualTo(old.segments());
    assertThat(storedTypes(pool, altered, "n")).containsOnly(ColumnType.parse("int32"));

    List<List<Object>> after = rows(wide, 250, 330);
    for (int i = 0; i < after.size(); i += 10) { // small inserts, for compaction to merge
      table.append(List.of(written(table, after.subList(i, i + 10))));
    }
    List<List<Object>> all = new ArrayList<>(widened(wide, before));
    all.addAll(after);
    MosaicTable reopened = MosaicTable.open(table.root(), pool); // runs Manifest#check
    assertThat(TableRoundTripTest.rows(reopened, reopened.latest(), alloc)).isEqualTo(all);
    assertThat(scan(pool, reopened, Predicate.of())).isEqualTo(all);
    // Time travel reads the version before the change in its own types.
    assertThat(TableRoundTripTest.rows(reopened, reopened.version(old.version()), alloc))
        .isEqualTo(before);

    // Predicates in the new types, on old and new segments: the rows they match are all there.
    long lo = -200_000_000L;
    long hi = 300_000_000L;
    List<List<Object>> hit = scan(pool, reopened, Predicate.of(Predicate.between("n", lo, hi)));
    List<List<Object>> want =
        all.stream()
            .filter(r -> r.get(2) != null && (Long) r.get(2) >= lo && (Long) r.get(2) <= hi)
            .toList();
    assertThat(hit).containsAll(want);
    assertThat(scan(pool, reopened, Predicate.of(Predicate.gt("f", 1e9)))).isEmpty();
    BigDecimal d = (BigDecimal) all.get(7).get(4);
    assertThat(scan(pool, reopened, Predicate.of(Predicate.eq("d", d)))).contains(all.get(7));

    // Compaction reads the old segments widened and writes segments of the new types.
    TableCompactor.Result result =
        new TableCompactor(reopened).optimize(new TableCompactor.Listener() {});
    assertThat(result.compacted()).isTrue();
    Manifest compacted = reopened.latest();
    assertThat(storedTypes(pool, compacted, "n")).containsOnly(ColumnType.parse("int64"));
    assertThat(storedTypes(pool, compacted, "d")).containsOnly(ColumnType.parse("decimal(20,2)"));
    assertThat(TableRoundTripTest.rows(reopened, compacted, alloc)).isEqualTo(all);
  }

  @Test
  void onlyWideningsAreAllowedAndARefusalNamesThemAndChangesNothing() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool);
    table.append(List.of(written(table, rows(SCHEMA, 0, 120))));
    Manifest before = table.latest();
    for (SchemaChange refused :
        List.of(
            new SchemaChange.SetColumnType("id", ColumnType.parse("int32")),
            new SchemaChange.SetColumnType("n", ColumnType.parse("double")),
            new SchemaChange.SetColumnType("s", ColumnType.parse("int64")),
            new SchemaChange.SetColumnType("d", ColumnType.parse("decimal(12,4)")),
            new SchemaChange.SetColumnType("d", ColumnType.parse("decimal(8,2)")))) {
      assertThatThrownBy(() -> table.alter(refused))
          .isInstanceOf(MosaicException.class)
          .hasMessageContaining("cannot change column '")
          .hasMessageContaining(ColumnType.WIDENINGS)
          .hasMessageContaining("add a column of the new type");
    }
    assertThat(table.latest().version()).isEqualTo(before.version());
    // Setting the type a column has is no change of values, and allowed (an engine's note may go
    // with it).
    Manifest same =
        table.alter(
            new SchemaChange.SetColumnType("s", ColumnType.parse("string"), Map.of("note", "x")));
    assertThat(same.properties()).containsEntry("note", "x");
  }

  @Test
  void anAppendStartedBeforeTheWideningCommitsAfterItAndReadsWidened() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = table(pool);
    List<List<Object>> first = rows(SCHEMA, 0, 150);
    table.append(List.of(written(table, first)));
    List<List<Object>> late = rows(SCHEMA, 150, 260);
    WriteResult pending = written(table, late); // in the narrower types
    Manifest altered = table.alter(WIDEN);
    table.append(List.of(pending));
    List<List<Object>> all = new ArrayList<>(widened(altered.schema(), first));
    all.addAll(widened(altered.schema(), late));
    MosaicTable reopened = MosaicTable.open(table.root(), pool);
    assertThat(scan(pool, reopened, Predicate.of())).isEqualTo(all);

    // A migration re-encodes old segments through the same widening reader, in the new type.
    Manifest m = reopened.latest();
    Codec other = m.segmentsOf("n").get(0).codec() == Codec.ZSTD ? Codec.LZ4 : Codec.ZSTD;
    Migrator migrator = new Migrator(reopened);
    migrator.apply(migrator.planCodec("n", other), new Migrator.Listener() {});
    assertThat(reopened.latest().segmentsOf("n"))
        .allSatisfy(s -> assertThat(s.codec()).isEqualTo(other));
    assertThat(storedTypes(pool, reopened.latest(), "n")).containsOnly(ColumnType.parse("int64"));
    assertThat(scan(pool, reopened, Predicate.of())).isEqualTo(all);
  }

  @Test
  void widensFromIsIcebergsPromotionsPlusNarrowIntegers() {
    assertThat(ColumnType.parse("int64").widensFrom(ColumnType.parse("int8"))).isTrue();
    assertThat(ColumnType.parse("int32").widensFrom(ColumnType.parse("int16"))).isTrue();
    assertThat(ColumnType.parse("double").widensFrom(ColumnType.parse("float"))).isTrue();
    assertThat(ColumnType.parse("decimal(38,3)").widensFrom(ColumnType.parse("decimal(10,3)")))
        .isTrue();
    assertThat(ColumnType.parse("int32").widensFrom(ColumnType.parse("int64"))).isFalse();
    assertThat(ColumnType.parse("double").widensFrom(ColumnType.parse("int32"))).isFalse();
    assertThat(ColumnType.parse("int64").widensFrom(ColumnType.parse("date"))).isFalse();
    assertThat(ColumnType.parse("timestamp_tz").widensFrom(ColumnType.parse("timestamp")))
        .isFalse();
    assertThat(ColumnType.parse("decimal(12,3)").widensFrom(ColumnType.parse("decimal(10,2)")))
        .isFalse();
    assertThat(ColumnType.parse("int64").widensFrom(ColumnType.parse("int64"))).isFalse();
  }
}
