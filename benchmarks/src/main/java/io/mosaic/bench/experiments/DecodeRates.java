package io.mosaic.bench.experiments;

import io.mosaic.device.DevicePool;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.tpch.TpchTables;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How fast scans decode lineitem's columns, column by column and in the column sets of a few scans,
 * with one decoding thread and with two (why the CPU term's calibration, one rate per codec and
 * byte over all of lineitem's columns, mispredicts where the CPU binds). The table is zstd on an
 * unthrottled directory the page cache holds, so decoding bounds every scan.
 *
 * <p>{@code experiments.DecodeRates [SF] [SECONDS] [POOL_MB] [ONLY]}: SF of lineitem (0.05),
 * seconds per figure (2), the retriever's pool of decoded vectors in MB (64, as calibration's), and
 * a set name to measure only that one (all of them). Writes docs/experiments/decode-rates.csv.
 */
public final class DecodeRates {
  private DecodeRates() {}

  public static void main(String[] args) throws IOException {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.05;
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2;
    long pooled = (args.length > 2 ? Long.parseLong(args[2]) : 64) << 20;
    String only = args.length > 3 ? args[3] : null;
    Path dir = Path.of("mosaic-work/experiments/decode-rates");
    MosaicTable.deleteTree(dir);
    Files.createDirectories(dir.resolve("zstd"));
    Files.writeString(
        dir.resolve("devices.toml"),
        """
        [[device]]
        id = "zstd"
        path = "zstd"
        capacity = "1 TB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "1 ct"
        metadata = true
        """);
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    MosaicTable lineitem =
        TpchTables.load(
            TpchTable.LINE_ITEM,
            sf,
            dir.resolve("lineitem"),
            pool,
            Map.of(TableProperties.DEFAULT_DEVICE, "zstd"),
            rows -> {});
    Map<String, List<String>> sets = new LinkedHashMap<>();
    List<String> all = lineitem.latest().schema().columns().stream().map(c -> c.name()).toList();
    sets.put("all 16 (what calibration scans)", all);
    for (String c : all) {
      sets.put(c, List.of(c));
    }
    sets.put(
        "numbers and dates (11)",
        List.of(
            "l_orderkey",
            "l_partkey",
            "l_suppkey",
            "l_linenumber",
            "l_quantity",
            "l_extendedprice",
            "l_discount",
            "l_tax",
            "l_shipdate",
            "l_commitdate",
            "l_receiptdate"));
    sets.put(
        "short strings (4)",
        List.of("l_returnflag", "l_linestatus", "l_shipinstruct", "l_shipmode"));
    sets.put("q1's", Table3CooperativeScans.SLOW);
    sets.put("q6's", Table3CooperativeScans.FAST);
    if (only != null) {
      sets.keySet().removeIf(name -> !name.startsWith(only));
    }
    long rows = lineitem.latest().rowGroups().stream().mapToLong(Long::longValue).sum();
    System.out.printf(
        Locale.ROOT,
        "Decoding rates, lineitem SF %s (%d rows, zstd), %.0f s per figure, vector pool %d MB%n",
        sf,
        rows,
        seconds,
        pooled >> 20);
    // Every set scanned once with each retriever first, so the JIT has compiled every decoder.
    for (List<String> columns : sets.values()) {
      rate(pool, lineitem, columns, 1, 0, pooled);
      rate(pool, lineitem, columns, 2, 0, pooled);
    }
    CsvFile csv =
        new CsvFile(
            "set",
            "columns",
            "uncompressed_mb",
            "one_thread_mb_s",
            "ns_per_value_one_thread",
            "two_threads_mb_s",
            "speedup",
            "load");
    for (Map.Entry<String, List<String>> e : sets.entrySet()) {
      long bytes = 0;
      for (String c : e.getValue()) {
        for (SegmentEntry s : lineitem.latest().segmentsOf(c)) {
          bytes += s.uncompressedBytes();
        }
      }
      double one = bytes / rate(pool, lineitem, e.getValue(), 1, seconds, pooled) / 1e6;
      double two = bytes / rate(pool, lineitem, e.getValue(), 2, seconds, pooled) / 1e6;
      double nsPerValue = bytes / (one * 1e6) / (rows * e.getValue().size()) * 1e9;
      double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      csv.row(e.getKey(), e.getValue().size(), bytes / 1e6, one, nsPerValue, two, two / one, load);
      String line =
          String.format(
              Locale.ROOT,
              "%-32s %6.2f MB  1 thread %7.1f MB/s (%5.1f ns/value)  2 threads %7.1f MB/s  x%.2f"
                  + "  load %.1f",
              e.getKey(),
              bytes / 1e6,
              one,
              nsPerValue,
              two,
              two / one,
              load);
      System.out.println(line);
    }
    csv.write(
        Path.of(
            only == null && pooled == 64L << 20
                ? "docs/experiments/decode-rates.csv"
                : "mosaic-work/experiments/decode-rates-" + (pooled >> 20) + "mb.csv"));
    MosaicTable.deleteTree(dir);
  }

  /** Seconds per scan of {@code columns}, the mean over scans for at least {@code seconds}. */
  private static double rate(
      DevicePool pool,
      MosaicTable table,
      List<String> columns,
      int threads,
      double seconds,
      long pooled) {
    try (Retriever retriever = new Retriever(pool, threads, pooled)) {
      long scans = 0;
      long start = System.nanoTime();
      do {
        try (Scan scan = retriever.scan(table, ScanRequest.of(columns).recorded(false))) {
          while (scan.hasNext()) {
            scan.next();
          }
        }
        scans++;
      } while (System.nanoTime() - start < seconds * 1e9 || scans < 3);
      return (System.nanoTime() - start) / 1e9 / scans;
    }
  }
}
