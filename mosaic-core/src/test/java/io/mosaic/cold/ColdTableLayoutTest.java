package io.mosaic.cold;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cold device with {@code layout = "table"} keeps each table's segments in one disk group
 * (docs/cold-storage.md, "The group of a segment"): on real files, even without a scheduler, a scan
 * of every column of a table spins up one group, once, however many segments it reads.
 */
class ColdTableLayoutTest {
  private static final int COLUMNS = 8;
  private static final int ROWS = 40_000;

  @Test
  void aScanOfATableVisitsItsOneGroup(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("devices.toml");
    Files.writeString(
        file,
        """
        [[device]]
        id = "warm"
        path = "warm"
        capacity = "1 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "30 ct"
        metadata = true
        emulate = { read = "4 GB/s" }

        [[device]]
        id = "csd"
        path = "csd"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        cold = { groups = 4, switch = "20 ms", read = "400 MB/s", policy = "none", layout = "table" }
        """);
    DevicePool pool = DevicePool.load(file);
    Device csd = pool.device("csd");
    List<String> all = IntStream.range(0, COLUMNS).mapToObj(c -> "c" + c).toList();
    try (Retriever retriever = new Retriever(pool)) {
      for (int t = 0; t < 3; t++) {
        MosaicTable table = write(pool, dir.resolve("t" + t));
        List<SegmentEntry> segments = table.latest().segments();
        // Two appends of 8 columns: 16 segments, each a file of its own.
        assertThat(segments).hasSize(2 * COLUMNS);
        int group = csd.groupOf(csd.resolve(segments.get(0).path()));
        for (SegmentEntry s : segments) {
          assertThat(csd.groupOf(csd.resolve(s.path())))
              .as("segment %s of table %s", s.path(), t)
              .isEqualTo(group);
        }
        long before = csd.groupSwitches();
        assertThat(scanAndCount(retriever, table, all)).isEqualTo(2 * ROWS);
        assertThat(csd.groupSwitches() - before)
            .as("one switch at most, to the table's group")
            .isLessThanOrEqualTo(1);
        assertThat(csd.groupOf(csd.resolve(segments.get(0).path()))).isEqualTo(group);
        before = csd.groupSwitches();
        assertThat(scanAndCount(retriever, table, all)).isEqualTo(2 * ROWS);
        assertThat(csd.groupSwitches() - before).as("its group is already spun up").isZero();
      }
    }
  }

  private static MosaicTable write(DevicePool pool, Path root) throws IOException {
    TableSchema schema =
        new TableSchema(
            IntStream.range(0, COLUMNS)
                .mapToObj(c -> new ColumnSpec("c" + c, ColumnType.of(ColumnType.Kind.INT64), false))
                .toList());
    MosaicTable t =
        MosaicTable.create(
            root,
            pool,
            schema,
            Map.of(TableProperties.DEFAULT_DEVICE, "csd", TableProperties.ROW_GROUP_ROWS, "10000"));
    for (int append = 0; append < 2; append++) {
      try (BufferAllocator alloc = new RootAllocator();
          TableWriter writer = t.newWriter();
          VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
        batch.allocateNew();
        for (int c = 0; c < COLUMNS; c++) {
          BigIntVector v = (BigIntVector) batch.getVector(c);
          for (int r = 0; r < ROWS; r++) {
            v.setSafe(r, (long) r * 31 + c);
          }
        }
        batch.setRowCount(ROWS);
        writer.write(batch);
        t.append(List.of(writer.finish()));
      }
    }
    return t;
  }

  private static int scanAndCount(Retriever retriever, MosaicTable table, List<String> columns) {
    int rows = 0;
    try (Scan scan = retriever.scan(table, ScanRequest.of(columns))) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        for (int r = 0; r < batch.getRowCount(); r++) {
          long expected = (long) ((rows + r) % ROWS) * 31;
          if (((BigIntVector) batch.getVector(0)).get(r) != expected) {
            throw new AssertionError("row " + (rows + r) + " of c0");
          }
        }
        rows += batch.getRowCount();
      }
    }
    return rows;
  }
}
