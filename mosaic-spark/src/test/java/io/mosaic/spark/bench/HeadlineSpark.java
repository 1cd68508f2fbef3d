package io.mosaic.spark.bench;

import io.mosaic.device.DevicePool;
import io.mosaic.spark.TpchSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's side of the headline benchmark (issue 22, {@code benchmarks/headline},
 * docs/experiments/headline.md): the 22 TPC-H queries over each answer of a budget in one local
 * Spark session, run inside the OS pool's cgroup. Mosaic's answer reads the tables Trino loaded
 * through the {@code mosaic} SQL catalog (the same warehouse); the Parquet answers read the Parquet
 * copies on the devices their placement names with Spark's own reader.
 *
 * <p>{@code run DIR BUDGET ANSWERS RUNS OUT}: as {@code HeadlineTrino run}; DIR holds {@code
 * headline-pool/devices.toml} and {@code metadata}.
 */
public final class HeadlineSpark {
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  private static final List<String> TABLES =
      List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

  private HeadlineSpark() {}

  /** One answer: table -> Parquet directory, or empty for Mosaic's tables. */
  private record Answer(String name, Map<String, Path> parquet) {}

  public static void main(String[] args) throws IOException {
    if (args.length != 6 || !args[0].equals("run")) {
      System.err.println("usage: HeadlineSpark run DIR BUDGET ANSWERS RUNS OUT");
      System.exit(2);
    }
    Path dir = Path.of(args[1]).toAbsolutePath();
    String budget = args[2];
    Path devices = dir.resolve("headline-pool/devices.toml");
    DevicePool pool = DevicePool.load(devices);
    List<Answer> answers = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[3]))) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      Map<String, Path> parquet = new LinkedHashMap<>();
      if (!f[0].equals("mosaic")) {
        for (String assignment : f[3].split(",")) {
          String[] td = assignment.split("=");
          parquet.put(td[0], pool.device(td[1]).root().resolve("parquet").resolve(td[0]));
        }
      }
      answers.add(new Answer(f[0], parquet));
    }
    int runs = Integer.parseInt(args[4]);
    Path out = Path.of(args[5]);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("mosaic-headline")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "8")
            .config("spark.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic", "io.mosaic.spark.MosaicCatalog")
            .config("spark.sql.catalog.mosaic.devices", devices.toString())
            .config("spark.sql.catalog.mosaic.warehouse", dir.resolve("metadata").toString())
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    boolean allSame = true;
    StringBuilder csv =
        new StringBuilder(Files.exists(out) ? "" : "budget,answer,query,run,seconds,rows,load\n");
    try {
      // Warm-up (JIT; not measured, caches as they are): each query once, on the answers in turn.
      for (int q = 1; q <= 22; q++) {
        Answer a = answers.get(q % answers.size());
        long start = System.nanoTime();
        execute(spark, a, q);
        System.err.printf(Locale.ROOT, "warm-up q%d %s: %.2f s%n", q, a.name(), seconds(start));
      }
      List<Answer> order = new ArrayList<>(answers);
      for (int r = 1; r <= runs; r++) {
        for (int q = 1; q <= 22; q++) {
          Map<String, List<String>> results = new LinkedHashMap<>();
          for (Answer a : order) {
            dropCaches();
            long start = System.nanoTime();
            List<Row> rows = execute(spark, a, q);
            double s = seconds(start);
            double load = loadAverage();
            results.put(a.name(), rows.stream().map(Row::toString).sorted().toList());
            csv.append(
                String.format(
                    Locale.ROOT,
                    "%s,%s,%d,%d,%.4f,%d,%.2f%n",
                    budget,
                    a.name(),
                    q,
                    r,
                    s,
                    rows.size(),
                    load));
            System.out.printf(
                Locale.ROOT,
                "budget %s run %d q%-2d %-14s %7.2f s (load %.1f)%n",
                budget,
                r,
                q,
                a.name(),
                s,
                load);
          }
          if (results.values().stream().distinct().count() != 1) {
            System.err.printf("budget %s q%d: the answers returned different rows%n", budget, q);
            allSame = false;
          }
          Collections.rotate(order, 1);
        }
      }
    } finally {
      Files.writeString(out, csv, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      spark.stop();
    }
    System.exit(allSame ? 0 : 3);
  }

  /** The views of an answer, then query {@code q}'s statements; the last one's rows. */
  private static List<Row> execute(SparkSession spark, Answer a, int q) {
    for (String t : TABLES) {
      var df =
          a.parquet().isEmpty()
              ? spark.table("mosaic.tpch." + t)
              : spark.read().parquet(a.parquet().get(t).toString());
      df.createOrReplaceTempView(t);
    }
    List<Row> rows = List.of();
    for (String s : TpchSpark.statements(q)) {
      rows = spark.sql(s).collectAsList();
    }
    return rows;
  }

  /** Cold caches before each measured query, as {@code benchmarks/os-pool drop-caches} does. */
  private static void dropCaches() {
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      Files.writeString(DROP_CACHES, "3");
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot drop the page cache (" + DROP_CACHES + "): run the headline benchmark as root",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while syncing", e);
    }
  }

  private static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException e) {
      return Double.NaN;
    }
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }
}
