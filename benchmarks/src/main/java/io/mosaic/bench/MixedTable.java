package io.mosaic.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The table of the table-operation benchmarks ({@link DeletedRowsScanBenchmark}, {@link
 * SmallInsertsCompactionBenchmark}): an int64 key, an int32 quantity, a double price and a string
 * comment of 3-6 words from a small vocabulary (compressible, as TPC-H's comments are), on one
 * unthrottled device with codec zstd, so the figures are the CPU's: decompression, decoding and the
 * scan's fixed costs per row group.
 */
final class MixedTable {
  static final TableSchema SCHEMA =
      new TableSchema(
          List.of(
              new ColumnSpec("id", ColumnType.of(ColumnType.Kind.INT64), false),
              new ColumnSpec("quantity", ColumnType.of(ColumnType.Kind.INT32), false),
              new ColumnSpec("price", ColumnType.of(ColumnType.Kind.DOUBLE), false),
              new ColumnSpec("comment", ColumnType.of(ColumnType.Kind.STRING), false)));
  static final List<String> COLUMNS = List.of("id", "quantity", "price", "comment");

  private static final byte[][] WORDS =
      words(
          "furiously quickly carefully blithely slyly final express regular special pending"
              + " ironic bold even silent unusual idle deposits packages accounts requests"
              + " instructions theodolites pinto beans foxes ideas dependencies platelets"
              + " courts asymptotes sheaves");

  private MixedTable() {}

  private static byte[][] words(String text) {
    String[] split = text.split(" ");
    byte[][] out = new byte[split.length][];
    for (int i = 0; i < split.length; i++) {
      out[i] = split[i].getBytes(StandardCharsets.UTF_8);
    }
    return out;
  }

  /** One unthrottled device {@code d0} under {@code dir}, codec zstd (as examples/devices.toml). */
  static DevicePool pool(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("d0"));
    Files.writeString(
        dir.resolve("devices.toml"),
        "[[device]]\nid = \"d0\"\npath = \"d0\"\ncapacity = \"100 GB\"\nthreads = 2\n"
            + "codec = \"zstd\"\ncost_per_gb = \"1 ct\"\n");
    return DevicePool.load(dir.resolve("devices.toml"));
  }

  static MosaicTable create(Path root, DevicePool pool, Map<String, String> properties) {
    return MosaicTable.create(root, pool, SCHEMA, properties);
  }

  /**
   * Seeded rows in order: two generators with the same seed give the same rows however the calls
   * cut them, so a table written in many inserts and one written at once hold the same rows.
   */
  static final class Rows {
    private final SplittableRandom random;
    private final byte[] comment = new byte[128];
    private long next;

    Rows(long seed) {
      random = new SplittableRandom(seed);
    }

    /** Writes the next {@code rows} rows into one writer; its result, not yet committed. */
    WriteResult write(MosaicTable table, long rows) throws IOException {
      try (BufferAllocator alloc = new RootAllocator();
          TableWriter writer = table.newWriter();
          VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA.arrowSchema(), alloc)) {
        for (long done = 0; done < rows; done += 65_536) {
          int n = (int) Math.min(65_536, rows - done);
          fill(batch, n);
          writer.write(batch);
        }
        return writer.finish();
      }
    }

    private void fill(VectorSchemaRoot batch, int n) {
      batch.allocateNew();
      BigIntVector id = (BigIntVector) batch.getVector(0);
      IntVector quantity = (IntVector) batch.getVector(1);
      Float8Vector price = (Float8Vector) batch.getVector(2);
      VarCharVector text = (VarCharVector) batch.getVector(3);
      for (int i = 0; i < n; i++) {
        id.setSafe(i, next++);
        quantity.setSafe(i, 1 + random.nextInt(50));
        price.setSafe(i, Math.round(random.nextDouble() * 1e7) / 100.0);
        int len = 0;
        for (int w = 3 + random.nextInt(4); w > 0; w--) {
          byte[] word = WORDS[random.nextInt(WORDS.length)];
          if (len > 0) {
            comment[len++] = ' ';
          }
          System.arraycopy(word, 0, comment, len, word.length);
          len += word.length;
        }
        text.setSafe(i, comment, 0, len);
      }
      batch.setRowCount(n);
    }
  }

  /**
   * Scans every column of the pinned version through the retriever, as engines' splits do, and
   * returns the live rows. Core's {@link Scan} hands out each row group whole, deleted rows
   * included; engines drop them from the decoded batch without copying (Spark's reader wraps the
   * columns in a view of {@link DeletedRows#livePositions}, Trino's page source selects the live
   * positions of each page; docs/format.md, "Deletion vectors"). So the live-row selection here is
   * the engines' part: the live positions of each row group with deletions, whose count is the
   * batch's rows. Reading values through those positions is the query's own work and left out.
   */
  static long scanLive(Retriever retriever, MosaicTable table, TablePin pin) {
    long rows = 0;
    try (Scan s = retriever.scan(table, pin, ScanRequest.of(COLUMNS).recorded(false))) {
      while (s.hasNext()) {
        int stored = s.next().getRowCount();
        DeletedRows deleted = s.manifest().deletedRows(s.rowGroup());
        rows += deleted == null ? stored : deleted.livePositions(stored).length;
      }
    }
    return rows;
  }

  /** Throws unless both scans returned the rows the version says are live. */
  static void checkSameRows(String what, long a, long b, long expected) {
    if (a != b || a != expected) {
      throw new IllegalStateException(
          what + ": scans returned " + a + " and " + b + " rows, the versions hold " + expected);
    }
  }

  static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
