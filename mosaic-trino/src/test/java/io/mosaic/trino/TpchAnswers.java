package io.mosaic.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.mosaic.trino.workload.TraceGenerator;
import io.trino.testing.MaterializedResult;
import io.trino.testing.QueryRunner;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers of the 22 TPC-H queries over Trino's {@code tpch} catalog, computed once per test JVM
 * and per schema: the reference that the module's TPC-H suites compare Mosaic's answers with, on
 * local devices ({@link MosaicTpchQueriesTest}) and on HDFS devices ({@link
 * MosaicHdfsClusterTest}). The generator's rows are the same whichever runner asks, so one runner's
 * answers serve all; each query on a small machine costs about a second of scheduling, whatever it
 * reads.
 */
final class TpchAnswers {
  private static final Map<String, CompletableFuture<MaterializedResult>> ANSWERS =
      new ConcurrentHashMap<>();

  private TpchAnswers() {}

  /**
   * The TPC-H queries the suites on remote storage run (HDFS, S3): the odd ones, while Spark's
   * cluster suites run the even ones, so that CI answers each query once on each storage across the
   * two engines at half the time; {@code -Dmosaic.cluster.tpch=all} runs all 22 in both, the
   * acceptance run of docs/distributed-storage.md.
   */
  static List<Integer> onRemoteStorage() {
    boolean all = "all".equals(System.getProperty("mosaic.cluster.tpch"));
    return java.util.stream.IntStream.rangeClosed(1, 22)
        .filter(q -> all || q % 2 == 1)
        .boxed()
        .toList();
  }

  /** Query {@code q}'s answer over {@code tpch.<schema>}, run on {@code runner} the first time. */
  static MaterializedResult of(QueryRunner runner, String schema, int q) {
    CompletableFuture<MaterializedResult> mine = new CompletableFuture<>();
    CompletableFuture<MaterializedResult> answer = ANSWERS.putIfAbsent(schema + "/" + q, mine);
    if (answer != null) {
      return answer.join();
    }
    try {
      mine.complete(
          runner.execute(
              testSessionBuilder().setCatalog("tpch").setSchema(schema).build(),
              TraceGenerator.tpchQuery(q)));
    } catch (RuntimeException | Error e) {
      ANSWERS.remove(schema + "/" + q, mine);
      mine.completeExceptionally(e);
      throw e;
    }
    return mine.join();
  }
}
