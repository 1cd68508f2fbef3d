package io.mosaic.tpcds;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-DS tables loaded through Mosaic read back as the generator's rows, every column, NULLs
 * included: a dimension with every column type (call_center) and the largest fact table
 * (store_sales, 120 K rows here: two Arrow batches of the loader).
 */
class TpcdsTablesTest {
  private static final double SF = 0.01;

  @TempDir Path dir;

  @Test
  void loadedTablesReadBackAsTheGeneratorsRows() throws IOException {
    Files.createDirectories(dir.resolve("ssd"));
    Files.writeString(
        dir.resolve("devices.toml"),
        """
        [[device]]
        id = "ssd"
        path = "ssd"
        capacity = "1 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        """);
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    try (Retriever retriever = new Retriever(pool)) {
      for (Table table : List.of(Table.CALL_CENTER, Table.STORE_SALES)) {
        long[] loaded = {0};
        MosaicTable mosaic =
            TpcdsTables.load(
                table, SF, dir.resolve(table.getName()), pool, Map.of(), n -> loaded[0] = n);
        long rows = check(table, mosaic, retriever);
        assertThat(rows).as(table.getName()).isPositive().isEqualTo(loaded[0]);
        assertThat(mosaic.latest().rowCount()).isEqualTo(rows);
      }
    }
  }

  private static long check(Table table, MosaicTable mosaic, Retriever retriever)
      throws IOException {
    Column[] columns = table.getColumns();
    Session session = Session.getDefaultSession().withScale(SF).withTable(table);
    Iterator<List<List<String>>> expected = Results.constructResults(table, session).iterator();
    List<String> names = Arrays.stream(columns).map(Column::getName).toList();
    long rows = 0;
    try (Scan scan = retriever.scan(mosaic, ScanRequest.of(names))) {
      while (scan.hasNext()) {
        VectorSchemaRoot batch = scan.next();
        for (int i = 0; i < batch.getRowCount(); i++, rows++) {
          List<String> want = expected.next().get(0);
          for (int c = 0; c < columns.length; c++) {
            Object got = batch.getVector(c).getObject(i);
            assertThat(got)
                .as("%s row %d column %s", table.getName(), rows, names.get(c))
                .isEqualTo(value(columns[c], want.get(c)));
          }
        }
      }
    }
    assertThat(expected.hasNext()).as("%s returned every row", table.getName()).isFalse();
    return rows;
  }

  /** A generated value as Arrow's {@code getObject} returns it for the column's type. */
  private static Object value(Column column, String text) {
    if (text == null) {
      return null;
    }
    return switch (column.getType().getBase()) {
      case IDENTIFIER -> Long.parseLong(text);
      case INTEGER -> Integer.parseInt(text);
      case DATE -> (int) LocalDate.parse(text).toEpochDay();
      case DECIMAL -> new BigDecimal(text).setScale(column.getType().getScale().get());
      case VARCHAR, CHAR, TIME -> new Text(text);
    };
  }
}
