package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.trino.tpch.TpchTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The TPC-H queries ({@link #queries}) on a pool's remote devices (HDFS, S3) against their answers
 * on local files, for the {@code local-cluster} ITs ({@link HdfsLocalClusterIT}, {@link
 * S3LocalClusterIT}): the reference is Spark's answers over the same rows as Parquet, kept by
 * {@link TpchQueriesTest} earlier in the build ({@link TpchReference}), or, when an IT runs alone,
 * the answers on a copy on the pool's local device "nvme", loaded from the same generated rows.
 *
 * @param remote the remote copy's name, the folder of its tables ("hdfs", "s3")
 * @param location the location of a table named as {@code <pool>/<table>}, pool {@code remote} or
 *     "local"
 */
record ClusterTpch(
    SparkSession spark, double scale, String remote, Function<String, String> location) {
  /**
   * Jobs run this many at a time: at SF 0.01 most of a job is the driver planning and scheduling,
   * which overlaps with the two executors' tasks of other jobs.
   */
  static final int PARALLEL = 4;

  /** The reference answers of {@link TpchQueriesTest}, if this build wrote them. */
  Optional<List<List<String>>> reference() throws Exception {
    return TpchReference.read(scale);
  }

  /**
   * Generates the 8 tables and writes each to the remote copy on {@code device.apply(table)}, and
   * to the local copy too when there is no reference.
   */
  void load(Function<String, String> device) throws Exception {
    boolean local = reference().isEmpty();
    long start = System.nanoTime();
    List<Callable<Void>> loads = new ArrayList<>();
    for (TpchTable<?> t : TpchTable.getTables()) {
      String name = t.getTableName();
      loads.add(
          () -> {
            Dataset<Row> df = TpchSpark.dataFrame(spark, name, scale, 2);
            if (local) {
              // Generated once, written to both pools.
              df = df.cache();
              df.write()
                  .format("mosaic")
                  .option("default_device", "nvme")
                  .save(location.apply("local/" + name));
            }
            df.write()
                .format("mosaic")
                .option("default_device", device.apply(name))
                .save(location.apply(remote + "/" + name));
            df.unpersist();
            return null;
          });
    }
    inParallel(loads);
    System.out.printf(
        Locale.ROOT,
        "TPC-H SF %s loaded %s in %.1f s%n",
        scale,
        local ? "on both pools" : "on " + remote,
        (System.nanoTime() - start) / 1e9);
  }

  /** Runs the queries on the remote copy, and asserts each answers as on local files. */
  void assertAnswersAsOnLocalFiles() throws Exception {
    Optional<List<List<String>>> parquet = reference();
    long start = System.nanoTime();
    // A session per pool: the same view names (the TPC-H tables) on the pool's copies, side by
    // side.
    SparkSession remoteSession = session(remote);
    SparkSession local = parquet.isEmpty() ? session("local") : null;
    List<Integer> queries = queries();
    List<Callable<List<String>>> answers = new ArrayList<>();
    for (int q : queries) {
      List<String> statements = TpchSpark.statements(q);
      answers.add(() -> TpchReference.lines(run(remoteSession, statements)));
      if (local != null) {
        answers.add(() -> TpchReference.lines(run(local, statements)));
      }
    }
    List<List<String>> answered = inParallel(answers);
    int perQuery = local != null ? 2 : 1;
    int withRows = 0;
    for (int i = 0; i < queries.size(); i++) {
      int q = queries.get(i);
      List<String> expected =
          parquet.isPresent() ? parquet.get().get(q - 1) : answered.get(perQuery * i + 1);
      assertThat(answered.get(perQuery * i)).as("TPC-H q%d", q).isEqualTo(expected);
      withRows += expected.isEmpty() ? 0 : 1;
    }
    System.out.printf(
        Locale.ROOT,
        "TPC-H SF %s: %d queries on %s (%s) in %.1f s%n",
        scale,
        queries.size(),
        remote,
        parquet.isEmpty() ? "and on a local device" : "Parquet's answers kept by TpchQueriesTest",
        (System.nanoTime() - start) / 1e9);
    // At SF 0.01 two of the 22 answer no rows.
    assertThat(withRows)
        .as("queries with a non-empty answer")
        .isGreaterThanOrEqualTo(queries.size() - 2);
  }

  /**
   * The TPC-H queries run on remote storage: the even ones, while Trino's suites on the same
   * storage run the odd ones, so that CI answers each query once on each storage across the two
   * engines at half the time; {@code -Dmosaic.cluster.tpch=all} runs all 22 in both, the acceptance
   * run of docs/distributed-storage.md.
   */
  static List<Integer> queries() {
    boolean all = "all".equals(System.getProperty("mosaic.cluster.tpch"));
    return java.util.stream.IntStream.rangeClosed(1, 22)
        .filter(q -> all || q % 2 == 0)
        .boxed()
        .toList();
  }

  /** The results of {@code work}, run {@link #PARALLEL} at a time. */
  static <T> List<T> inParallel(List<Callable<T>> work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
    try {
      List<T> results = new ArrayList<>();
      for (Future<T> f : pool.invokeAll(work)) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdown();
    }
  }

  /** A session whose TPC-H views read the tables of {@code pool}. */
  private SparkSession session(String pool) {
    SparkSession session = spark.newSession();
    for (TpchTable<?> t : TpchTable.getTables()) {
      session
          .read()
          .format("mosaic")
          .load(location.apply(pool + "/" + t.getTableName()))
          .createOrReplaceTempView(t.getTableName());
    }
    return session;
  }

  private static List<Row> run(SparkSession session, List<String> statements) {
    List<Row> result = null;
    for (String s : statements) {
      result = session.sql(s).collectAsList();
    }
    return result;
  }
}
