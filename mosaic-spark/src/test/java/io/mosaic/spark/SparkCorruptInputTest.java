package io.mosaic.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.MosaicException;
import io.mosaic.cli.CorruptInputCorpus;
import io.mosaic.cli.CorruptInputCorpus.Case;
import io.mosaic.cli.CorruptInputCorpus.Outcome;
import io.mosaic.scan.Retriever;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corrupt-input corpus ({@link CorruptInputCorpus}, shared with the CLI's test) through a real
 * Spark session: each damaged copy of the template table is read as a DataFrame (with its {@code
 * devices.toml} as the option) and by SQL through a catalog of its own; each read must give the
 * undamaged table's rows or fail with a {@link MosaicException} (Spark's own exception for a
 * missing table, {@link SparkErrors}) whose message names the damaged file, never other rows or a
 * stack trace in the message. A seeded sample in CI ({@code -Dmosaic.corpus.cases=N}, default 40;
 * {@code all} runs every case); docs/benchmarks.md has the counts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkCorruptInputTest {
  /** What each damaged copy is asked: every row, and a filtered aggregate by SQL. */
  private static final List<Function<Path, Dataset<Row>>> QUERIES = new ArrayList<>();

  private Path dir;
  private Path devices;
  private SparkSession spark;
  private CorruptInputCorpus corpus;
  private List<List<String>> expected;
  private int catalogs;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    devices = SparkTestTables.devices(dir);
    SparkTestTables.deviceModel(io.mosaic.device.DevicePool.load(devices));
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-corrupt-input")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.mosaic.decode_threads", "1")
            .config("spark.sql.catalog.mosaic", MosaicCatalog.class.getName())
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("warehouse").toString())
            .getOrCreate();
    QUERIES.clear();
    QUERIES.add(
        d ->
            spark
                .read()
                .format("mosaic")
                .option("devices", CorruptInputCorpus.devices(d).toString())
                .load(CorruptInputCorpus.table(d).toString()));
    QUERIES.add(
        d ->
            spark.sql(
                "SELECT o_orderpriority, count(*), sum(o_totalprice), max(o_comment) FROM "
                    + catalog(d)
                    + ".tables.orders WHERE o_orderdate >= DATE '1995-01-01'"
                    + " GROUP BY o_orderpriority"));
    corpus = CorruptInputCorpus.create(dir.resolve("template"));
    expected =
        corpus.undamaged(
            dir.resolve("undamaged"), d -> QUERIES.stream().map(q -> rows(q.apply(d))).toList());
  }

  @AfterAll
  void stop() {
    spark.stop();
  }

  /** A new catalog over the warehouse in {@code d} (its schema {@code tables}) and its devices. */
  private String catalog(Path d) {
    String name = "case" + catalogs++;
    spark.conf().set("spark.sql.catalog." + name, MosaicCatalog.class.getName());
    spark
        .conf()
        .set("spark.sql.catalog." + name + ".devices", CorruptInputCorpus.devices(d).toString());
    spark.conf().set("spark.sql.catalog." + name + ".warehouse", d.toString());
    return name;
  }

  private static List<String> rows(Dataset<Row> result) {
    return result.collectAsList().stream().map(Row::toString).sorted().toList();
  }

  @Test
  void everyDamagedTableGivesItsRowsOrAClearErrorNamingTheFile() throws Exception {
    long seed = CorruptInputCorpus.seed();
    List<Case> all = corpus.cases(seed);
    List<Case> run = CorruptInputCorpus.sample(all, seed, 40);
    CorruptInputCorpus.Tally tally =
        corpus.runAll(
            run,
            dir.resolve("cases"),
            this::check,
            work -> {
              // Spark keeps a retriever (reader and decoding threads) per devices.toml path.
              Retriever retriever =
                  MosaicPartitionReaderFactory.retriever(
                      CorruptInputCorpus.devices(work).toString());
              if (retriever != null) {
                retriever.close();
              }
            });
    String summary = tally.summary("Spark", seed, run.size(), all.size());
    System.out.println(summary);
    tally.bad().forEach(System.out::println);
    assertThat(tally.bad()).as(summary).isEmpty();
    assertThat(tally.count("rows") + tally.count("error")).isEqualTo(run.size());
  }

  /** A bad request, and what its error must name (the value or the option that is wrong). */
  record Bad(String what, Runnable request, String names) {}

  private Bad sql(String sql, String names) {
    return new Bad(sql, () -> spark.sql(sql).collectAsList(), names);
  }

  /** A DataFrame write of a few orders to a new table, with one bad option. */
  private Bad write(String option, String value, String names) {
    Path target = dir.resolve("written").resolve(option.replaceAll("\\W", "_"));
    return new Bad(
        "write option " + option + " = '" + value + "'",
        () ->
            spark
                .table("orders_src")
                .limit(100)
                .write()
                .format("mosaic")
                .option("devices", devices.toString())
                .option(option, value)
                .save(target.toString()),
        names);
  }

  /** A DataFrame read of the table with one bad option. */
  private Bad read(String option, String value, String names) {
    return new Bad(
        "read option " + option + " = '" + value + "'",
        () ->
            spark
                .read()
                .format("mosaic")
                .option("devices", devices.toString())
                .option(option, value)
                .load(dir.resolve("warehouse/bad/orders").toString())
                .collectAsList(),
        names);
  }

  /**
   * Bad options, table properties and procedure arguments (docs/spark.md, docs/operations.md): each
   * refused by a {@link MosaicException} (or Spark's own analysis error) naming what is wrong,
   * without a stack trace in its message; the table's rows stay as they were and no table is left.
   */
  @Test
  void badOptionsPropertiesAndProcedureArgumentsAreRefusedClearlyAndChangeNothing() {
    TpchSpark.dataFrame(spark, "orders", 0.01, 2).cache().createOrReplaceTempView("orders_src");
    spark.sql("CREATE NAMESPACE mosaic.bad");
    spark.sql(
        "CREATE TABLE mosaic.bad.orders TBLPROPERTIES ('row_group_rows' = '5000') AS"
            + " SELECT * FROM orders_src");
    // A scan in the trace, so that placing reaches its arguments.
    spark.sql("SELECT max(o_comment) FROM mosaic.bad.orders WHERE o_totalprice > 10").collect();
    String ctas = " AS SELECT * FROM orders_src LIMIT 10";
    String place = "CALL mosaic.system.place(table => 'bad.orders', ";
    String maintain = "CALL mosaic.system.maintain(table => 'bad.orders', ";
    String move = "CALL mosaic.system.move_columns(table => 'bad.orders', placement => ";
    List<Bad> bad =
        List.of(
            sql(
                "CREATE TABLE mosaic.bad.t1 TBLPROPERTIES ('default_device' = 'tape')" + ctas,
                "tape"),
            sql(
                "CREATE TABLE mosaic.bad.t2 (x BIGINT) TBLPROPERTIES ('default_device' = 'tape')",
                "tape"),
            sql(
                "CREATE TABLE mosaic.bad.t3 TBLPROPERTIES ('row_group_rows' = '0')" + ctas,
                "row_group_rows"),
            sql(
                "CREATE TABLE mosaic.bad.t4 TBLPROPERTIES ('row_group_rows' = '-5')" + ctas,
                "row_group_rows"),
            sql(
                "CREATE TABLE mosaic.bad.t5 TBLPROPERTIES ('row_group_rows' = 'many')" + ctas,
                "row_group_rows"),
            sql(
                "CREATE TABLE mosaic.bad.t6 TBLPROPERTIES ('default_device' = '../nvme')" + ctas,
                "../nvme"),
            sql(
                "CREATE TABLE mosaic.bad.t7 TBLPROPERTIES ('column.o_comment.device' = 'tape')"
                    + ctas,
                "tape"),
            sql(
                "CREATE TABLE mosaic.bad.t8 TBLPROPERTIES ('pushdown' = 'maybe')" + ctas,
                "pushdown"),
            write("row_group_rows", "0", "row_group_rows"),
            write("row_group_rows", "1e3", "row_group_rows"),
            write("default_device", "tape", "tape"),
            write("column.o_comment.device", "tape", "tape"),
            write("column.nope.device", "hdd", "nope"),
            write("pushdown", "maybe", "pushdown"),
            read("pushdown", "maybe", "pushdown"),
            read("sharing_policy", "fastest", "fastest"),
            read("devices", dir.resolve("nowhere/devices.toml").toString(), "nowhere"),
            sql(move + "'o_comment=tape')", "'tape'"),
            sql(move + "'nope=hdd')", "'nope'"),
            sql(move + "'')", "placement"),
            sql(move + "'o_comment')", "o_comment"),
            sql(move + "'o_comment=hdd, o_comment=nvme')", "o_comment"),
            sql(move + "'o_comment[-1:3]=hdd')", "o_comment[-1:3]"),
            sql(
                "CALL mosaic.system.move_columns(table => 'bad.nope', placement => 'o_comment=hdd')",
                "nope"),
            sql(
                "CALL mosaic.system.move_columns(table => 'orders', placement => 'o_comment=hdd')",
                "orders"),
            sql(place + "strategy => 'fastest')", "fastest"),
            sql(place + "time_limit => 'soon')", "soon"),
            sql(place + "pins => 'o_comment')", "o_comment"),
            sql(place + "pins => 'o_comment=tape')", "tape"),
            sql(place + "max_bytes => 'nvme=lots')", "lots"),
            sql(place + "min_bytes => 'tape=1GB')", "tape"),
            sql(place + "max_devices => -1)", "max devices"),
            sql(place + "sample_fraction => 2.0)", "sample"),
            sql(place + "no_regression => -0.5)", "no-regression"),
            sql(place + "no_regression_reference => 'yesterday')", "yesterday"),
            sql(maintain + "action => 'explode')", "explode"),
            sql(maintain + "shape => 'square')", "square"),
            sql(maintain + "rate => '-5MB/s')", "-5MB/s"),
            sql(maintain + "rate => 'fast')", "fast"),
            sql(maintain + "device_rates => 'tape=1MB/s')", "tape"),
            sql(maintain + "horizon => -1.0)", "horizon"),
            sql(maintain + "payoff => -2.0)", "payoff"),
            sql(maintain + "drift => -1.0)", "drift"));
    List<String> failures = new ArrayList<>();
    for (Bad b : bad) {
      try {
        b.request().run();
        failures.add(b.what() + ": accepted");
      } catch (Exception e) {
        Throwable found = mosaicCause(e);
        String message = found == null ? e.toString() : String.valueOf(found.getMessage());
        String unclear = CorruptInputCorpus.unclear(message);
        if (found == null) {
          failures.add(b.what() + ": not a MosaicException: " + e);
        } else if (unclear != null) {
          failures.add(b.what() + ": " + unclear + ": " + message);
        } else if (!message.contains(b.names())) {
          failures.add(b.what() + ": does not name " + b.names() + ": " + message);
        } else {
          System.out.println("  refused: " + b.what() + " -> " + message);
        }
      }
    }
    String summary =
        String.format(
            "bad options, table properties and procedure arguments through Spark: %d requests, %d"
                + " clear errors, %d failures",
            bad.size(), bad.size() - failures.size(), failures.size());
    System.out.println(summary);
    failures.forEach(System.out::println);
    assertThat(failures).as(summary).isEmpty();
    assertThat(spark.sql("SHOW TABLES IN mosaic.bad").collectAsList())
        .extracting(r -> r.getString(1))
        .containsExactly("orders");
    assertThat(
            spark
                .sql("SELECT * FROM mosaic.bad.orders")
                .exceptAll(spark.table("orders_src"))
                .count())
        .isZero();
    assertThat(spark.sql("SELECT * FROM mosaic.bad.orders").count())
        .isEqualTo(spark.table("orders_src").count());
  }

  private Outcome check(Case c, Path d, String file) {
    return CorruptInputCorpus.read(
        c,
        expected,
        q -> rows(QUERIES.get(q).apply(d)),
        e -> {
          // Clear if Mosaic classified it (a MosaicException: thrown on the driver, or the cause
          // of the failed job) and its message names the file.
          Throwable found = mosaicCause(e);
          return found == null
              ? new Outcome(c, "unclassified", e.toString())
              : CorruptInputCorpus.refusal(c, d, file, String.valueOf(found.getMessage()));
        });
  }

  /** The MosaicException (or Spark's missing-table error) in {@code e}'s chain, or null. */
  static Throwable mosaicCause(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MosaicException || t instanceof AnalysisException) {
        return t;
      }
    }
    return null;
  }
}
