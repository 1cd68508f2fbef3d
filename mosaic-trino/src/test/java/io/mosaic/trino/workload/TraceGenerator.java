package io.mosaic.trino.workload;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.trino.Session;
import io.trino.metadata.Metadata;
import io.trino.plugin.tpcds.TpcdsPlugin;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.sql.planner.Plan;
import io.trino.sql.planner.optimizations.PlanNodeSearcher;
import io.trino.sql.planner.plan.PlanNode;
import io.trino.sql.planner.plan.TableScanNode;
import io.trino.testing.DistributedQueryRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Derives a workload trace (paper Figure 3b) from real query plans: plans each query in an
 * in-process Trino and records, for every table scan left in the optimised plan, the table and the
 * columns the scan reads. This is what Mosaic's trace recorder would log had the queries run, so
 * the shipped traces are not typed by hand (docs/workloads.md).
 *
 * <p>The tpch catalog uses the connector's {@code STANDARD} column naming (l_orderkey, ...), the
 * names of the TPC-H specification, and has predicate pushdown off: the tpch connector can absorb a
 * filter on a column it generates (e.g. o_orderstatus) and drop that column from the scan, which a
 * storage engine like Mosaic, which has to read the column to filter on it, never can.
 *
 * <p>Output format, one line per table scan in plan order, columns sorted:
 *
 * <pre>
 * # comment
 * [[trace]]
 * # q01
 * lineitem:l_discount,l_extendedprice,...
 * </pre>
 */
public final class TraceGenerator implements AutoCloseable {
  /** The 22 TPC-H queries: Trino's tpch library ships them, Q15 is ours (no views in tpch). */
  private static final String TPCH_QUERIES = "/io/trino/tpch/queries/q%d.sql";

  private static final String OWN_QUERIES = "/io/mosaic/trino/workload/tpch/q%d.sql";

  /**
   * The 99 TPC-DS queries as Trino's benchto benchmarks ship them, with {@code
   * ${database}.${schema}.} before every table name.
   */
  private static final String TPCDS_QUERIES = "/sql/presto/tpcds/q%02d.sql";

  public static final int TPCDS_QUERY_COUNT = 99;

  /** Where the planner ships the traces, relative to the mosaic-trino module directory. */
  private static final Path WORKLOADS =
      Path.of("../mosaic-planner/src/main/resources/io/mosaic/workloads");

  public static final Path TPCH_TRACE = WORKLOADS.resolve("tpch.trace");
  public static final Path TPCDS_TRACE = WORKLOADS.resolve("tpcds.trace");

  private final DistributedQueryRunner runner;
  private final Session session;

  private TraceGenerator(DistributedQueryRunner runner, Session session) {
    this.runner = runner;
    this.session = session;
  }

  /**
   * Starts a one-worker Trino with the tpch and tpcds catalogs (schema tiny: which columns a scan
   * reads does not depend on the scale factor).
   */
  public static TraceGenerator start() throws Exception {
    Session session = testSessionBuilder().setCatalog("tpch").setSchema("tiny").build();
    DistributedQueryRunner runner =
        DistributedQueryRunner.builder(session).setWorkerCount(0).build();
    try {
      runner.installPlugin(new TpchPlugin());
      runner.createCatalog(
          "tpch",
          "tpch",
          Map.of(
              "tpch.column-naming", "STANDARD",
              "tpch.predicate-pushdown-enabled", "false"));
      // The tpcds connector pushes no predicate into its scans and names columns as the spec does.
      runner.installPlugin(new TpcdsPlugin());
      runner.createCatalog("tpcds", "tpcds", Map.of());
      return new TraceGenerator(runner, session);
    } catch (RuntimeException e) {
      runner.close();
      throw e;
    }
  }

  /** One table scan of a plan: the table and the columns it reads. */
  public record Scan(String table, Set<String> columns) {
    public Scan {
      columns = new TreeSet<>(columns);
    }

    public String line() {
      return table + ":" + String.join(",", columns);
    }
  }

  /** A session on schema tiny of {@code catalog} (tpch or tpcds). */
  public Session session(String catalog) {
    return Session.builder(session).setCatalog(catalog).setSchema("tiny").build();
  }

  /** The table scans of one TPC-H query's optimised plan, in plan order. */
  public List<Scan> scans(String sql) {
    return scans(session, sql);
  }

  /** The table scans of one query's optimised plan, in plan order. */
  public List<Scan> scans(Session on, String sql) {
    return runner.inTransaction(
        on,
        tx -> {
          Plan plan = runner.createPlan(tx, sql);
          Metadata metadata = runner.getPlannerContext().getMetadata();
          List<Scan> scans = new ArrayList<>();
          for (PlanNode node :
              PlanNodeSearcher.searchFrom(plan.getRoot())
                  .whereIsInstanceOfAny(TableScanNode.class)
                  .findAll()) {
            TableScanNode scan = (TableScanNode) node;
            String table =
                metadata.getTableName(tx, scan.getTable()).getSchemaTableName().getTableName();
            Set<String> columns = new LinkedHashSet<>();
            scan.getAssignments()
                .values()
                .forEach(
                    handle ->
                        columns.add(
                            metadata.getColumnMetadata(tx, scan.getTable(), handle).getName()));
            if (columns.isEmpty()) {
              // A scan that only counts rows reads no column; Mosaic answers it from the manifest.
              continue;
            }
            scans.add(new Scan(table, columns));
          }
          return scans;
        });
  }

  /** The TPC-H query text {@code n} (1-22), without its leading comment lines. */
  public static String tpchQuery(int n) {
    String own = resource(String.format(OWN_QUERIES, n));
    return stripComments(own != null ? own : resource(String.format(TPCH_QUERIES, n)));
  }

  /** The TPC-DS query text {@code n} (1-99), over the session's catalog and schema. */
  public static String tpcdsQuery(int n) {
    String sql = resource(String.format(TPCDS_QUERIES, n));
    if (sql == null) {
      throw new IllegalStateException(
          "TPC-DS query "
              + n
              + " not on the class path: io.trino:trino-benchto-benchmarks ships them");
    }
    return stripComments(sql.replace("${database}.${schema}.", ""));
  }

  /** The TPC-H trace: every scan of the 22 queries' plans. */
  public String tpchTrace() {
    return trace("TPC-H", "tpch", 22, TraceGenerator::tpchQuery);
  }

  /** The TPC-DS trace: every scan of the 99 queries' plans. */
  public String tpcdsTrace() {
    return trace("TPC-DS", "tpcds", TPCDS_QUERY_COUNT, TraceGenerator::tpcdsQuery);
  }

  private String trace(
      String benchmark, String catalog, int queries, java.util.function.IntFunction<String> query) {
    StringBuilder out = new StringBuilder();
    int total = 0;
    Set<Scan> distinct = new LinkedHashSet<>();
    StringBuilder body = new StringBuilder();
    for (int q = 1; q <= queries; q++) {
      body.append(String.format("# q%02d%n", q));
      for (Scan scan : scans(session(catalog), query.apply(q))) {
        body.append(scan.line()).append('\n');
        total++;
        distinct.add(scan);
      }
    }
    out.append("# ")
        .append(benchmark)
        .append(" workload trace (paper Figure 3b format): one line per table scan,\n")
        .append("# table:columns read. Derived from Trino ")
        .append(trinoVersion())
        .append("'s optimised plans of the ")
        .append(queries)
        .append(" ")
        .append(benchmark)
        .append(" queries\n")
        .append(
            "# by io.mosaic.trino.workload.TraceGenerator; do not edit, regenerate (docs/workloads.md).\n")
        .append("# ")
        .append(total)
        .append(" table scans, ")
        .append(distinct.size())
        .append(" distinct.\n")
        .append("[[trace]]\n")
        .append(body);
    return out.toString();
  }

  /** Regenerates the shipped trace files: run from the mosaic-trino module directory. */
  public static void main(String[] args) throws Exception {
    try (TraceGenerator generator = start()) {
      Files.writeString(TPCH_TRACE, generator.tpchTrace());
      System.out.println("Wrote " + TPCH_TRACE.toAbsolutePath().normalize());
      Files.writeString(TPCDS_TRACE, generator.tpcdsTrace());
      System.out.println("Wrote " + TPCDS_TRACE.toAbsolutePath().normalize());
    }
  }

  /** The trino-main version on the class path, from its Maven metadata. */
  private static String trinoVersion() {
    String pom = resource("/META-INF/maven/io.trino/trino-main/pom.properties");
    if (pom != null) {
      for (String line : pom.split("\n")) {
        if (line.startsWith("version=")) {
          return line.substring("version=".length()).strip();
        }
      }
    }
    return "(unknown version)";
  }

  private static String resource(String name) {
    try (InputStream in = TraceGenerator.class.getResourceAsStream(name)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Drops {@code --} comment lines and a trailing semicolon: the parser takes one statement. */
  static String stripComments(String sql) {
    StringBuilder out = new StringBuilder();
    for (String line : sql.split("\n")) {
      if (!line.strip().startsWith("--")) {
        out.append(line).append('\n');
      }
    }
    String text = out.toString().strip();
    return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
  }

  @Override
  public void close() {
    runner.close();
  }
}
