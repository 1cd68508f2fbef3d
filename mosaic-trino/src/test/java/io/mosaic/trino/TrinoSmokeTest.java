package io.mosaic.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;
import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.config.ByteSize;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import org.junit.jupiter.api.Test;

/**
 * Settles dependency convergence early: an in-process Trino cluster (coordinator and a worker) runs
 * with mosaic-core on its class path.
 */
class TrinoSmokeTest {
  @Test
  void inProcessTrinoRunsATpchQuery() throws Exception {
    try (DistributedQueryRunner runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("tpch").setSchema("tiny").build())
            .setWorkerCount(1)
            .build()) {
      runner.installPlugin(new TpchPlugin());
      runner.createCatalog("tpch", "tpch");
      MaterializedResult result =
          runner.execute(
              "SELECT count(*), sum(quantity) FROM lineitem WHERE shipdate < DATE '1995-01-01'");
      MaterializedResult all = runner.execute("SELECT count(*) FROM lineitem");
      assertThat(all.getOnlyValue()).isEqualTo(60175L);
      assertThat((long) result.getMaterializedRows().get(0).getField(0)).isBetween(1L, 60175L);
      assertThat(runner.getNodeCount()).isEqualTo(2);
    }
    assertThat(ByteSize.parse("1 GiB").bytes()).isEqualTo(1L << 30);
  }
}
