package io.mosaic.trino.bench;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.mosaic.trino.MosaicPlugin;
import io.mosaic.trino.MosaicQueryRunner;
import io.trino.Session;
import io.trino.plugin.hive.HivePlugin;
import io.trino.plugin.memory.MemoryPlugin;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An in-process Trino (a coordinator and a worker) holding the eight TPC-H tables three times, in
 * schema {@code tpch} of the catalogs the benchmark compares: {@code mosaic} (one unthrottled
 * device, zstd), {@code memory} (Trino's memory connector) and {@code hive} (Parquet with zstd on
 * the local file system, file metastore); plus the {@code tpch} generator they are loaded from.
 * Mosaic's and Hive's tables live in a directory and survive the runner; memory's do not.
 */
public final class TpchCatalogs implements AutoCloseable {
  /** The catalogs compared, in the order the report prints them. */
  public static final List<String> COMPARED = List.of("mosaic", "memory", "hive");

  static final String SCHEMA = "tpch";

  static final List<String> TABLES =
      List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem");

  private final DistributedQueryRunner runner;
  private final Path dir;
  private final double scaleFactor;

  private TpchCatalogs(DistributedQueryRunner runner, Path dir, double scaleFactor) {
    this.runner = runner;
    this.dir = dir;
    this.scaleFactor = scaleFactor;
  }

  /**
   * Starts the runner with its catalogs over {@code dir}: {@code dir/pool/d} is Mosaic's device,
   * {@code dir/metadata} its catalog, {@code dir/hive} the root of Hive's files and metastore.
   */
  public static TpchCatalogs start(Path dir, double scaleFactor) throws Exception {
    Files.createDirectories(dir.resolve("pool/d"));
    Files.createDirectories(dir.resolve("hive"));
    // No `emulate`: a real, unthrottled device (configuration.md), reading at disk/page-cache
    // speed.
    Files.writeString(
        dir.resolve("devices.toml"),
        """
        [[device]]
        id = "d"
        path = "pool/d"
        capacity = "100 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "10 ct"
        metadata = true
        """);
    DistributedQueryRunner runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("mosaic").setSchema(SCHEMA).build())
            .setWorkerCount(1)
            .build();
    try {
      MosaicQueryRunner.installTpch(runner);
      runner.installPlugin(new MosaicPlugin());
      runner.createCatalog(
          "mosaic", "mosaic", mosaicCatalog(dir.resolve("devices.toml"), dir.resolve("metadata")));
      runner.installPlugin(new MemoryPlugin());
      // Each node holds what its writer tasks wrote: SF 1 is ~1.5 GB in Trino's pages.
      runner.createCatalog("memory", "memory", Map.of("memory.max-data-per-node", "8GB"));
      runner.installPlugin(new HivePlugin());
      runner.createCatalog(
          "hive",
          "hive",
          Map.of(
              "hive.metastore", "file",
              "hive.metastore.catalog.dir", "local:///metastore",
              "fs.native-local.enabled", "true",
              "local.location", dir.resolve("hive").toString(),
              "hive.storage-format", "PARQUET",
              "hive.compression-codec", "ZSTD"));
      return new TpchCatalogs(runner, dir, scaleFactor);
    } catch (RuntimeException e) {
      runner.close();
      throw e;
    }
  }

  /** The properties of a Mosaic catalog compared with Hive's and the memory connector's. */
  static Map<String, String> mosaicCatalog(Path devices, Path metadata) {
    return Map.of(
        "mosaic.devices-config",
        devices.toString(),
        "mosaic.metadata-directory",
        metadata.toString(),
        // 16 MB of the read columns per split (the default is 128 MB): at SF 1 a 4-column scan of
        // lineitem is ~50 MB, which would otherwise be one or two splits for the four drivers of
        // the two nodes; Hive splits Parquet files at 32-64 MB.
        "mosaic.target-split-size",
        "16MB",
        // Compared with Hive query by query: no shared buffer keeping chunks across them (the
        // Parquet readers have none).
        "mosaic.sharing-policy",
        "normal");
  }

  public DistributedQueryRunner runner() {
    return runner;
  }

  /** A session whose default catalog is {@code catalog} and schema {@code tpch}. */
  public Session session(String catalog) {
    Session.SessionBuilder session = testSessionBuilder().setCatalog(catalog).setSchema(SCHEMA);
    // CATALOG_SESSION="mosaic.dynamic_filtering_wait_timeout=0s,..." sets catalog session
    // properties, to compare one setting without rebuilding (docs/benchmarks.md).
    String properties = System.getenv().getOrDefault("CATALOG_SESSION", "");
    for (String property : properties.split(",")) {
      String[] nameValue = property.trim().split("=", 2);
      String[] catalogName = nameValue[0].split("\\.", 2);
      if (nameValue.length == 2 && catalogName.length == 2 && catalogName[0].equals(catalog)) {
        session.setCatalogSessionProperty(catalog, catalogName[1], nameValue[1]);
      }
    }
    return session.build();
  }

  /** The tpch connector's schema of the scale factor, quoted ({@code "sf1"}, {@code "tiny"}). */
  String generatorSchema() {
    if (scaleFactor == 0.01) {
      return "\"tiny\"";
    }
    return "\"sf" + format(scaleFactor) + "\"";
  }

  public static String format(double scaleFactor) {
    return scaleFactor == Math.rint(scaleFactor)
        ? String.valueOf((long) scaleFactor)
        : String.valueOf(scaleFactor);
  }

  /** One table created by {@link #load}. */
  public record Loaded(String catalog, String table, long rows, double seconds) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT, "%s.%s.%s: %d rows in %.1f s", catalog, SCHEMA, table, rows, seconds);
    }
  }

  /**
   * Creates, by CREATE TABLE AS from the generator, every table missing from a compared catalog:
   * all of memory's, and Mosaic's and Hive's unless a previous run left them in the directory (CTAS
   * commits the whole table or nothing, so a table that exists is complete).
   */
  public List<Loaded> load(Consumer<String> progress) {
    return load(COMPARED, progress);
  }

  /** As {@link #load(Consumer)}, for some of the compared catalogs only. */
  public List<Loaded> load(List<String> catalogs, Consumer<String> progress) {
    List<Loaded> loaded = new ArrayList<>();
    for (String catalog : catalogs) {
      runner.execute("CREATE SCHEMA IF NOT EXISTS " + catalog + "." + SCHEMA);
      Set<String> existing = new HashSet<>();
      for (MaterializedRow row :
          runner.execute("SHOW TABLES FROM " + catalog + "." + SCHEMA).getMaterializedRows()) {
        existing.add((String) row.getField(0));
      }
      for (String table : TABLES) {
        if (existing.contains(table)) {
          continue;
        }
        long start = System.nanoTime();
        long rows =
            (long)
                runner
                    .execute(
                        "CREATE TABLE "
                            + catalog
                            + "."
                            + SCHEMA
                            + "."
                            + table
                            + " AS SELECT * FROM tpch."
                            + generatorSchema()
                            + "."
                            + table)
                    .getOnlyValue();
        Loaded l = new Loaded(catalog, table, rows, (System.nanoTime() - start) / 1e9);
        loaded.add(l);
        progress.accept("loaded " + l);
      }
    }
    return loaded;
  }

  /** Bytes on disk of Mosaic's device and of Hive's files (metastore included). */
  long mosaicBytes() throws IOException {
    return size(dir.resolve("pool/d"));
  }

  long hiveBytes() throws IOException {
    return size(dir.resolve("hive"));
  }

  private static long size(Path root) throws IOException {
    try (var files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  @Override
  public void close() {
    runner.close();
  }
}
