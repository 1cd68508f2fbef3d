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
import java.util.concurrent.ExecutorService;
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
    corpus = CorruptInputCorpus.create(dir.resolve("template"));
    // The undamaged rows, read through Trino from a copy (a query adds to the trace it reads).
    ExecutorService pool = CorruptInputCorpus.daemonPool();
    try {
      List<List<String>> rows = new ArrayList<>();
      corpus.run(
          new Case("undamaged", "none", d -> "orders"),
          dir.resolve("undamaged"),
          pool,
          (c, d, file) -> {
            String catalog = catalog(d);
            for (String sql : QUERIES) {
              rows.add(rows(sql.formatted(catalog)));
            }
            return new Outcome(c, "rows", "");
          });
      expected = rows;
    } finally {
      pool.shutdownNow();
    }
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
    CorruptInputCorpus.Tally tally = new CorruptInputCorpus.Tally();
    ExecutorService pool = CorruptInputCorpus.daemonPool();
    try {
      for (Case c : run) {
        tally.add(corpus.run(c, dir.resolve("case"), pool, this::check));
      }
    } finally {
      pool.shutdownNow();
    }
    String summary = tally.summary("Trino", seed, run.size(), all.size());
    System.out.println(summary);
    tally.bad().forEach(System.out::println);
    assertThat(tally.bad()).as(summary).isEmpty();
    assertThat(tally.count("rows") + tally.count("error")).isEqualTo(run.size());
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
    for (int q = 0; q < QUERIES.size(); q++) {
      List<String> got;
      try {
        got = rows(QUERIES.get(q).formatted(catalog));
      } catch (RuntimeException e) {
        return refusal(c, d, file, e, MosaicErrorsTest.errorCode(e));
      }
      if (!got.equals(expected.get(q))) {
        return new Outcome(c, "wrong", "query " + q + ": " + got.size() + " rows");
      }
    }
    return new Outcome(c, "rows", "");
  }

  /** A failed query (or catalog): clear if Mosaic classified it and the message names the file. */
  private static Outcome refusal(Case c, Path d, String file, RuntimeException e, ErrorCode code) {
    String message = String.valueOf(e.getMessage());
    if (code != null && !MOSAIC_CODES.contains(code.getName())) {
      return new Outcome(c, "unclassified", code.getName() + ": " + message);
    }
    String unclear = CorruptInputCorpus.unclear(message);
    if (unclear != null) {
      return new Outcome(c, "unclear", unclear + ": " + message);
    }
    if (!CorruptInputCorpus.names(message, file, d)) {
      return new Outcome(c, "unnamed", message);
    }
    return new Outcome(c, "error", message);
  }
}
