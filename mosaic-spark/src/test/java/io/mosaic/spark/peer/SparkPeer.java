package io.mosaic.spark.peer;

import io.mosaic.table.TableNotFoundException;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark driver ({@code local[2]}) that another engine's test runs in a child JVM, because Spark
 * and Trino cannot share one class path: mosaic-trino's {@code TrinoSparkHdfsTest} drives it to
 * append to and read the same Mosaic table as its Trino cluster (docs/distributed-storage.md,
 * "Multi-node engines on one HDFS table").
 *
 * <p>Arguments: the pool's {@code devices.toml}, then Hadoop settings {@code key=value} (set as
 * {@code spark.hadoop.*}). Commands come one per line on standard input, fields separated by tabs;
 * each gets one reply line on standard output starting with {@link #REPLY}, then {@code OK ...} or
 * {@code ERR ...} (the stack trace goes to standard error). Everything else on the output is
 * Spark's log. The end of standard input (the test JVM gone) ends this JVM, so none is left behind.
 *
 * <ul>
 *   <li>{@code append <location> <first id> <rows> <who> <rounds>}: {@code rounds} appends of
 *       {@code rows} rows {@code (id, who)} with consecutive ids; replies the epoch milliseconds of
 *       the first append's start and the last one's end
 *   <li>{@code append-sql <location> <sql>}: appends the rows of {@code sql}
 *   <li>{@code query <location> <sql>}: the rows of {@code sql} over the table as view {@code t},
 *       as {@code Row.toString()} joined by {@code ;}
 *   <li>{@code loop <location> <sql> <expected>}: starts running {@code sql} over and over,
 *       comparing each answer with {@code expected}; replies at once
 *   <li>{@code stop}: ends the loop after an answer to a query started after {@code stop}; replies
 *       the number of right answers and of queries failed on files deleted under their plan, or the
 *       first wrong answer
 *   <li>{@code quit}
 * </ul>
 */
public final class SparkPeer {
  /** The prefix of reply lines, so they cannot be mistaken for Spark's log. */
  public static final String REPLY = "MOSAIC-PEER ";

  private final SparkSession spark;
  private Thread loop;
  private volatile boolean stopped;
  private volatile String loopResult;

  private SparkPeer(SparkSession spark) {
    this.spark = spark;
  }

  public static void main(String[] args) throws Exception {
    SparkSession.Builder builder =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-spark-peer")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            // Spark 4.2 refuses TIME without it (docs/spark.md, "Types").
            .config("spark.sql.timeType.enabled", "true")
            .config("spark.mosaic.devices", args[0]);
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      builder.config("spark.hadoop." + args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    SparkSession spark = builder.getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    reply("OK ready");
    new SparkPeer(spark).serve();
  }

  private static void reply(String line) {
    System.out.println(REPLY + line.replace('\n', ' '));
    System.out.flush();
  }

  private void serve() throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] f = line.split("\t");
      if (f[0].equals("quit")) {
        spark.stop();
        reply("OK bye");
        System.exit(0);
      }
      try {
        reply("OK " + run(f));
      } catch (Exception | AssertionError e) {
        e.printStackTrace();
        reply("ERR " + e);
      }
    }
    // The test JVM closed our input: it is gone or gave up on us.
    System.err.println("SparkPeer: standard input closed, exiting");
    System.exit(2);
  }

  private String run(String[] f) throws Exception {
    return switch (f[0]) {
      case "append" -> {
        long first = Long.parseLong(f[2]);
        long rows = Long.parseLong(f[3]);
        int rounds = Integer.parseInt(f[5]);
        long start = System.currentTimeMillis();
        for (int r = 0; r < rounds; r++) {
          long from = first + r * rows;
          spark
              .range(from, from + rows, 1, 2)
              .selectExpr("id", "'" + f[4] + "' AS who")
              .write()
              .format("mosaic")
              .mode("append")
              .save(f[1]);
        }
        yield start + " " + System.currentTimeMillis();
      }
      case "query" -> query(f[1], f[2]);
      case "append-sql" -> {
        spark.sql(f[2]).write().format("mosaic").mode("append").save(f[1]);
        yield "appended";
      }
      case "loop" -> {
        if (loop != null) {
          throw new IllegalStateException("a loop is running already");
        }
        stopped = false;
        loopResult = null;
        loop =
            new Thread(
                () -> {
                  try {
                    loopResult = readUntilStopped(f[1], f[2], f[3]);
                  } catch (Throwable t) {
                    t.printStackTrace();
                    loopResult = "wrong: the loop failed: " + t;
                  }
                },
                "peer-loop");
        loop.start();
        yield "looping";
      }
      case "stop" -> {
        if (loop == null) {
          throw new IllegalStateException("no loop is running");
        }
        stopped = true;
        loop.join();
        loop = null;
        if (loopResult.startsWith("wrong")) {
          throw new AssertionError(loopResult);
        }
        yield loopResult;
      }
      default -> throw new IllegalArgumentException("unknown command " + f[0]);
    };
  }

  private String query(String location, String sql) {
    spark.read().format("mosaic").load(location).createOrReplaceTempView("t");
    List<Row> rows = spark.sql(sql).collectAsList();
    return rows.stream().map(Row::toString).collect(Collectors.joining(";"));
  }

  /**
   * The number of right answers and of queries that failed on files deleted under their plan, or
   * the first wrong answer (or other failure).
   *
   * <p>Why a failure may be right: a table whose metadata is on a local path keeps the POSIX
   * protocol, in which a migration deletes its old segments at once unless a pinned version names
   * them (docs/format.md, "Writing and committing", step 3), and a Spark read pins its version only
   * in the executors, after the driver read the manifest and planned. A migration committed in
   * between deletes the version's old segments, or retires the version, and the query fails with a
   * clear error (docs/format.md, "Pins, writer locks and gc": rows or a clear error, never a wrong
   * answer). Tables on HDFS keep old segments for the version retention instead.
   */
  private String readUntilStopped(String location, String sql, String expected) {
    int answers = 0;
    int deletedUnder = 0;
    while (true) {
      // Read the flag before the query: the last answer is to a query started after stop.
      boolean last = stopped;
      String answer;
      try {
        answer = query(location, sql);
      } catch (Exception e) { // Spark throws its checked SparkException undeclared
        if (deletedUnderThePlan(e)) {
          System.err.println("SparkPeer: the version's files were deleted under a query: " + e);
          deletedUnder++;
          continue;
        }
        e.printStackTrace();
        return "wrong: query " + (answers + deletedUnder + 1) + " failed: " + e;
      }
      if (!answer.equals(expected)) {
        return "wrong: query "
            + (answers + deletedUnder + 1)
            + " answered "
            + answer
            + ", expected "
            + expected;
      }
      answers++;
      if (last) {
        return answers + " " + deletedUnder;
      }
    }
  }

  /**
   * Whether Mosaic failed the query because its version's files were deleted under it: a segment
   * (at planning or reading), or the manifest of the version retired before the executor pinned it.
   */
  private static boolean deletedUnderThePlan(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      // An executor's exception may reach here as the text of Spark's, without the cause.
      boolean retired =
          message.contains(" has no version ")
              && (t instanceof TableNotFoundException
                  || message.contains(TableNotFoundException.class.getName()));
      if (t instanceof FileNotFoundException || t instanceof NoSuchFileException || retired) {
        return true;
      }
    }
    return false;
  }
}
