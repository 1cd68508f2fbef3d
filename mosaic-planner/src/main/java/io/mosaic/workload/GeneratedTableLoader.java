package io.mosaic.workload;

import io.mosaic.device.DevicePool;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes a benchmark generator's rows (TPC-H, TPC-DS) into a new Mosaic table: Arrow batches of
 * {@link #BATCH} rows through one writer, published in one commit.
 */
public final class GeneratedTableLoader {
  private static final int BATCH = 65_536;

  private GeneratedTableLoader() {}

  /** Sets row {@code n} of {@code batch} from one generated row. */
  @FunctionalInterface
  public interface RowSetter<R> {
    void set(VectorSchemaRoot batch, int n, R row);
  }

  /** {@code progress} gets the rows written so far, after each batch. */
  public static <R> MosaicTable load(
      TableSchema schema,
      Iterator<R> rows,
      RowSetter<R> setter,
      Path root,
      DevicePool pool,
      Map<String, String> properties,
      LongConsumer progress)
      throws IOException {
    MosaicTable mosaic = MosaicTable.create(root, pool, schema, properties);
    long written = 0;
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = mosaic.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      while (rows.hasNext()) {
        batch.allocateNew();
        int n = 0;
        for (; n < BATCH && rows.hasNext(); n++) {
          setter.set(batch, n, rows.next());
        }
        batch.setRowCount(n);
        writer.write(batch);
        written += n;
        progress.accept(written);
      }
      mosaic.append(List.of(writer.finish()));
    }
    return mosaic;
  }
}
