package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReader;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFixtures;
import io.mosaic.table.TablePin;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan in chunk mode ({@link Retriever#chunks}): row groups come as the raw bytes of their
 * chunks, exactly the bytes of the segment files, read ahead within the budget, without decoding.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChunkScanTest {
  private Path dir;
  private DevicePool pool;
  private Retriever retriever;
  private MosaicTable orders;
  private long rows;

  @BeforeAll
  void writeTable(@TempDir Path tempDir) throws IOException {
    dir = tempDir;
    pool = TableFixtures.fourDevices(dir);
    retriever = new Retriever(pool);
    List<List<Object>> all = new ArrayList<>();
    orders = TableFixtures.orders(dir.resolve("orders"), pool, 0.1, all);
    rows = all.size();
  }

  @AfterAll
  void close() {
    retriever.close();
  }

  /** The bytes of a chunk as the segment file holds them, read without core's scan. */
  private byte[] fileBytes(String column, int group) throws IOException {
    Manifest m = orders.latest();
    SegmentEntry s = m.segmentFor(column, group);
    Path file = pool.device(s.device()).resolve(s.path());
    ColumnChunkMetaData chunk;
    try (ParquetFileReader r =
        ParquetFileReader.open(
            new org.apache.parquet.io.LocalInputFile(file), SegmentReader.readOptions().build())) {
      chunk = r.getFooter().getBlocks().get(group - s.firstRowGroup()).getColumns().get(0);
    }
    byte[] bytes = new byte[Math.toIntExact(chunk.getTotalSize())];
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      f.seek(chunk.getStartingPos());
      f.readFully(bytes);
    }
    return bytes;
  }

  @Test
  void rowGroupsComeAsTheFilesChunksInOrderAndAreRecorded() throws Exception {
    List<String> columns = List.of("o_comment", "o_orderkey", "o_totalprice");
    long total = 0;
    int groups = 0;
    try (TablePin pin = orders.pin();
        Scan scan =
            retriever.chunks(orders, pin, ScanRequest.of(columns).queryId("q-chunks").buffer(1))) {
      assertThatThrownBy(scan::next).isInstanceOf(IllegalStateException.class);
      while (scan.hasNext()) {
        scan.ready().get(60, TimeUnit.SECONDS);
        RowGroupChunks g = scan.nextChunks();
        assertThat(g.rowGroup()).isEqualTo(scan.rowGroups().get(groups));
        assertThat(g.chunks()).extracting(c -> c.column().name()).isEqualTo(columns);
        for (RawChunk c : g.chunks()) {
          assertThat(c.pieces()).hasSize(1);
          assertThat(c.offsetIndex()).isNull();
          assertThat(
                  Arrays.equals(
                      c.pieces().get(0).bytes(), fileBytes(c.column().name(), g.rowGroup())))
              .as(c.source())
              .isTrue();
          assertThat(c.metadata().getValueCount()).isEqualTo(g.rows());
          assertThat(c.descriptor().getPath()).containsExactly(c.column().name());
          assertThat(c.source()).contains(c.column().name()).contains(".parquet");
        }
        // Held until the next call: the budget admits the awaited row group past its limit.
        assertThat(scan.heldBytes()).isGreaterThanOrEqualTo(g.bytes());
        total += g.rows();
        groups++;
      }
      assertThat(scan.ready().isDone()).isTrue();
    }
    assertThat(total).isEqualTo(rows);
    assertThat(groups).isEqualTo(orders.latest().rowGroups().size());
    assertThat(new TraceLog(orders.root()).read(1))
        .anySatisfy(
            r -> {
              assertThat(r.queryId()).isEqualTo("q-chunks");
              assertThat(r.columns()).isEqualTo(columns);
              assertThat(r.bytes()).isPositive();
            });
  }

  @Test
  void aDamagedChunkFailsItsChecksumNamingTheFile() throws Exception {
    Path copy = dir.resolve("damaged");
    List<List<Object>> all = new ArrayList<>();
    MosaicTable damaged = TableFixtures.orders(copy, pool, 0.01, all);
    SegmentEntry s = damaged.latest().segmentsOf("o_comment").get(0);
    Path file = pool.device(s.device()).resolve(s.path());
    byte[] bytes = Files.readAllBytes(file);
    bytes[40] ^= 0x5a; // inside the first chunk
    Files.write(file, bytes);
    try (TablePin pin = damaged.pin();
        Scan scan = retriever.chunks(damaged, pin, ScanRequest.of(List.of("o_comment")))) {
      scan.ready().get(60, TimeUnit.SECONDS); // completes normally: nextChunks throws
      assertThatThrownBy(scan::nextChunks)
          .isInstanceOf(CorruptTableException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("fails its checksum");
    }
  }
}
