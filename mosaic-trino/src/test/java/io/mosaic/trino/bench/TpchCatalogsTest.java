package io.mosaic.trino.bench;

import static io.trino.testing.QueryAssertions.assertEqualsIgnoreOrder;
import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.testing.MaterializedResult;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's set-up at SF 0.01: its loader fills the three compared catalogs with what the
 * generator holds, they answer queries exactly as the generator does, and a second start over the
 * same directory reuses Mosaic's and Hive's tables (the timings themselves are the benchmark's,
 * docs/benchmarks.md).
 */
class TpchCatalogsTest {
  @TempDir Path dir;

  private final Session tiny = testSessionBuilder().setCatalog("tpch").setSchema("tiny").build();

  @Test
  void loadsTheSameDataIntoEveryCatalogAndReusesThePersistentOnes() throws Exception {
    try (TpchCatalogs catalogs = TpchCatalogs.start(dir, 0.01)) {
      List<TpchCatalogs.Loaded> loaded = catalogs.load(line -> {});
      assertThat(loaded).hasSize(TpchCatalogs.COMPARED.size() * TpchCatalogs.TABLES.size());
      for (TpchCatalogs.Loaded l : loaded) {
        assertThat(l.rows())
            .as(l.toString())
            .isEqualTo(
                catalogs
                    .runner()
                    .execute(tiny, "SELECT count(*) FROM " + l.table())
                    .getOnlyValue());
      }
      // Q3 joins three tables, orders and limits; Q1 aggregates decimals and dates.
      assertSameAnswers(catalogs, TraceGenerator.tpchQuery(3));
      assertSameAnswers(catalogs, TraceGenerator.tpchQuery(1));
    }
    try (TpchCatalogs catalogs = TpchCatalogs.start(dir, 0.01)) {
      List<TpchCatalogs.Loaded> loaded = catalogs.load(line -> {});
      assertThat(loaded)
          .extracting(TpchCatalogs.Loaded::catalog)
          .containsOnly("memory")
          .hasSize(TpchCatalogs.TABLES.size());
      assertSameAnswers(catalogs, TpchTrinoBenchmark.SCAN);
    }
  }

  private void assertSameAnswers(TpchCatalogs catalogs, String sql) {
    MaterializedResult expected = catalogs.runner().execute(tiny, sql);
    assertThat(expected.getRowCount()).isPositive();
    for (String catalog : TpchCatalogs.COMPARED) {
      MaterializedResult actual = catalogs.runner().execute(catalogs.session(catalog), sql);
      assertEqualsIgnoreOrder(actual.getMaterializedRows(), expected.getMaterializedRows());
    }
  }
}
