package io.mosaic.trino.bench;

import static io.trino.testing.TestingSession.testSessionBuilder;

import com.google.common.collect.ImmutableMultiset;
import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.trino.MosaicPlugin;
import io.mosaic.trino.MosaicQueryRunner;
import io.mosaic.trino.workload.TraceGenerator;
import io.trino.Session;
import io.trino.plugin.hive.HivePlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Trino's side of the headline benchmark ({@code benchmarks/headline},
 * docs/experiments/headline.md): one in-process Trino (a coordinator and a worker) with a {@code
 * mosaic} catalog over the OS-emulated pool and a {@code hive} catalog reading Parquet copies that
 * live on the same devices. Run inside the pool's cgroup, so every reader is throttled alike.
 *
 * <pre>
 * load DIR SF        Mosaic's tables (mosaic.tpch, every column on the HDD), one Parquet copy per
 *                    device (written once by Hive as hive.p_hdd, copied byte for byte; files in
 *                    DEVICE/parquet/TABLE), DIR/parquet-bytes.csv, then the 22 queries once over
 *                    Mosaic so the tables record the trace
 * run DIR BUDGET ANSWERS RUNS OUT
 *                    the 22 queries over each answer of the ANSWERS file (name TAB cost TAB ...
 *                    TAB table=device,...; "mosaic" = the Mosaic tables as placed now), page cache
 *                    dropped before every measured query; appends one CSV line per query and run
 * </pre>
 *
 * DIR holds {@code headline-pool/devices.toml} (the pool, no in-process throttle), {@code metadata}
 * (Mosaic's warehouse) and {@code hive-metastore}.
 */
public final class HeadlineTrino {
  private static final PrintStream OUT = System.out;
  private static final PrintStream ERR = System.err;

  private HeadlineTrino() {}

  public static void main(String[] args) throws Exception {
    Logging.initialize().setLevel("org.apache.hadoop.io.compress", Level.WARN);
    Path dir = Path.of(args[1]).toAbsolutePath();
    DevicePool pool = DevicePool.load(dir.resolve("headline-pool/devices.toml"));
    int status = 0;
    try (DistributedQueryRunner runner = start(dir)) {
      switch (args[0]) {
        case "load" -> load(runner, pool, Double.parseDouble(args[2]), dir);
        case "run" ->
            status =
                run(
                    runner,
                    pool,
                    args[2],
                    Path.of(args[3]),
                    Integer.parseInt(args[4]),
                    Path.of(args[5]));
        default -> throw new IllegalArgumentException("load or run, not " + args[0]);
      }
    }
    System.exit(status);
  }

  private static DistributedQueryRunner start(Path dir) throws Exception {
    DistributedQueryRunner runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("mosaic").setSchema(TpchCatalogs.SCHEMA).build())
            .setWorkerCount(1)
            .build();
    try {
      MosaicQueryRunner.installTpch(runner);
      runner.installPlugin(new MosaicPlugin());
      // As TpchCatalogs: 16 MB splits, so lineitem's scans have work for all drivers, and no
      // shared buffer keeping chunks across queries.
      runner.createCatalog(
          "mosaic",
          "mosaic",
          TpchCatalogs.mosaicCatalog(
              dir.resolve("headline-pool/devices.toml"), dir.resolve("metadata")));
      runner.installPlugin(new HivePlugin());
      Files.createDirectories(dir.resolve("hive-metastore"));
      // The local file system rooted at "/": each Parquet copy lives on its device's mount.
      runner.createCatalog(
          "hive",
          "hive",
          Map.of(
              "hive.metastore", "file",
              "hive.metastore.catalog.dir", "local://" + dir.resolve("hive-metastore"),
              "fs.native-local.enabled", "true",
              "local.location", "/",
              // Write straight into the table's directory: staging in /tmp and renaming would
              // cross file systems (each device is its own mount).
              "hive.temporary-staging-directory-enabled", "false",
              "hive.non-managed-table-writes-enabled", "true",
              "hive.storage-format", "PARQUET",
              "hive.compression-codec", "ZSTD"));
      return runner;
    } catch (RuntimeException e) {
      runner.close();
      throw e;
    }
  }

  private static void load(DistributedQueryRunner runner, DevicePool pool, double sf, Path dir)
      throws IOException {
    String generator = "tpch.\"sf" + TpchCatalogs.format(sf) + "\"";
    runner.execute("CREATE SCHEMA IF NOT EXISTS mosaic.tpch");
    for (String t : TpchCatalogs.TABLES) {
      long start = System.nanoTime();
      runner.execute(
          "CREATE TABLE mosaic.tpch."
              + t
              + " WITH (default_device = 'hdd') AS SELECT * FROM "
              + generator
              + "."
              + t);
      ERR.printf(Locale.ROOT, "loaded mosaic.tpch.%s in %.1f s%n", t, seconds(start));
    }
    StringBuilder bytes = new StringBuilder("table,device,bytes\n");
    // Hive's Parquet writer with its defaults (zstd, 128 MB row groups) writes the copy on the
    // HDD, an external table (the file metastore keeps managed tables under its own directory);
    // the other devices get a byte-for-byte copy of its files.
    Path written = pool.device("hdd").root().resolve("parquet");
    Files.createDirectories(written);
    runner.execute("CREATE SCHEMA IF NOT EXISTS hive.p_hdd");
    for (String t : TpchCatalogs.TABLES) {
      long start = System.nanoTime();
      runner.execute(
          "CREATE TABLE hive.p_hdd."
              + t
              + " WITH (external_location = 'local://"
              + written.resolve(t)
              + "', format = 'PARQUET') AS SELECT * FROM "
              + generator
              + "."
              + t);
      ERR.printf(Locale.ROOT, "loaded hive.p_hdd.%s in %.1f s%n", t, seconds(start));
    }
    for (Device d : pool.devices()) {
      Path parquet = d.root().resolve("parquet");
      if (!parquet.equals(written)) {
        copyTree(written, parquet);
        ERR.printf(Locale.ROOT, "copied the Parquet files to %s%n", parquet);
      }
      for (String t : TpchCatalogs.TABLES) {
        bytes.append(t).append(',').append(d.id()).append(',');
        bytes.append(size(parquet.resolve(t))).append('\n');
      }
    }
    Files.writeString(dir.resolve("parquet-bytes.csv"), bytes);
    // The engine's own trace: each Mosaic scan of these runs is recorded in its table's trace.
    Session mosaic = session("mosaic", "tpch");
    for (int q = 1; q <= 22; q++) {
      long start = System.nanoTime();
      runner.execute(mosaic, TraceGenerator.tpchQuery(q));
      ERR.printf(Locale.ROOT, "trace run q%d: %.1f s%n", q, seconds(start));
    }
  }

  /** One answer of the ANSWERS file. */
  private record Answer(String name, String catalog, String schema) {}

  private static int run(
      DistributedQueryRunner runner,
      DevicePool pool,
      String budget,
      Path answersFile,
      int runs,
      Path out)
      throws IOException {
    List<Answer> answers = new ArrayList<>();
    for (String line : Files.readAllLines(answersFile)) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f[0].equals("mosaic")) {
        answers.add(new Answer("mosaic", "mosaic", "tpch"));
        continue;
      }
      // External Hive tables over the Parquet copies this answer's placement names.
      String schema =
          (f[0] + "_" + budget).replaceAll("[^a-zA-Z0-9]", "_").toLowerCase(Locale.ROOT);
      runner.execute("DROP SCHEMA IF EXISTS hive." + schema + " CASCADE");
      runner.execute("CREATE SCHEMA hive." + schema);
      for (String assignment : f[3].split(",")) {
        String[] td = assignment.split("=");
        Path location = pool.device(td[1]).root().resolve("parquet").resolve(td[0]);
        runner.execute(
            "CREATE TABLE hive."
                + schema
                + "."
                + td[0]
                + " (LIKE hive.p_hdd."
                + td[0]
                + ") WITH (external_location = 'local://"
                + location
                + "', format = 'PARQUET')");
      }
      answers.add(new Answer(f[0], "hive", schema));
    }
    // Warm-up (JIT and plan caches, not measured, caches left as they are): each query once, on
    // the answers in turn, so every connector's code paths are compiled before measuring.
    for (int q = 1; q <= 22; q++) {
      Answer a = answers.get(q % answers.size());
      long start = System.nanoTime();
      runner.execute(session(a.catalog(), a.schema()), TraceGenerator.tpchQuery(q));
      ERR.printf(Locale.ROOT, "warm-up q%d %s: %.2f s%n", q, a.name(), seconds(start));
    }
    boolean newFile = !Files.exists(out);
    StringBuilder csv =
        new StringBuilder(newFile ? "budget,answer,query,run,seconds,rows,load\n" : "");
    boolean allSame = true;
    List<Answer> order = new ArrayList<>(answers);
    for (int r = 1; r <= runs; r++) {
      for (int q = 1; q <= 22; q++) {
        Map<String, ImmutableMultiset<?>> results = new LinkedHashMap<>();
        for (Answer a : order) {
          OsPool.dropCaches();
          long start = System.nanoTime();
          MaterializedResult result =
              runner.execute(session(a.catalog(), a.schema()), TraceGenerator.tpchQuery(q));
          double s = seconds(start);
          double load = OsPool.loadAverage();
          results.put(a.name(), ImmutableMultiset.copyOf(result.getMaterializedRows()));
          csv.append(
              String.format(
                  Locale.ROOT,
                  "%s,%s,%d,%d,%.4f,%d,%.2f%n",
                  budget,
                  a.name(),
                  q,
                  r,
                  s,
                  result.getRowCount(),
                  load));
          OUT.printf(
              Locale.ROOT,
              "budget %s run %d q%-2d %-14s %7.2f s (load %.1f)%n",
              budget,
              r,
              q,
              a.name(),
              s,
              load);
        }
        boolean same = results.values().stream().distinct().count() == 1;
        if (!same) {
          ERR.printf("budget %s q%d: the answers returned different rows%n", budget, q);
        }
        allSame &= same;
        Collections.rotate(order, 1);
      }
    }
    Files.writeString(
        out, csv, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    return allSame ? 0 : 3;
  }

  private static Session session(String catalog, String schema) {
    return testSessionBuilder().setCatalog(catalog).setSchema(schema).build();
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private static long size(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
