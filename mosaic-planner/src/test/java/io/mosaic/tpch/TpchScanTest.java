package io.mosaic.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every TPC-H table at SF 0.1 on four emulated devices, scanned through the retriever with every
 * column set the 22 TPC-H queries read (the shipped trace), returns exactly the generator's rows.
 * (lineitem and orders, the large ones, are also checked with predicates and small buffers in
 * mosaic-core's ScanTest.)
 */
class TpchScanTest {
  @TempDir Path dir;

  @Test
  void everyTableWithEveryQueryColumnSet() throws IOException {
    DevicePool pool = pool(dir);
    Map<String, Set<List<String>>> scans = scans();
    assertThat(scans.keySet()).hasSize(8);
    int checked = 0;
    try (Retriever retriever = new Retriever(pool)) {
      for (TpchTable<?> table : TpchTable.getTables()) {
        checked += check(table, pool, retriever, scans.get(table.getTableName()));
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(50);
  }

  private <E extends TpchEntity> int check(
      TpchTable<E> table, DevicePool pool, Retriever retriever, Set<List<String>> scans)
      throws IOException {
    Map<String, String> spread = new HashMap<>();
    spread.put(TableProperties.ROW_GROUP_ROWS, "200000");
    List<TpchColumn<E>> columns = table.getColumns();
    for (int c = 0; c < columns.size(); c++) {
      spread.put("column." + columns.get(c).getColumnName() + ".device", IDS[c % 4]);
    }
    MosaicTable mosaic =
        TpchTables.load(table, 0.1, dir.resolve(table.getTableName()), pool, spread, n -> {});
    for (List<String> scan : scans) {
      List<TpchColumn<E>> wanted = scan.stream().map(table::getColumn).toList();
      Iterator<E> expected = table.createGenerator(0.1, 1, 1).iterator();
      long rows = 0;
      try (Scan s = retriever.scan(mosaic, ScanRequest.of(scan))) {
        while (s.hasNext()) {
          VectorSchemaRoot batch = s.next();
          for (int i = 0; i < batch.getRowCount(); i++) {
            E row = expected.next();
            for (int c = 0; c < wanted.size(); c++) {
              FieldVector v = batch.getVector(c);
              Object got = v.getObject(i);
              got = got instanceof org.apache.arrow.vector.util.Text t ? t.toString() : got;
              Object want = TpchTables.value(wanted.get(c), row);
              if (!want.equals(got)) {
                throw new AssertionError(
                    table.getTableName()
                        + " "
                        + scan
                        + " row "
                        + (rows + i)
                        + " column "
                        + v.getName()
                        + ": "
                        + got
                        + " != "
                        + want);
              }
            }
          }
          rows += batch.getRowCount();
        }
      }
      assertThat(expected.hasNext())
          .as("%s %s returned every row", table.getTableName(), scan)
          .isFalse();
    }
    return scans.size();
  }

  static final String[] IDS = {"nvme", "ssd", "raid", "hdd"};

  static DevicePool pool(Path dir) throws IOException {
    String[] codecs = {"zstd", "lz4", "none", "zstd"};
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      sb.append("[[device]]\nid = \"")
          .append(IDS[i])
          .append("\"\npath = \"devices/")
          .append(IDS[i])
          .append("\"\ncapacity = \"10 GB\"\nthreads = 2\ncodec = \"")
          .append(codecs[i])
          .append("\"\ncost_per_gb = \"1 ct\"\nemulate = { read = \"4 GB/s\" }\n\n");
    }
    Files.writeString(dir.resolve("devices.toml"), sb);
    return DevicePool.load(dir.resolve("devices.toml"));
  }

  /** Distinct column sets per table from the shipped TPC-H trace. */
  static Map<String, Set<List<String>>> scans() throws IOException {
    Map<String, Set<List<String>>> scans = new HashMap<>();
    try (InputStream in =
        TpchScanTest.class.getResourceAsStream("/io/mosaic/workloads/tpch.trace")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        int colon = line.indexOf(':');
        if (line.startsWith("#") || line.startsWith("[") || colon < 0) {
          continue;
        }
        scans
            .computeIfAbsent(line.substring(0, colon), t -> new LinkedHashSet<>())
            .add(new ArrayList<>(List.of(line.substring(colon + 1).trim().split(","))));
      }
    }
    return scans;
  }
}
