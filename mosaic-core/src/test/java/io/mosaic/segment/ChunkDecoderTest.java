package io.mosaic.segment;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.CommitTest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TableRoundTripTest;
import io.mosaic.table.TableWriter;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
    assertThat(RleBitPacked.unpack(in, 5, 2, 13))
        .containsExactly(3, 3, 3, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3);
  }

  /**
   * With nulls every page takes the per-value path; without, the bulk paths (dictionary gathers,
   * plain copies), and 200,000 distinct values overflow parquet-java's dictionary, so later pages
   * of the same chunk are plain. Nulls every 20,011 rows put one on the last row of the first
   * 20,000-row page of the string column (index 12): the next, null-free page is written in bulk
   * after it.
   */
  @ParameterizedTest
  @CsvSource({"20000, 5", "200000, 0", "60000, 20011"})
  void everyTypeOfMosaicsSegmentsTakesTheBlockPathAndMatchesParquetJava(int rows, int nullEvery)
      throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table = MosaicTable.create(dir.resolve("t"), pool, CommitTest.ALL_TYPES, Map.of());
    try (BufferAllocator alloc = new RootAllocator()) {
      try (TableWriter writer = table.newWriter();
          VectorSchemaRoot batch =
              VectorSchemaRoot.create(CommitTest.ALL_TYPES.arrowSchema(), alloc)) {
        CommitTest.fill(batch, rows, 0, nullEvery);
        writer.write(batch);
        table.append(List.of(writer.finish()));
      }
      Manifest m = table.latest();
      List<List<Object>> written;
      try (VectorSchemaRoot batch =
          VectorSchemaRoot.create(CommitTest.ALL_TYPES.arrowSchema(), alloc)) {
        CommitTest.fill(batch, rows, 0, nullEvery);
        written = TableRoundTripTest.values(batch);
      }
      int fast = 0;
      Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
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
            encodings.add(
                p instanceof DataPageV1 v1
                    ? v1.getValueEncoding()
                    : ((DataPageV2) p).getDataEncoding());
          }
          FieldVector v = ChunkDecoder.tryDecode(c, d, dict, list, rows, alloc);
          if (v != null) {
            fast++;
            int column = m.schema().indexOf(c.name());
            for (int i = 0; i < rows; i++) {
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
      assertThat(encodings).contains(Encoding.PLAIN);
      assertThat(encodings).containsAnyOf(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
    }
  }

  /**
   * A scan decodes later row groups into the vectors of earlier ones: row groups with and without
   * nulls, and a shorter last one, in turn, so stale values or validity bits would show.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aScanReusingVectorsAcrossRowGroupsReadsEveryRowGroupExactly(boolean dictionaries)
      throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("reuse"),
            pool,
            CommitTest.ALL_TYPES,
            Map.of(TableProperties.ROW_GROUP_ROWS, "6000"));
    List<List<Object>> expected = new ArrayList<>();
    int[][] batches = {{9000, 5}, {9000, 0}, {4000, 3}}; // rows, null every n-th (0: none)
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch =
            VectorSchemaRoot.create(CommitTest.ALL_TYPES.arrowSchema(), alloc)) {
      int seed = 0;
      for (int[] b : batches) {
        CommitTest.fill(batch, b[0], seed, b[1]);
        expected.addAll(TableRoundTripTest.values(batch));
        writer.write(batch);
        seed += b[0];
      }
      table.append(List.of(writer.finish()));
    }
    List<String> columns = CommitTest.ALL_TYPES.columns().stream().map(ColumnSpec::name).toList();
    List<List<Object>> read = new ArrayList<>();
    // A buffer of about a row group and a half: the decoders cannot run ahead of the consumer, so
    // each row group after the first decodes into vectors the consumer has released.
    Manifest m = table.latest();
    long total = m.segments().stream().mapToLong(SegmentEntry::compressedBytes).sum();
    long buffer = total * 3 / (2 * m.rowGroups().size());
    try (Retriever retriever = new Retriever(pool);
        Scan scan =
            retriever.scan(
                table, ScanRequest.of(columns).buffer(buffer).dictionaries(dictionaries))) {
      Map<String, Integer> asIds = new java.util.HashMap<>();
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        List<List<Object>> rows = TableRoundTripTest.values(batch);
        for (int c = 0; c < columns.size(); c++) {
          FieldVector dictionary = scan.dictionary(c);
          if (dictionary != null) {
            // Ids into the chunk's dictionary: resolved here to the values they stand for.
            asIds.merge(columns.get(c), 1, Integer::sum);
            IntVector ids = (IntVector) batch.getVector(c);
            for (int i = 0; i < rows.size(); i++) {
              rows.get(i)
                  .set(
                      c,
                      ids.isNull(i) ? null : TableFixtures.plain(dictionary.getObject(ids.get(i))));
            }
          }
        }
        read.addAll(rows);
      }
      assertThat(scan.rowGroups()).hasSizeGreaterThan(3);
      // The string column is dictionary-encoded in every row group (the binary one is plain), and
      // the dates in most (the writer falls back to plain where a dictionary grows too large).
      if (dictionaries) {
        assertThat(asIds).containsEntry("s", scan.rowGroups().size()).containsKey("day");
      } else {
        assertThat(asIds).isEmpty();
      }
    }
    assertThat(read).hasSize(expected.size());
    for (int i = 0; i < read.size(); i++) {
      assertThat(read.get(i)).as("row %d", i).isEqualTo(expected.get(i));
    }
  }
}
