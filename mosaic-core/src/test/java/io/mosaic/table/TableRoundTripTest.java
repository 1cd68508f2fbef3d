package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.Codec;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TPC-H SF 0.1 written across four emulated devices reads back equal, row by row. */
public class TableRoundTripTest {
  static final double SF = 0.1;
  @TempDir Path dir;
  private final BufferAllocator alloc = new RootAllocator();

  @AfterEach
  void closeAllocator() {
    alloc.close();
  }

  /** Spreads columns round robin over the four devices, and cuts row groups of 100k rows. */
  public static Map<String, String> spread(TableSchema schema) {
    Map<String, String> props = new HashMap<>();
    props.put(TableProperties.ROW_GROUP_ROWS, "100000");
    for (int i = 0; i < schema.columns().size(); i++) {
      props.put("column." + schema.columns().get(i).name() + ".device", TestPool.IDS[i % 4]);
    }
    return props;
  }

  /** Every row of the table, as lists of Arrow's Java values (BigDecimal, Text, ...). */
  public static List<List<Object>> rows(MosaicTable table, Manifest m, BufferAllocator alloc)
      throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    try (TableReader reader = new TableReader(table, m, m.schema().names())) {
      for (int g = 0; g < reader.rowGroupCount(); g++) {
        try (VectorSchemaRoot root = reader.read(g, alloc)) {
          rows.addAll(values(root));
        }
      }
    }
    return rows;
  }

  /** Compares row group by row group, so only the expected rows are held in memory. */
  public static void assertRowsEqual(
      MosaicTable table, Manifest m, List<List<Object>> expected, BufferAllocator alloc)
      throws IOException {
    int at = 0;
    try (TableReader reader = new TableReader(table, m, m.schema().names())) {
      for (int g = 0; g < reader.rowGroupCount(); g++) {
        try (VectorSchemaRoot root = reader.read(g, alloc)) {
          List<List<Object>> rows = values(root);
          assertThat(rows).as("row group %d", g).isEqualTo(expected.subList(at, at + rows.size()));
          at += rows.size();
        }
      }
    }
    assertThat(at).isEqualTo(expected.size());
  }

  public static List<List<Object>> values(VectorSchemaRoot root) {
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < root.getRowCount(); i++) {
      List<Object> row = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        Object o = v.getObject(i);
        // Text and byte[] do not compare by content; their String and ByteBuffer forms do.
        row.add(
            o instanceof org.apache.arrow.vector.util.Text t
                ? t.toString()
                : o instanceof byte[] b ? java.nio.ByteBuffer.wrap(b) : o);
      }
      rows.add(row);
    }
    return rows;
  }

  @Test
  void lineitemFromTwoParallelWritersCommittedOnceReadsBackEqual() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("lineitem"), pool, TpchBatches.LINEITEM, spread(TpchBatches.LINEITEM));
    long half = 300_000;
    List<WriteResult> results = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (long skip : new long[] {0, half}) {
      try (TableWriter writer = table.newWriter()) {
        TpchBatches.lineitem(
            SF,
            skip,
            skip == 0 ? half : Long.MAX_VALUE,
            8192,
            alloc,
            batch -> {
              try {
                writer.write(batch);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              expected.addAll(values(batch));
            });
        results.add(writer.finish());
      }
    }
    assertThat(table.latest().rowCount()).as("nothing visible before the commit").isZero();
    Manifest m = table.append(results);

    assertThat(m.version()).isEqualTo(2);
    assertThat(m.rowCount()).isEqualTo(expected.size()).isEqualTo(600_572);
    // 300k rows in three full row groups from one writer, 300,572 in 3 full + 1 from the other.
    assertThat(m.rowGroups())
        .containsExactly(100_000L, 100_000L, 100_000L, 100_000L, 100_000L, 100_000L, 572L);
    Set<String> devices = new HashSet<>();
    m.segments().forEach(s -> devices.add(s.device()));
    assertThat(devices).containsExactlyInAnyOrder(TestPool.IDS);
    assertThat(m.segmentsOf("l_shipmode"))
        .allSatisfy(s -> assertThat(s.codec()).isEqualTo(Codec.NONE));
    assertThat(m.segmentsOf("l_orderkey").get(0).stats().get(0).min()).isEqualTo(1L);

    MosaicTable reopened = MosaicTable.open(dir.resolve("lineitem"), pool);
    assertRowsEqual(reopened, reopened.latest(), expected, alloc);
  }

  @Test
  void ordersReadBackEqualAndSegmentsAreStandardParquet() throws Exception {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("orders"), pool, TpchBatches.ORDERS, spread(TpchBatches.ORDERS));
    List<List<Object>> expected = new ArrayList<>();
    WriteResult result;
    try (TableWriter writer = table.newWriter()) {
      TpchBatches.orders(
          SF,
          10_000,
          alloc,
          batch -> {
            try {
              writer.write(batch);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            expected.addAll(values(batch));
          });
      result = writer.finish();
    }
    Manifest m = table.append(List.of(result));
    assertThat(rows(table, m, alloc)).isEqualTo(expected);

    // parquet-java's own reader, not Mosaic's, opens a segment and sees the same values.
    SegmentEntry comments = m.segmentsOf("o_comment").get(0);
    Path file = pool.device(comments.device()).resolve(comments.path());
    List<String> seen = new ArrayList<>();
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), new org.apache.hadoop.fs.Path(file.toUri()))
            .withConf(new Configuration(false))
            .build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        seen.add(g.getString("o_comment", 0));
      }
    }
    assertThat(seen).hasSize(150_000);
    assertThat(seen).isEqualTo(expected.stream().map(r -> (String) r.get(8)).toList());
  }
}
