package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cooperative scans in Trino (docs/cooperative-scans.md): concurrent queries with the session
 * property {@code sharing_policy} return the same rows as with sharing off, and the page sources
 * report the chunks they read and those they got from the node's shared buffer in the operator
 * stats.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicSharedScansTest {
  @TempDir static Path dir;
  private DistributedQueryRunner runner;

  // Q6-like and Q1-like over lineitem, with ranges: different columns and row groups per query.
  private static final List<String> QUERIES =
      List.of(
          "SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01'"
              + " AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07"
              + " AND l_quantity < 24",
          "SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice),"
              + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)), avg(l_discount), count(*)"
              + " FROM lineitem WHERE l_shipdate <= DATE '1998-09-02'"
              + " GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus",
          "SELECT count(*), sum(l_quantity) FROM lineitem WHERE l_orderkey < 30000",
          "SELECT l_shipmode, count(*), max(l_comment) FROM lineitem GROUP BY l_shipmode"
              + " ORDER BY l_shipmode",
          "SELECT sum(l_extendedprice), min(l_shipdate) FROM lineitem WHERE l_orderkey > 40000");

  @BeforeAll
  void start() throws Exception {
    // A shared buffer far smaller than the table (about 5 MB of chunks at tpch.tiny).
    runner = MosaicQueryRunner.create(dir, Map.of("mosaic.shared-buffer-memory", "1MB"));
    runner.execute("CREATE SCHEMA mosaic.tiny");
    runner.execute(
        "CREATE TABLE mosaic.tiny.lineitem WITH (row_group_rows = 5000) AS"
            + " SELECT * FROM tpch.tiny.lineitem");
  }

  @AfterAll
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  private Session session(String policy) {
    return Session.builder(runner.getDefaultSession())
        .setCatalogSessionProperty("mosaic", "sharing_policy", policy)
        .build();
  }

  @Test
  void concurrentQueriesReturnTheSameRowsWithSharingOnAsOff() throws Exception {
    List<MaterializedResult> off = new ArrayList<>();
    for (String q : QUERIES) {
      off.add(runner.execute(session("normal"), q));
    }
    for (String policy : List.of("relevance", "elevator", "attach")) {
      ExecutorService clients = Executors.newFixedThreadPool(2 * QUERIES.size());
      try {
        List<Future<MaterializedResultWithPlan>> on = new ArrayList<>();
        // Each query twice at once: ten concurrent client sessions.
        for (int round = 0; round < 2; round++) {
          for (String q : QUERIES) {
            on.add(clients.submit(() -> runner.executeWithPlan(session(policy), q)));
          }
        }
        long shared = 0;
        long read = 0;
        for (int i = 0; i < on.size(); i++) {
          MaterializedResultWithPlan result = on.get(i).get();
          assertThat(result.result().getMaterializedRows())
              .as("%s: %s", policy, QUERIES.get(i % QUERIES.size()))
              .containsExactlyInAnyOrderElementsOf(
                  off.get(i % QUERIES.size()).getMaterializedRows());
          shared += metric(result, MosaicPageSource.CHUNKS_SHARED);
          read += metric(result, MosaicPageSource.CHUNKS_READ);
        }
        assertThat(read).as(policy + ": chunks read").isPositive();
        assertThat(shared).as(policy + ": chunks from the shared buffer").isPositive();
      } finally {
        clients.shutdownNow();
      }
    }
  }

  /** The connector metric {@code name} summed over the query's table scan operators. */
  private long metric(MaterializedResultWithPlan result, String name) {
    return MosaicQueryRunner.connectorMetrics(runner, result.queryId()).getOrDefault(name, 0L);
  }

  @Test
  void normalReadsAloneAndSaysSo() {
    MaterializedResultWithPlan result = runner.executeWithPlan(session("normal"), QUERIES.get(0));
    assertThat(metric(result, MosaicPageSource.CHUNKS_READ)).isPositive();
    assertThat(metric(result, MosaicPageSource.CHUNKS_SHARED)).isZero();
  }

  @Test
  void unknownPolicyIsNamed() {
    assertThatThrownBy(() -> runner.execute(session("fastest"), QUERIES.get(0)))
        .hasMessageContaining("sharing_policy")
        .hasMessageContaining(
            "'fastest' is unknown; use one of normal, attach, elevator," + " relevance");
  }
}
