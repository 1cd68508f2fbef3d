package io.mosaic.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import io.mosaic.table.TestPool;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row groups of doubles holding NaN and both zeros are never pruned away from a predicate that
 * keeps one of their rows under the engines' semantics (Spark's and Trino's: NaN equals itself and
 * is above every other value in Spark; -0.0 = 0.0), whatever Parquet's statistics leave out.
 */
class FloatPruningTest {
  @TempDir Path dir;

  static final double[][] GROUPS = {
    {1.0, Double.NaN}, {2.0, 3.0}, {-0.0, 5.0}, {0.0, 7.0}, {Double.NaN, Double.NaN}, {-4.0, -0.0}
  };

  @Test
  void everyRowGroupWithAMatchingRowIsKept() throws IOException {
    DevicePool pool = TestPool.fourDevices(dir);
    TableSchema schema =
        new TableSchema(List.of(new ColumnSpec("d", ColumnType.parse("double"), false)));
    MosaicTable table =
        MosaicTable.create(
            dir.resolve("t"), pool, schema, Map.of(TableProperties.ROW_GROUP_ROWS, "2"));
    try (BufferAllocator alloc = new RootAllocator();
        TableWriter writer = table.newWriter();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema.arrowSchema(), alloc)) {
      batch.allocateNew();
      Float8Vector v = (Float8Vector) batch.getVector(0);
      int i = 0;
      for (double[] g : GROUPS) {
        for (double x : g) {
          v.setSafe(i++, x);
        }
      }
      batch.setRowCount(i);
      writer.write(batch);
      table.append(List.of(writer.finish()));
    }
    Manifest m = table.latest();
    // Statistics never hold NaN: a row group with one has no min and max, and is never pruned.
    assertThat(m.segmentsOf("d").get(0).stats().get(0).max()).isNull();
    assertThat(m.segmentsOf("d").get(0).stats().get(4).max()).isNull();
    List<String> wrong = new ArrayList<>();
    for (double lit : new double[] {0.0, -0.0, 1.0, 5.0, 6.0, 100.0, Double.NaN}) {
      check(m, Predicate.eq("d", lit), x -> same(x, lit), wrong);
      check(m, Predicate.gt("d", lit), x -> compare(x, lit) > 0, wrong);
      check(m, Predicate.ge("d", lit), x -> compare(x, lit) >= 0, wrong);
      check(m, Predicate.lt("d", lit), x -> compare(x, lit) < 0, wrong);
      check(m, Predicate.le("d", lit), x -> compare(x, lit) <= 0, wrong);
    }
    assertThat(wrong).isEmpty();
  }

  /** Spark's order of doubles: -0.0 = 0.0, NaN = NaN and above everything else. */
  private static int compare(double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Boolean.compare(Double.isNaN(a), Double.isNaN(b));
    }
    return a == b ? 0 : a < b ? -1 : 1;
  }

  private static boolean same(double a, double b) {
    return compare(a, b) == 0;
  }

  private static void check(
      Manifest m, ColumnPredicate p, DoublePredicate matches, List<String> wrong) {
    List<Integer> kept = RowGroupFilter.bind("t", m, Predicate.of(p)).select(0, GROUPS.length);
    for (int g = 0; g < GROUPS.length; g++) {
      boolean any = false;
      for (double x : GROUPS[g]) {
        any |= matches.test(x);
      }
      if (any && !kept.contains(g)) {
        wrong.add(
            p
                + " pruned row group "
                + g
                + " "
                + java.util.Arrays.toString(GROUPS[g])
                + " (stats "
                + m.segmentsOf("d").get(0).stats().get(g)
                + ")");
      }
    }
  }
}
