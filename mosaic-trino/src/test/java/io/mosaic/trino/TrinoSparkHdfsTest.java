package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.table.MosaicTable;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.MaterializedRow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trino and Spark on the same Mosaic tables, whose devices are HDFS directories with the policies
 * ALL_SSD, HOT and COLD (docs/distributed-storage.md, "Multi-node engines on one HDFS table"): an
 * in-process Trino cluster of a coordinator and two workers, and a Spark driver ({@code local[2]})
 * in a child JVM ({@link SparkChild}: the two engines cannot share a class path). Each engine reads
 * the rows the other wrote, INSERTs from Trino and appends from Spark commit concurrently, and
 * Spark's queries answer right while Trino places and migrates the table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TrinoSparkHdfsTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();
  @RegisterExtension static final HdfsTrinoCluster TRINO = new HdfsTrinoCluster(HDFS);

  private static final String SCHEMA = "shared";
  private static final Duration CALL = Duration.ofMinutes(2);

  @TempDir static Path dir;
  private final long started = System.nanoTime();
  private DistributedQueryRunner runner;
  private SparkChild spark;
  private DevicePool pool;

  /** A failed test's log shows what Spark said too. */
  @RegisterExtension
  final TestWatcher sparkOutputOnFailure =
      new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
          if (spark != null) {
            System.out.println(spark.outputTail());
          }
        }
      };

  /**
   * Table {@code table} of schema {@link #SCHEMA} as Spark's path-based source names it: where
   * Trino's warehouse keeps it, {@code <metadata directory>/<schema>/<table>}.
   */
  private static String location(String table) {
    return TRINO.metadataDirectory() + "/" + SCHEMA + "/" + table;
  }

  @BeforeAll
  void start() throws Exception {
    // The module's shared Trino cluster (HdfsTrinoCluster) and its pool.
    Path devices = TRINO.devices();
    // The cluster's client settings: one replica, small blocks, ...
    spark = SparkChild.start(devices, MiniHdfs.CLIENT_SETTINGS, dir.resolve("spark-child.log"));
    runner = TRINO.runner();
    pool = DevicePool.load(devices, HDFS.conf());
    runner.execute("CREATE SCHEMA mosaic." + SCHEMA);
    long trino = System.nanoTime();
    spark.awaitReady(Duration.ofMinutes(3));
    System.out.println(
        String.format(
            Locale.ROOT,
            "HDFS up in %.1f s; Trino (3 nodes) in %.1f s; Spark child ready %.1f s later",
            HDFS.startTime().toMillis() / 1e3,
            (trino - started) / 1e9,
            (System.nanoTime() - trino) / 1e9));
  }

  @AfterAll
  void stop() {
    if (spark != null) {
      spark.close();
    }
    System.out.println(
        String.format(
            Locale.ROOT, "TrinoSparkHdfsTest: %.1f s", (System.nanoTime() - started) / 1e9));
  }

  private MaterializedResult sql(String sql) {
    return runner.execute(sql);
  }

  private static String trinoRows(long from, long to, String who) {
    return String.format(
        Locale.ROOT,
        "SELECT x AS id, CAST('%s' AS VARCHAR) AS who FROM UNNEST(sequence(%d, %d)) AS t(x)",
        who,
        from,
        to - 1);
  }

  /**
   * Per writer: its rows, distinct ids, least and greatest id and their sum, as Spark prints the
   * rows. Each writer wrote one range of ids, so a count equal to {@code max - min + 1} and to the
   * distinct count pins the exact set of ids.
   */
  private static final String BY_WRITER =
      "SELECT who, count(*), count(DISTINCT id), min(id), max(id), sum(id) FROM t"
          + " GROUP BY who ORDER BY who";

  /** {@link #BY_WRITER}'s row for a writer of ids {@code [from, to)}. */
  private static String writer(String who, long from, long to) {
    long n = to - from;
    return String.format(
        Locale.ROOT,
        "[%s,%d,%d,%d,%d,%d]",
        who,
        n,
        n,
        from,
        to - 1,
        LongStream.range(from, to).sum());
  }

  private int versions(String table) {
    return MosaicTable.open(location(table), pool).versions().size();
  }

  @Test
  void eachEngineReadsTheRowsTheOtherWrote() {
    sql(
        "CREATE TABLE mosaic.shared.both WITH (default_device = 'hot') AS "
            + trinoRows(0, 2000, "trino"));
    // Spark appends to the table Trino created...
    spark.call(CALL, "append", location("both"), "2000", "1500", "spark", "1");
    // ...Trino reads exactly both engines' rows...
    List<String> expected = new ArrayList<>();
    LongStream.range(0, 2000).forEach(id -> expected.add(id + ":trino"));
    LongStream.range(2000, 3500).forEach(id -> expected.add(id + ":spark"));
    assertThat(sql("SELECT id, who FROM mosaic.shared.both").getMaterializedRows())
        .extracting(r -> r.getField(0) + ":" + r.getField(1))
        .containsExactlyInAnyOrderElementsOf(expected);
    // ...and Spark reads exactly what Trino inserts next.
    sql("INSERT INTO mosaic.shared.both " + trinoRows(3500, 4000, "trino2"));
    assertSparkReadsWriters(
        "both",
        writer("spark", 2000, 3500),
        writer("trino", 0, 2000),
        writer("trino2", 3500, 4000));
  }

  @Test
  void timestampsWithTimeZoneTimesAndUuidsReadTheSameInBothEngines() {
    // 10:15:30.123456 in Warsaw (UTC+1 in March) is 09:15:30.123456 UTC: the instant is kept.
    long micros = 1_709_284_530_123_456L;
    sql(
        "CREATE TABLE mosaic.shared.typed"
            + " (id bigint, tstz timestamp(6) with time zone, t time(6), u uuid)");
    sql(
        "INSERT INTO mosaic.shared.typed VALUES"
            + " (1, TIMESTAMP '2024-03-01 10:15:30.123456 Europe/Warsaw', TIME '23:59:59.999999',"
            + " UUID 'f47ac10b-58cc-4372-a567-0e02b2c3d479'), (2, NULL, NULL, NULL)");
    spark.call(
        CALL,
        "append-sql",
        location("typed"),
        "SELECT 3L AS id, timestamp_micros("
            + (micros + 1)
            + "L) AS tstz, make_time(0, 0, 0.000001) AS t,"
            + " 'a47ac10b-58cc-4372-a567-0e02b2c3d47a' AS u"
            + " UNION ALL SELECT 4L, NULL, NULL, NULL");
    assertThat(
            sql("SELECT id, CAST(tstz AS varchar), CAST(t AS varchar), CAST(u AS varchar)"
                    + " FROM mosaic.shared.typed ORDER BY id")
                .getMaterializedRows())
        .extracting(
            r -> r.getField(0) + "|" + r.getField(1) + "|" + r.getField(2) + "|" + r.getField(3))
        .containsExactly(
            "1|2024-03-01 09:15:30.123456 UTC|23:59:59.999999|f47ac10b-58cc-4372-a567-0e02b2c3d479",
            "2|null|null|null",
            "3|2024-03-01 09:15:30.123457 UTC|00:00:00.000001|a47ac10b-58cc-4372-a567-0e02b2c3d47a",
            "4|null|null|null");
    assertThat(
            spark.call(
                CALL,
                "query",
                location("typed"),
                "SELECT id, unix_micros(tstz), CAST(t AS STRING), u FROM t ORDER BY id"))
        .isEqualTo(
            "[1,"
                + micros
                + ",23:59:59.999999,f47ac10b-58cc-4372-a567-0e02b2c3d479];[2,null,null,null];[3,"
                + (micros + 1)
                + ",00:00:00.000001,a47ac10b-58cc-4372-a567-0e02b2c3d47a];[4,null,null,null]");
  }

  @Test
  void insertsFromTrinoAndAppendsFromSparkCommitConcurrently() throws Exception {
    sql("CREATE TABLE mosaic.shared.events (id BIGINT, who VARCHAR) WITH (default_device = 'ssd')");
    int before = versions("events");
    int rounds = 3;
    long rows = 1000;
    // Spark appends ids [0, 3000) in 3 jobs while 2 Trino clients INSERT [3000, 9000) in 6.
    spark.send("append", location("events"), "0", Long.toString(rows), "spark", "3");
    long trinoStart = System.currentTimeMillis();
    ExecutorService clients = Executors.newFixedThreadPool(2);
    List<Future<?>> done = new ArrayList<>();
    try {
      for (int c = 0; c < 2; c++) {
        int client = c;
        done.add(
            clients.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    long first = 3000 + (client * rounds + r) * rows;
                    sql(
                        "INSERT INTO mosaic.shared.events "
                            + trinoRows(first, first + rows, "trino" + client));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      clients.shutdownNow();
    }
    long trinoEnd = System.currentTimeMillis();
    String[] sparkTimes = spark.reply("append", CALL).split(" ");
    long sparkStart = Long.parseLong(sparkTimes[0]);
    long sparkEnd = Long.parseLong(sparkTimes[1]);
    System.out.println(
        String.format(
            Locale.ROOT,
            "Spark appended in [0, %d] ms, Trino inserted in [%d, %d] ms",
            sparkEnd - sparkStart,
            trinoStart - sparkStart,
            trinoEnd - sparkStart));

    // Every commit is a version of its own: none lost to a concurrent one.
    assertThat(versions("events")).isEqualTo(before + 9);
    long n = 9000;
    assertThat(
            sql("SELECT count(*), count(DISTINCT id), sum(id), count(DISTINCT who)"
                    + " FROM mosaic.shared.events")
                .getMaterializedRows()
                .get(0)
                .getFields())
        .containsExactly(n, n, n * (n - 1) / 2, 3L);
    assertSparkReadsWriters(
        "events",
        writer("spark", 0, 3000),
        writer("trino0", 3000, 6000),
        writer("trino1", 6000, 9000));
  }

  /** Spark's {@link #BY_WRITER} over {@code table} is {@code rows}, in that order. */
  private void assertSparkReadsWriters(String table, String... rows) {
    assertThat(spark.call(CALL, "query", location(table), BY_WRITER))
        .isEqualTo(String.join(";", rows));
  }

  @Test
  void sparkAnswersRightWhileTrinoPlacesAndMigratesTheTable() {
    sql(
        "CREATE TABLE mosaic.shared.moving WITH (default_device = 'cold', row_group_rows = 2000)"
            + " AS SELECT * FROM tpch.tiny.orders");
    String query =
        "SELECT o_orderpriority, count(*), sum(o_totalprice), sum(o_custkey) FROM %s"
            + " WHERE o_orderdate < DATE '1995-01-01' GROUP BY o_orderpriority"
            + " ORDER BY o_orderpriority";
    // Spark's answer, computed by Trino from the generator, formatted as Spark prints rows.
    String expected =
        sql(query.formatted("tpch.tiny.orders")).getMaterializedRows().stream()
            .map(TrinoSparkHdfsTest::sparkRow)
            .collect(Collectors.joining(";"));
    // The scans the placement serves, recorded in the table's trace.
    assertThat(
            sql(query.formatted("mosaic.shared.moving")).getMaterializedRows().stream()
                .map(TrinoSparkHdfsTest::sparkRow)
                .collect(Collectors.joining(";")))
        .isEqualTo(expected);

    spark.call(CALL, "loop", location("moving"), query.formatted("t"), expected);
    try {
      sql(
          "CALL mosaic.system.place(schema_name => 'shared', table_name => 'moving',"
              + " apply => true)");
      Map<String, String> placed = devices("moving");
      // The columns the query reads leave the slow device (which faster one each gets depends on
      // the trace, which Spark's reads add to)...
      assertThat(placed.get("o_orderpriority")).isNotEqualTo("cold");
      // ...and then all those the place moved go to "hot".
      sql(
          "CALL mosaic.system.move_columns(schema_name => 'shared', table_name => 'moving',"
              + " placement => '"
              + placed.entrySet().stream()
                  .filter(e -> !e.getValue().equals("cold"))
                  .map(e -> e.getKey() + "=hot")
                  .collect(Collectors.joining(", "))
              + "')");
      assertThat(devices("moving").values()).isSubsetOf("hot", "cold").contains("hot");
    } finally {
      // Right answers only: on a table at an hdfs:// location a migration's old segments stay for
      // the version retention (docs/format.md, "Commits without POSIX locks"), so no query planned
      // before its commit finds them gone (SparkPeer.readUntilStopped counts those apart, for
      // tables with local metadata); a wrong answer fails the stop.
      String[] stopped = spark.call(CALL, "stop").split(" ");
      System.out.println(
          "Spark while Trino placed and moved: "
              + stopped[0]
              + " right answers, "
              + stopped[1]
              + " queries failed on files deleted under their plan");
      assertThat(Integer.parseInt(stopped[0])).isGreaterThanOrEqualTo(1);
      assertThat(Integer.parseInt(stopped[1])).as("queries that failed").isZero();
    }
    assertThat(spark.call(CALL, "query", location("moving"), query.formatted("t")))
        .isEqualTo(expected);
  }

  private static String sparkRow(MaterializedRow row) {
    return row.getFields().stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
  }

  private Map<String, String> devices(String table) {
    return sql("SELECT column_name, device FROM mosaic.shared.\"" + table + "$placement\"")
        .getMaterializedRows()
        .stream()
        .collect(Collectors.toMap(r -> (String) r.getField(0), r -> (String) r.getField(1)));
  }
}
