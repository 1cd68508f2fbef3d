package io.mosaic.trino.bench;

import com.google.common.collect.ImmutableMultiset;
import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.plugin.memory.MemoryPlugin;
import io.trino.testing.MaterializedResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * TPC-H in Trino (docs/benchmarks.md): the 22 queries over the same data in three catalogs of one
 * in-process Trino, side by side: Mosaic (one unthrottled device, zstd), Trino's memory connector,
 * and Hive reading Parquet (zstd) from the local disk; then a scan-only query summing four lineitem
 * columns. Per query, each catalog runs once to warm up, then {@code runs} times, the catalogs
 * interleaved and rotated so none always goes first; the median time counts. The three catalogs'
 * answers must be the same rows, or the row is flagged and the exit status is 1.
 *
 * <p>Run: {@code mosaic-trino/tpch-bench [SF [RUNS [DIR [scan]]]]} ({@code scan}: only the
 * scan-only query). Mosaic's and Hive's tables are written once into DIR (default {@code
 * /tmp/mosaic-tpch-trino-sf<SF>}) and reused by later runs; memory's are loaded on every run.
 */
public final class TpchTrinoBenchmark {
  static final String SCAN =
      "SELECT sum(l_quantity), sum(l_extendedprice), sum(l_discount), sum(l_tax) FROM lineitem";

  /** The console: Trino's logging takes over System.out and System.err once the runner starts. */
  private static final PrintStream OUT = System.out;

  private static final PrintStream ERR = System.err;

  /** QUERIES=14,16 runs only those of the 22 (all when unset), to look at one query closely. */
  private static final List<Integer> QUERIES =
      Optional.ofNullable(System.getenv("QUERIES")).stream()
          .flatMap(s -> Arrays.stream(s.split(",")))
          .map(String::trim)
          .filter(s -> !s.isEmpty())
          .map(Integer::valueOf)
          .toList();

  private TpchTrinoBenchmark() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    // "scan" as a fourth argument runs only the scan-only query (read-path work).
    boolean scanOnly = args.length > 3 && args[3].equals("scan");
    Path dir =
        Path.of(args.length > 2 ? args[2] : "/tmp/mosaic-tpch-trino-sf" + TpchCatalogs.format(sf))
            .toAbsolutePath();
    // parquet-hadoop's codec pool (Mosaic's segments) logs every decompressor it lends at INFO.
    Logging.initialize().setLevel("org.apache.hadoop.io.compress", Level.WARN);
    boolean allSame = true;
    try (TpchCatalogs catalogs = TpchCatalogs.start(dir, sf)) {
      List<TpchCatalogs.Loaded> loaded = catalogs.load(ERR::println);
      for (String catalog : TpchCatalogs.COMPARED) {
        double seconds =
            loaded.stream()
                .filter(l -> l.catalog().equals(catalog))
                .mapToDouble(TpchCatalogs.Loaded::seconds)
                .sum();
        long tables = loaded.stream().filter(l -> l.catalog().equals(catalog)).count();
        OUT.printf(
            Locale.ROOT,
            "load %-6s %d tables in %.1f s%s%n",
            catalog,
            tables,
            seconds,
            tables == 0 ? " (reused from " + dir + ")" : "");
      }
      OUT.printf(
          Locale.ROOT,
          "TPC-H SF %s, Trino %s (coordinator + 1 worker in one JVM), %s;"
              + " Mosaic %s, Hive Parquet %s on disk; median of %d runs, catalog order rotated%n",
          TpchCatalogs.format(sf),
          MemoryPlugin.class.getPackage().getImplementationVersion(),
          Runtime.version(),
          mib(catalogs.mosaicBytes()),
          mib(catalogs.hiveBytes()),
          runs);
      OUT.printf(
          Locale.ROOT,
          "%-6s %9s %9s %9s %10s %10s %7s %5s%n",
          "query",
          "mosaic",
          "memory",
          "hive",
          "mos/hive",
          "mos/mem",
          "rows",
          "same");
      double[] total = new double[TpchCatalogs.COMPARED.size()];
      for (int q = 1; q <= (scanOnly ? 0 : 22); q++) {
        if (!QUERIES.isEmpty() && !QUERIES.contains(q)) {
          continue;
        }
        Timing t = time(catalogs, "q" + q, TraceGenerator.tpchQuery(q), runs);
        for (int c = 0; c < total.length; c++) {
          total[c] += t.median[c];
        }
        allSame &= t.same;
        print("q" + q, t.median, t.rows, t.same ? "yes" : "NO");
      }
      print("total", total, -1, "");
      Timing scan = time(catalogs, "scan", SCAN, Math.max(runs, 5));
      allSame &= scan.same;
      print("scan", scan.median, scan.rows, scan.same ? "yes" : "NO");
      OUT.println(
          "mos/hive, mos/mem = Mosaic's time / the other's (below 1: Mosaic is faster);"
              + " same = the three catalogs returned the same rows");
    }
    System.exit(allSame ? 0 : 1);
  }

  /** Median seconds per compared catalog, the answer's row count, whether all answers agree. */
  private record Timing(double[] median, long rows, boolean same) {}

  private static Timing time(TpchCatalogs catalogs, String name, String sql, int runs) {
    List<String> order = new ArrayList<>(TpchCatalogs.COMPARED);
    int n = order.size();
    double[][] times = new double[n][Math.max(runs, 0)];
    ImmutableMultiset<?>[] answers = new ImmutableMultiset<?>[n];
    long rows = 0;
    for (int r = -1; r < runs; r++) {
      for (String catalog : order) {
        int c = TpchCatalogs.COMPARED.indexOf(catalog);
        long start = System.nanoTime();
        MaterializedResult result = catalogs.runner().execute(catalogs.session(catalog), sql);
        double seconds = (System.nanoTime() - start) / 1e9;
        ERR.printf(
            Locale.ROOT,
            "%s %s %s: %.2f s%n",
            name,
            catalog,
            r < 0 ? "warm-up" : "run " + (r + 1),
            seconds);
        if (r < 0) {
          answers[c] = ImmutableMultiset.copyOf(result.getMaterializedRows());
          rows = result.getRowCount();
        } else {
          times[c][r] = seconds;
        }
      }
      Collections.rotate(order, 1);
    }
    boolean same = true;
    for (int c = 1; c < n; c++) {
      same &= answers[c].equals(answers[0]);
    }
    // The median of the runs (the machine is shared: one disturbed run must not decide).
    double[] median = new double[n];
    for (int c = 0; c < n; c++) {
      double[] sorted = times[c].clone();
      Arrays.sort(sorted);
      median[c] =
          sorted.length == 0
              ? Double.NaN
              : sorted.length % 2 == 1
                  ? sorted[sorted.length / 2]
                  : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }
    return new Timing(median, rows, same);
  }

  private static void print(String name, double[] t, long rows, String same) {
    OUT.printf(
        Locale.ROOT,
        "%-6s %8.2fs %8.2fs %8.2fs %9.2fx %9.2fx %7s %5s%n",
        name,
        t[0],
        t[1],
        t[2],
        t[0] / t[2],
        t[0] / t[1],
        rows < 0 ? "" : String.valueOf(rows),
        same);
    OUT.flush();
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
  }
}
