package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The block decoder reads what Mosaic writes, and agrees with the hybrid encoding's spec. */
class ChunkDecoderTest {
  @TempDir Path dir;

  @Test
  void hybridDecodesRleRunsAndBitPackedGroups() throws IOException {
    // RLE run: header (5 << 1) = 10, value 3 (1 byte for width 2); then one bit-packed group of
    // 8 values of width 2: header (1 << 1) | 1 = 3, values 0,1,2,3,0,1,2,3 in 2 bytes: 0xE4 0xE4.
    ByteBuffer in =
        ByteBuffer.wrap(new byte[] {10, 3, 3, (byte) 0xE4, (byte) 0xE4})
            .order(ByteOrder.LITTLE_ENDIAN);
    assertThat(ChunkDecoder.hybrid(in, 5, 2, 13))
        .containsExactly(3, 3, 3, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3);
  }

  @Test
  void everyTypeOfMosaicsSegmentsTakesTheBlockPathAndMatchesParquetJava() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = MosaicTable.create(dir.resolve("t"), pool, CommitTest.ALL_TYPES, Map.of());
    try (BufferAllocator alloc = new RootAllocator()) {
      try (TableWriter writer = table.newWriter();
          VectorSchemaRoot batch =
              VectorSchemaRoot.create(CommitTest.ALL_TYPES.arrowSchema(), alloc)) {
        CommitTest.fill(batch, 20_000, 0);
        writer.write(batch);
        table.append(List.of(writer.finish()));
      }
      Manifest m = table.latest();
      List<List<Object>> written;
      try (VectorSchemaRoot batch =
          VectorSchemaRoot.create(CommitTest.ALL_TYPES.arrowSchema(), alloc)) {
        CommitTest.fill(batch, 20_000, 0);
        written = TableRoundTripTest.values(batch);
      }
      int fast = 0;
      for (ColumnSpec c : m.schema().columns()) {
        SegmentEntry s = m.segmentsOf(c.name()).get(0);
        try (ParquetFileReader reader =
            ParquetFileReader.open(new LocalInputFile(pool.device(s.device()).resolve(s.path())))) {
          ColumnDescriptor d = reader.getFooter().getFileMetaData().getSchema().getColumns().get(0);
          PageReadStore pages = reader.readRowGroup(0);
          PageReader pr = pages.getPageReader(d);
          DictionaryPage dict = pr.readDictionaryPage();
          List<DataPage> list = new ArrayList<>();
          for (DataPage p = pr.readPage(); p != null; p = pr.readPage()) {
            list.add(p);
          }
          FieldVector v = ChunkDecoder.tryDecode(c, d, dict, list, 20_000, alloc);
          if (v != null) {
            fast++;
            int column = m.schema().indexOf(c.name());
            for (int i = 0; i < 20_000; i++) {
              assertThat(TableFixtures.plain(v.getObject(i)))
                  .as("%s row %d", c.name(), i)
                  .isEqualTo(written.get(i).get(column));
            }
            v.close();
          }
        }
      }
      // All but the 38-digit decimal (fixed-length bytes) take the block path.
      assertThat(fast).isEqualTo(m.schema().columns().size() - 1);
    }
  }
}
