package io.mosaic.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TestPool;
import io.mosaic.table.TpchBatches;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mosaic import}: Parquet files become a table, chunks copied where codecs match. */
class ImportTest {
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  /** Orders as Spark writes them: INT64 decimals, INT32 dates, UTF-8 strings. */
  static final MessageType ORDERS_PARQUET =
      MessageTypeParser.parseMessageType(
          """
          message spark_schema {
            required int64 o_orderkey;
            required int64 o_custkey;
            required binary o_orderstatus (STRING);
            required int64 o_totalprice (DECIMAL(12,2));
            required int32 o_orderdate (DATE);
            required binary o_orderpriority (STRING);
            required binary o_clerk (STRING);
            required int32 o_shippriority;
            required binary o_comment (STRING);
          }
          """);

  /** Writes orders (SF 0.02) as Parquet with {@code codec}; returns the rows written. */
  private List<List<Object>> writeParquet(Path file, CompressionCodecName codec)
      throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    SimpleGroupFactory groups = new SimpleGroupFactory(ORDERS_PARQUET);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(ORDERS_PARQUET)
            .withCompressionCodec(codec)
            .withRowGroupSize(512 * 1024L)
            .build()) {
      TpchBatches.orders(
          0.02,
          4096,
          alloc,
          (VectorSchemaRoot batch) -> {
            for (List<Object> row : TableRoundTripTest.values(batch)) {
              rows.add(row);
              Group g = groups.newGroup();
              g.add("o_orderkey", (Long) row.get(0));
              g.add("o_custkey", (Long) row.get(1));
              g.add("o_orderstatus", (String) row.get(2));
              g.add("o_totalprice", ((BigDecimal) row.get(3)).unscaledValue().longValueExact());
              g.add("o_orderdate", (Integer) row.get(4));
              g.add("o_orderpriority", (String) row.get(5));
              g.add("o_clerk", (String) row.get(6));
              g.add("o_shippriority", (Integer) row.get(7));
              g.add("o_comment", (String) row.get(8));
              try {
                writer.write(g);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          });
    }
    return rows;
  }

  @Test
  void importsEqualRowByRowCopyingChunksWhoseCodecMatches() throws IOException {
    Path zstd = dir.resolve("part-0.zstd.parquet");
    Path snappy = dir.resolve("part-1.snappy.parquet");
    List<List<Object>> expected = new ArrayList<>(writeParquet(zstd, CompressionCodecName.ZSTD));
    expected.addAll(writeParquet(snappy, CompressionCodecName.SNAPPY));

    DevicePool pool = TestPool.fourDevices(dir);
    TableSchema schema = ParquetImporter.schemaOf(zstd);
    assertThat(schema).isEqualTo(TpchBatches.ORDERS);
    MosaicTable table =
        MosaicTable.create(dir.resolve("orders"), pool, schema, TableRoundTripTest.spread(schema));
    List<String> copied = new ArrayList<>();
    ParquetImporter.Summary summary =
        new ParquetImporter(table)
            .importFiles(
                List.of(zstd, snappy),
                new ParquetImporter.Listener() {
                  @Override
                  public void column(Path file, String column, boolean copy, long bytes) {
                    if (copy) {
                      copied.add(file.getFileName() + ":" + column);
                    }
                  }
                });
    assertThat(summary.manifest().version()).isEqualTo(2);
    assertThat(summary.rows()).isEqualTo(expected.size());
    // Columns on the zstd devices (nvme: 0, 4, 8; hdd: 3, 7) copy from the zstd file only.
    assertThat(copied)
        .containsExactlyInAnyOrder(
            "part-0.zstd.parquet:o_orderkey",
            "part-0.zstd.parquet:o_orderdate",
            "part-0.zstd.parquet:o_comment",
            "part-0.zstd.parquet:o_totalprice",
            "part-0.zstd.parquet:o_shippriority");
    assertThat(summary.reencodedChunks()).isPositive();
    TableRoundTripTest.assertRowsEqual(table, summary.manifest(), expected, alloc);

    // Byte for byte: the first row group's o_comment chunk is the input's chunk.
    SegmentEntry segment = summary.manifest().segmentsOf("o_comment").get(0);
    Path segmentFile = pool.device(segment.device()).resolve(segment.path());
    assertThat(chunkBytes(segmentFile, 0, 0)).isEqualTo(chunkBytes(zstd, 0, 8));
  }

  /** Writes rows as a Spark-like Parquet file (the table schema's own Parquet types). */
  static void writeParquet(Path file, TableSchema schema, List<List<Object>> rows)
      throws IOException {
    MessageType type =
        new MessageType(
            "spark_schema",
            schema.columns().stream()
                .map(c -> c.type().parquetType(c.name(), c.nullable()))
                .toList());
    SimpleGroupFactory groups = new SimpleGroupFactory(type);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withType(type)
            .withCompressionCodec(CompressionCodecName.ZSTD)
            .withRowGroupSize(16L << 20)
            .build()) {
      for (List<Object> row : rows) {
        Group g = groups.newGroup();
        for (int c = 0; c < row.size(); c++) {
          String name = schema.columns().get(c).name();
          Object v = row.get(c);
          if (v instanceof Long l) {
            g.add(name, l);
          } else if (v instanceof Integer i) {
            g.add(name, i);
          } else if (v instanceof BigDecimal d) {
            g.add(name, d.unscaledValue().longValueExact());
          } else {
            g.add(name, (String) v);
          }
        }
        writer.write(g);
      }
    }
  }

  @Test
  void tpchSf01LineitemAndOrdersImportEqualRowByRow() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    for (TableSchema schema : List.of(TpchBatches.LINEITEM, TpchBatches.ORDERS)) {
      List<List<Object>> expected = new ArrayList<>();
      if (schema == TpchBatches.LINEITEM) {
        TpchBatches.lineitem(
            0.1,
            0,
            Long.MAX_VALUE,
            8192,
            alloc,
            b -> expected.addAll(TableRoundTripTest.values(b)));
      } else {
        TpchBatches.orders(0.1, 8192, alloc, b -> expected.addAll(TableRoundTripTest.values(b)));
      }
      Path file = dir.resolve(schema.columns().get(0).name() + ".parquet");
      writeParquet(file, schema, expected);
      MosaicTable table =
          MosaicTable.create(
              dir.resolve("t-" + schema.columns().size()),
              pool,
              schema,
              TableRoundTripTest.spread(schema));
      ParquetImporter.Summary summary =
          new ParquetImporter(table).importFiles(List.of(file), new ParquetImporter.Listener() {});
      assertThat(summary.rows()).isEqualTo(schema == TpchBatches.LINEITEM ? 600_572 : 150_000);
      assertThat(summary.copiedChunks()).isPositive();
      TableRoundTripTest.assertRowsEqual(table, summary.manifest(), expected, alloc);
    }
  }

  private static byte[] chunkBytes(Path file, int block, int column) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      ColumnChunkMetaData chunk = reader.getRowGroups().get(block).getColumns().get(column);
      byte[] all = Files.readAllBytes(file);
      return Arrays.copyOfRange(
          all, (int) chunk.getStartingPos(), (int) (chunk.getStartingPos() + chunk.getTotalSize()));
    }
  }

  @Test
  void nestedFilesAndSchemaMismatchesAreRefusedWithNothingCommitted() throws IOException {
    Path nested = dir.resolve("nested.parquet");
    MessageType type =
        MessageTypeParser.parseMessageType(
            "message m { required int64 id; optional group tags (LIST) { repeated group list {"
                + " optional binary element (STRING); } } }");
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(nested)).withType(type).build()) {
      writer.write(new SimpleGroupFactory(type).newGroup().append("id", 1L));
    }
    assertThatThrownBy(() -> ParquetImporter.schemaOf(nested))
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.UNSUPPORTED)
        .hasMessageStartingWith(nested + ": column 'tags' is nested or repeated");

    Path zstd = dir.resolve("orders.parquet");
    writeParquet(zstd, CompressionCodecName.ZSTD);
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("other"),
            pool,
            TpchBatches.schema("o_orderkey int32", "o_comment string"),
            java.util.Map.of());
    assertThatThrownBy(
            () ->
                new ParquetImporter(table)
                    .importFiles(List.of(zstd), new ParquetImporter.Listener() {}))
        .hasFieldOrPropertyWithValue("kind", MosaicException.Kind.INVALID_ARGUMENT)
        .hasMessage(
            "schema mismatch importing "
                + zstd
                + ": column 'o_orderkey' is int64 not null there and"
                + " int32 not null in the table");
    assertThat(table.latest().version()).isEqualTo(1);
  }
}
