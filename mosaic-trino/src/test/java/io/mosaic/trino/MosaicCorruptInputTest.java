package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.cli.CorruptInputCorpus;
import io.mosaic.cli.CorruptInputCorpus.Case;
import io.mosaic.cli.CorruptInputCorpus.Outcome;
import io.trino.spi.ErrorCode;
import io.trino.spi.StandardErrorCode;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corrupt-input corpus ({@link CorruptInputCorpus}, shared with the CLI's test) through SQL:
 * each damaged copy of the template table is a catalog of its own, read by queries; each must give
 * the undamaged table's rows or fail with one of Mosaic's error codes and a message naming the
 * damaged file, never other rows, a generic error or a stack trace. Then bad table properties and
 * bad procedure arguments, each refused with a message naming what was wrong, the committed rows
 * intact. A seeded sample in CI ({@code -Dmosaic.corpus.cases=N}, default 40; {@code all} runs
 * every case); docs/benchmarks.md has the counts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicCorruptInputTest {
  /** What each damaged copy is asked: every row, and a filtered aggregate (pushdown, pruning). */
  static final List<String> QUERIES =
      List.of(
          "SELECT * FROM %s.tables.orders",
          "SELECT o_orderpriority, count(*), sum(o_totalprice), max(o_comment)"
              + " FROM %s.tables.orders WHERE o_orderdate >= DATE '1995-01-01'"
              + " GROUP BY o_orderpriority");

  /** The codes {@link MosaicErrors} gives core's kinds: a failure Mosaic classified. */
  private static final Set<String> MOSAIC_CODES =
      Stream.concat(
              Arrays.stream(MosaicErrorCode.values()).map(c -> c.toErrorCode().getName()),
              Stream.of(StandardErrorCode.TABLE_NOT_FOUND, StandardErrorCode.NOT_SUPPORTED)
                  .map(c -> c.toErrorCode().getName()))
          .collect(Collectors.toSet());

  @TempDir static Path dir;
  private DistributedQueryRunner runner;
  private CorruptInputCorpus corpus;
  private List<List<String>> expected;
  private int catalogs;

  @BeforeAll
  void start() throws Exception {
    runner = MosaicQueryRunner.create(dir.resolve("mosaic"));
    MosaicQueryRunner.writeDeviceModel(dir.resolve("mosaic"));
    corpus = CorruptInputCorpus.create(dir.resolve("template"));
    // The undamaged rows, read through Trino from a copy (a query adds to the trace it reads).
    expected =
        corpus.undamaged(
            dir.resolve("undamaged"),
            d -> {
              String catalog = catalog(d);
              return QUERIES.stream().map(sql -> rows(sql.formatted(catalog))).toList();
            });
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  /** A new catalog over the damaged copy in {@code d}: its devices and its table directory. */
  private String catalog(Path d) {
    String name = "case" + catalogs++;
    runner.createCatalog(
        name,
        "mosaic",
        Map.of(
            "mosaic.devices-config",
            CorruptInputCorpus.devices(d).toString(),
            "mosaic.metadata-directory",
            d.toString(),
            "mosaic.decode-threads",
            "1"));
    return name;
  }

  private List<String> rows(String sql) {
    return runner.execute(sql).getMaterializedRows().stream()
        .map(MaterializedRow::toString)
        .sorted()
        .toList();
  }

  @Test
  void everyDamagedTableGivesItsRowsOrAClearErrorNamingTheFile() throws Exception {
    long seed = CorruptInputCorpus.seed();
    List<Case> all = corpus.cases(seed);
    List<Case> run = CorruptInputCorpus.sample(all, seed, 40);
    CorruptInputCorpus.Tally tally = corpus.runAll(run, dir.resolve("cases"), this::check, d -> {});
    String summary = tally.summary("Trino", seed, run.size(), all.size());
    System.out.println(summary);
    tally.bad().forEach(System.out::println);
    assertThat(tally.bad()).as(summary).isEmpty();
    assertThat(tally.count("rows") + tally.count("error")).isEqualTo(run.size());
  }

  /** A bad statement, and what its error must name (the value or the option that is wrong). */
  record Bad(String sql, String names) {}

  /**
   * Bad table properties and procedure arguments (docs/trino.md, docs/operations.md): each refused
   * by a user error naming what is wrong, without a stack trace; the table's rows stay as they were
   * and no table is left behind.
   */
  @Test
  void badPropertiesAndProcedureArgumentsAreRefusedClearlyAndChangeNothing() {
    runner.execute("CREATE SCHEMA mosaic.bad");
    runner.execute(
        "CREATE TABLE mosaic.bad.orders WITH (row_group_rows = 5000) AS"
            + " SELECT * FROM tpch.tiny.orders");
    // A scan in the trace, so that placing reaches its arguments.
    runner.execute("SELECT max(o_comment) FROM mosaic.bad.orders WHERE o_totalprice > 10");
    String ctas = " AS SELECT * FROM tpch.tiny.nation";
    String place = "CALL mosaic.system.place(schema_name => 'bad', table_name => 'orders', ";
    String maintain = "CALL mosaic.system.maintain(schema_name => 'bad', table_name => 'orders', ";
    String move = "CALL mosaic.system.move_columns('bad', 'orders', ";
    List<Bad> bad =
        List.of(
            new Bad("CREATE TABLE mosaic.bad.t1 WITH (default_device = 'tape')" + ctas, "'tape'"),
            new Bad("CREATE TABLE mosaic.bad.t2 (x bigint) WITH (default_device = 'tape')", "tape"),
            new Bad("CREATE TABLE mosaic.bad.t3 WITH (default_device = '')" + ctas, "device"),
            new Bad(
                "CREATE TABLE mosaic.bad.t4 WITH (default_device = '../fast')" + ctas, "../fast"),
            new Bad(
                "CREATE TABLE mosaic.bad.t5 WITH (row_group_rows = 0)" + ctas, "row_group_rows"),
            new Bad(
                "CREATE TABLE mosaic.bad.t6 WITH (row_group_rows = -5)" + ctas, "row_group_rows"),
            new Bad(
                "CREATE TABLE mosaic.bad.t7 WITH (row_group_rows = 'many')" + ctas,
                "row_group_rows"),
            new Bad("CREATE TABLE mosaic.bad.t8 WITH (codec = 'zstd')" + ctas, "codec"),
            new Bad(
                "CREATE TABLE mosaic.bad.t9 WITH (placement = 'n_name=fast')" + ctas, "placement"),
            new Bad(move + "'o_comment=tape')", "'tape'"),
            new Bad(move + "'nope=slow')", "'nope'"),
            new Bad(move + "'')", "placement"),
            new Bad(move + "'o_comment')", "o_comment"),
            new Bad(move + "'o_comment=slow, o_comment=fast')", "o_comment"),
            new Bad(move + "'o_comment[-1:3]=slow')", "o_comment[-1:3]"),
            new Bad("CALL mosaic.system.move_columns('bad', 'nope', 'o_comment=slow')", "nope"),
            new Bad("CALL mosaic.system.move_columns('..', 'orders', 'o_comment=slow')", ".."),
            new Bad(place + "strategy => 'fastest')", "fastest"),
            new Bad(place + "time_limit => 'soon')", "soon"),
            new Bad(place + "pins => 'o_comment')", "o_comment"),
            new Bad(place + "pins => 'o_comment=tape')", "tape"),
            new Bad(place + "max_bytes => 'fast=lots')", "lots"),
            new Bad(place + "min_bytes => 'tape=1GB')", "tape"),
            new Bad(place + "max_devices => -1)", "max devices"),
            new Bad(place + "sample_fraction => 2)", "sample"),
            new Bad(place + "no_regression => -0.5)", "no-regression"),
            new Bad(place + "no_regression_reference => 'yesterday')", "yesterday"),
            new Bad(maintain + "action => 'explode')", "explode"),
            new Bad(maintain + "shape => 'square')", "square"),
            new Bad(maintain + "rate => '-5MB/s')", "-5MB/s"),
            new Bad(maintain + "rate => 'fast')", "fast"),
            new Bad(maintain + "device_rates => 'tape=1MB/s')", "tape"),
            new Bad(maintain + "horizon => -1)", "horizon"),
            new Bad(maintain + "payoff => -2)", "payoff"),
            new Bad(maintain + "drift => -1)", "drift"));
    List<String> failures = new ArrayList<>();
    for (Bad b : bad) {
      try {
        runner.execute(b.sql());
        failures.add(b.sql() + ": accepted");
      } catch (RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        ErrorCode code = MosaicErrorsTest.errorCode(e);
        String unclear = CorruptInputCorpus.unclear(message);
        if (code.getType() != io.trino.spi.ErrorType.USER_ERROR) {
          failures.add(b.sql() + ": " + code.getName() + ": " + message);
        } else if (unclear != null) {
          failures.add(b.sql() + ": " + unclear + ": " + message);
        } else if (!message.contains(b.names())) {
          failures.add(b.sql() + ": does not name " + b.names() + ": " + message);
        } else {
          System.out.println("  refused: " + b.sql() + " -> " + code.getName() + ": " + message);
        }
      }
    }
    String summary =
        String.format(
            "bad table properties and procedure arguments through Trino: %d statements, %d clear"
                + " errors, %d failures",
            bad.size(), bad.size() - failures.size(), failures.size());
    System.out.println(summary);
    failures.forEach(System.out::println);
    assertThat(failures).as(summary).isEmpty();
    assertThat(runner.execute("SHOW TABLES FROM mosaic.bad").getOnlyColumnAsSet())
        .containsExactly("orders");
    assertThat(
            runner
                .execute(
                    "SELECT count(*) FROM (SELECT * FROM mosaic.bad.orders"
                        + " EXCEPT ALL SELECT * FROM tpch.tiny.orders)")
                .getOnlyValue())
        .isEqualTo(0L);
    assertThat(runner.execute("SELECT count(*) FROM mosaic.bad.orders").getOnlyValue())
        .isEqualTo(runner.execute("SELECT count(*) FROM tpch.tiny.orders").getOnlyValue());
  }

  private Outcome check(Case c, Path d, String file) {
    String catalog;
    try {
      catalog = catalog(d);
    } catch (RuntimeException e) {
      // A damaged devices.toml fails the catalog's start, naming the file or the device.
      return refusal(c, d, file, e, null);
    }
    try {
      return queries(c, d, file, catalog);
    } finally {
      runner.execute("DROP CATALOG " + catalog); // its retriever's threads with it
    }
  }

  private Outcome queries(Case c, Path d, String file, String catalog) {
    return CorruptInputCorpus.read(
        c,
        expected,
        q -> rows(QUERIES.get(q).formatted(catalog)),
        e -> refusal(c, d, file, e, MosaicErrorsTest.errorCode(e)));
  }

  /** A failed query (or catalog): clear if Mosaic classified it and the message names the file. */
  private static Outcome refusal(Case c, Path d, String file, Exception e, ErrorCode code) {
    String message = String.valueOf(e.getMessage());
    if (code != null && !MOSAIC_CODES.contains(code.getName())) {
      return new Outcome(c, "unclassified", code.getName() + ": " + message);
    }
    return CorruptInputCorpus.refusal(c, d, file, message);
  }
}
