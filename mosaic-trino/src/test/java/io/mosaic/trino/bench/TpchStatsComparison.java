package io.mosaic.trino.bench;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.trino.ShowStats;
import io.mosaic.trino.workload.TraceGenerator;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Statistics (docs/benchmarks.md, "Statistics for Trino's optimizer"): {@code SHOW STATS} of TPC-H
 * lineitem and orders in Mosaic and in Hive (Parquet, after Hive's {@code ANALYZE}) side by side
 * with the exact distinct counts, then the {@code EXPLAIN} plans of q5, q7 and q18 in both. With a
 * second directory of Mosaic tables written by an older Mosaic (no sketches), its statistics and
 * plans are shown as "before".
 *
 * <p>Run: {@code mosaic-trino/tpch-bench-stats [SF [DIR [BEFORE_DIR]]]}. The tables are written
 * once into DIR (default {@code /tmp/mosaic-tpch-trino-sf<SF>-stats}, Mosaic and Hive only); the
 * BEFORE_DIR's tables are only read (SHOW STATS and EXPLAIN read manifests, no data). The plans are
 * written to {@code DIR/plans/<query>-<catalog>.txt}.
 */
public final class TpchStatsComparison {
  private static final PrintStream OUT = System.out;
  private static final PrintStream ERR = System.err;

  private TpchStatsComparison() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    Path dir =
        Path.of(
                args.length > 1
                    ? args[1]
                    : "/tmp/mosaic-tpch-trino-sf" + TpchCatalogs.format(sf) + "-stats")
            .toAbsolutePath();
    Path before = args.length > 2 ? Path.of(args[2]).toAbsolutePath() : null;
    Logging.initialize().setLevel("org.apache.hadoop.io.compress", Level.WARN);
    try (TpchCatalogs catalogs = TpchCatalogs.start(dir, sf)) {
      var runner = catalogs.runner();
      List<String> compared = new ArrayList<>(List.of("mosaic", "hive"));
      if (before != null) {
        runner.createCatalog(
            "before",
            "mosaic",
            Map.of(
                "mosaic.devices-config", before.resolve("devices.toml").toString(),
                "mosaic.metadata-directory", before.resolve("metadata").toString()));
        compared.add("before");
      }
      catalogs.load(List.of("mosaic", "hive"), ERR::println);
      for (String table : List.of("lineitem", "orders")) {
        for (String catalog : List.of("hive", "mosaic")) {
          long start = System.nanoTime();
          runner.execute("ANALYZE " + catalog + ".tpch." + table);
          ERR.printf(
              Locale.ROOT,
              "ANALYZE %s.tpch.%s: %.1f s%n",
              catalog,
              table,
              (System.nanoTime() - start) / 1e9);
        }
      }
      OUT.printf(
          Locale.ROOT,
          "TPC-H SF %s: SHOW STATS, Mosaic vs Hive (Parquet, after ANALYZE)%s; exact = count(DISTINCT"
              + " x)%n",
          TpchCatalogs.format(sf),
          before != null ? " vs Mosaic before issue 20 (" + before + ")" : "");
      for (String table : List.of("lineitem", "orders")) {
        Map<String, Map<String, ShowStats>> stats = new LinkedHashMap<>();
        for (String catalog : compared) {
          stats.put(catalog, ShowStats.of(runner, catalog + ".tpch." + table));
        }
        OUT.printf(Locale.ROOT, "%n%s (%s rows)%n", table, rows(runner, "mosaic.tpch." + table));
        OUT.printf(
            Locale.ROOT,
            "| column | exact NDV | Mosaic NDV | Hive NDV |%s Mosaic data size | Hive data size |%s"
                + " Mosaic nulls | Hive nulls | Mosaic low-high | Hive low-high |%n",
            before != null ? " before NDV |" : "",
            before != null ? " before data size |" : "");
        OUT.println(
            "|---|---:|---:|---:|"
                + (before != null ? "---:|---:|" : "")
                + "---:|---:|---:|---:|---|---|");
        for (String column : stats.get("mosaic").keySet()) {
          ShowStats m = stats.get("mosaic").get(column);
          ShowStats h = stats.get("hive").get(column);
          ShowStats b = before != null ? stats.get("before").get(column) : null;
          long exact =
              rows(runner, "(SELECT DISTINCT " + column + " FROM mosaic.tpch." + table + ")");
          OUT.printf(
              Locale.ROOT,
              "| %s | %d | %s (%s) | %s (%s) |%s %s | %s |%s %s | %s | %s to %s | %s to %s |%n",
              column,
              exact,
              num(m.distinct()),
              error(m.distinct(), exact),
              num(h == null ? null : h.distinct()),
              error(h == null ? null : h.distinct(), exact),
              b != null ? " " + num(b.distinct()) + " |" : "",
              num(m.dataSize()),
              num(h == null ? null : h.dataSize()),
              b != null ? " " + num(b.dataSize()) + " |" : "",
              m.nullsFraction(),
              h == null ? null : h.nullsFraction(),
              m.low(),
              m.high(),
              h == null ? null : h.low(),
              h == null ? null : h.high());
        }
      }
      Path plans = Files.createDirectories(dir.resolve("plans"));
      for (int q : new int[] {5, 7, 18}) {
        for (String catalog : compared) {
          String plan =
              (String)
                  runner
                      .execute(catalogs.session(catalog), "EXPLAIN " + TraceGenerator.tpchQuery(q))
                      .getOnlyValue();
          Files.writeString(plans.resolve("q" + q + "-" + catalog + ".txt"), plan);
          OUT.printf(Locale.ROOT, "%nq%d %s: joins, from the plan's top%n", q, catalog);
          for (String line : plan.split("\n")) {
            String t = line.strip();
            if (t.startsWith("InnerJoin")
                || t.startsWith("LeftJoin")
                || t.startsWith("SemiJoin")
                || t.startsWith("ScanFilter")
                || t.startsWith("TableScan")
                || t.startsWith("ScanProject")
                || t.startsWith("ScanFilterProject")) {
              OUT.println("  " + line.substring(0, Math.min(line.length(), 160)));
            }
          }
        }
      }
      OUT.println("\nplans written to " + plans);
    }
    System.exit(0);
  }

  private static long rows(io.trino.testing.DistributedQueryRunner runner, String from) {
    return ((Number) runner.execute("SELECT count(*) FROM " + from).getOnlyValue()).longValue();
  }

  private static String num(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.0f", v);
  }

  private static String error(Double ndv, long exact) {
    return ndv == null
        ? "-"
        : String.format(Locale.ROOT, "%+.1f%%", 100 * (ndv - exact) / Math.max(1, exact));
  }
}
