package io.mosaic.trino.bench;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.trino.Session;
import io.trino.execution.QueryInfo;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Page pruning (docs/benchmarks.md, "Page pruning on a sorted key"): a narrow range on a sorted
 * key, the scan-only shape, over TPC-H lineitem written sorted on {@code l_shipdate} into Mosaic
 * and Hive (Parquet, zstd) of one in-process Trino ({@link TpchCatalogs}): Mosaic with {@code
 * page_pruning_enabled} on and off, and Hive (whose reader uses column indexes, {@code
 * parquet.use_column_index}, on by default). Each variant runs once to warm up, then {@code runs}
 * times, the variants rotated; the median time counts, with the physical input bytes Trino reports.
 * The answers must be equal, or the exit status is 1.
 *
 * <p>Run: {@code mosaic-trino/page-pruning-bench [SF [RUNS [DIR]]]} (default SF 1, 3 runs, DIR
 * {@code /tmp/mosaic-pages-sf<SF>}; the sorted tables are written once and reused).
 */
public final class PagePruningBenchmark {
  static final String QUERY =
      "SELECT sum(l_extendedprice) FROM lineitem_sorted"
          + " WHERE l_shipdate BETWEEN DATE '1995-06-01' AND DATE '1995-06-07'";

  private static final PrintStream OUT = System.out;
  private static final PrintStream ERR = System.err;
  private static final List<String> VARIANTS = List.of("mosaic", "mosaic-whole", "hive");

  private PagePruningBenchmark() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir =
        Path.of(args.length > 2 ? args[2] : "/tmp/mosaic-pages-sf" + TpchCatalogs.format(sf))
            .toAbsolutePath();
    Logging.initialize().setLevel("org.apache.hadoop.io.compress", Level.WARN);
    try (TpchCatalogs catalogs = TpchCatalogs.start(dir, sf)) {
      DistributedQueryRunner runner = catalogs.runner();
      load(catalogs, "mosaic");
      load(catalogs, "hive");
      double[][] seconds = new double[VARIANTS.size()][runs];
      long[] bytes = new long[VARIANTS.size()];
      Object[] answers = new Object[VARIANTS.size()];
      for (int run = -1; run < runs; run++) {
        for (int i = 0; i < VARIANTS.size(); i++) {
          int v = Math.floorMod(i + run, VARIANTS.size());
          long start = System.nanoTime();
          MaterializedResultWithPlan r = runner.executeWithPlan(session(catalogs, v), QUERY);
          double s = (System.nanoTime() - start) / 1e9;
          QueryInfo info = runner.getCoordinator().getQueryManager().getFullQueryInfo(r.queryId());
          bytes[v] = info.getQueryStats().getPhysicalInputDataSize().toBytes();
          answers[v] = r.result().getOnlyValue();
          if (run >= 0) {
            seconds[v][run] = s;
          }
          ERR.printf(
              Locale.ROOT,
              "run %d %-12s %.3f s, %d bytes%n",
              run + 1,
              VARIANTS.get(v),
              s,
              bytes[v]);
        }
      }
      OUT.printf(
          Locale.ROOT,
          "TPC-H SF %s lineitem sorted on l_shipdate; %s%nquery: %s%n"
              + "load average (1 min) at the end: %.2f; median of %d runs, order rotated%n",
          TpchCatalogs.format(sf),
          Runtime.version(),
          QUERY,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          runs);
      OUT.printf(Locale.ROOT, "%-13s %10s %14s %s%n", "variant", "median s", "input bytes", "runs");
      for (int v = 0; v < VARIANTS.size(); v++) {
        double[] sorted = seconds[v].clone();
        Arrays.sort(sorted);
        OUT.printf(
            Locale.ROOT,
            "%-13s %10.3f %14d %s%n",
            VARIANTS.get(v),
            sorted[runs / 2],
            bytes[v],
            Arrays.toString(seconds[v]));
      }
      boolean same = answers[0].equals(answers[1]) && answers[0].equals(answers[2]);
      OUT.println("answers equal: " + (same ? "yes" : "NO " + Arrays.toString(answers)));
      if (!same) {
        System.exit(1);
      }
    }
  }

  private static Session session(TpchCatalogs catalogs, int variant) {
    String name = VARIANTS.get(variant);
    Session base = catalogs.session(name.startsWith("mosaic") ? "mosaic" : "hive");
    if (!name.startsWith("mosaic")) {
      return base;
    }
    return Session.builder(base)
        .setCatalogSessionProperty(
            "mosaic", "page_pruning_enabled", Boolean.toString(!name.equals("mosaic-whole")))
        .build();
  }

  /** Writes lineitem sorted on l_shipdate into the catalog, by one writer, unless already there. */
  private static void load(TpchCatalogs catalogs, String catalog) {
    DistributedQueryRunner runner = catalogs.runner();
    runner.execute("CREATE SCHEMA IF NOT EXISTS " + catalog + "." + TpchCatalogs.SCHEMA);
    List<String> tables = new ArrayList<>();
    runner
        .execute("SHOW TABLES FROM " + catalog + "." + TpchCatalogs.SCHEMA)
        .getMaterializedRows()
        .forEach(row -> tables.add((String) row.getField(0)));
    if (tables.contains("lineitem_sorted")) {
      ERR.println(catalog + ".lineitem_sorted reused");
      return;
    }
    // Trino drops an ORDER BY under a table writer; a LIMIT keeps it (a TopN on one node), and one
    // writer keeps that order across the file's row groups and pages.
    Session oneWriter =
        Session.builder(catalogs.session(catalog))
            .setSystemProperty("scale_writers", "false")
            .setSystemProperty("redistribute_writes", "false")
            .setSystemProperty("task_scale_writers_enabled", "false")
            .setSystemProperty("task_min_writer_count", "1")
            .setSystemProperty("task_max_writer_count", "1")
            .setSystemProperty("max_writer_task_count", "1")
            .build();
    long start = System.nanoTime();
    runner.execute(
        oneWriter,
        "CREATE TABLE lineitem_sorted AS SELECT * FROM tpch."
            + catalogs.generatorSchema()
            + ".lineitem ORDER BY l_shipdate LIMIT 1000000000");
    ERR.printf(
        Locale.ROOT,
        "%s.lineitem_sorted written in %.1f s%n",
        catalog,
        (System.nanoTime() - start) / 1e9);
  }
}
