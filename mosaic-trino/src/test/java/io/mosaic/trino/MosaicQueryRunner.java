package io.mosaic.trino;

import static io.trino.testing.TestingSession.testSessionBuilder;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.Latency;
import io.mosaic.device.DevicePool;
import io.mosaic.model.DeviceModel;
import io.mosaic.model.DeviceModelFile;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import io.trino.operator.OperatorStats;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.plugin.tpch.TpchPlugin;
import io.trino.spi.QueryId;
import io.trino.spi.connector.Connector;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.transaction.IsolationLevel;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.QueryRunner;
import io.trino.testing.QueryRunner.MaterializedResultWithPlan;
import io.trino.testing.TestingConnectorSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An in-process Trino cluster (a coordinator and a worker, each with its own Mosaic connector over
 * the same directories) with a {@code mosaic} catalog on a two-device pool and the {@code tpch}
 * catalog, whose columns carry the specification's names (l_orderkey, ...).
 */
public final class MosaicQueryRunner {
  private MosaicQueryRunner() {}

  /** Two emulated devices: zstd with 2 readers, lz4 with 1 (an HDD-like device). */
  static Path writePool(Path dir) {
    String toml =
        """
        [[device]]
        id = "fast"
        path = "devices/fast"
        capacity = "10 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "100 ct"
        metadata = true
        emulate = { read = "4 GB/s" }

        [[device]]
        id = "slow"
        path = "devices/slow"
        capacity = "10 GB"
        threads = 1
        codec = "lz4"
        cost_per_gb = "20 ct"
        emulate = { read = "4 GB/s" }
        """;
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve("devices.toml");
      Files.writeString(file, toml);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes the device model of {@link #writePool}'s pool as {@code mosaic calibrate} would, with
   * "fast" far faster than "slow", so that placing has something to decide.
   */
  static void writeDeviceModel(Path dir) throws IOException {
    DevicePool pool = DevicePool.load(dir.resolve("devices.toml"));
    Files.createDirectories(pool.modelFile().getParent());
    DeviceModelFile.write(
        pool.modelFile(),
        List.of(
            new DeviceModel(
                "fast",
                2,
                Bandwidth.ofMegabytesPerSecond(2000),
                Latency.ofMillis(0.1),
                Map.of(
                    Codec.ZSTD,
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(3000), 3.0))),
            new DeviceModel(
                "slow",
                1,
                Bandwidth.ofMegabytesPerSecond(50),
                Latency.ofMillis(8),
                Map.of(
                    Codec.LZ4,
                    new DeviceModel.CodecModel(Bandwidth.ofMegabytesPerSecond(80), 2.0)))),
        "test model");
  }

  static Map<String, String> catalogProperties(Path dir) {
    Map<String, String> properties = new HashMap<>();
    properties.put("mosaic.devices-config", writePool(dir).toString());
    properties.put("mosaic.metadata-directory", dir.resolve("metadata").toString());
    // Small splits, so that even tpch.tiny's tables are read by several splits on both nodes.
    properties.put("mosaic.target-split-size", "64kB");
    properties.put("mosaic.decode-threads", "2");
    return properties;
  }

  static DistributedQueryRunner create(Path dir) throws Exception {
    return create(dir, Map.of());
  }

  /**
   * The pool a Mosaic catalog's connector opened on the coordinator, its S3 devices through the
   * catalog's own file system: for a benchmark that reads the tables' manifests and traces beside
   * the engine (a pool loaded from the file alone would open S3 through S3A).
   */
  public static DevicePool pool(DistributedQueryRunner runner, String catalog) {
    return ((MosaicConnector) runner.getCoordinator().getConnector(catalog)).storage().pool();
  }

  /**
   * Installs the TPC-H generator as catalog {@code tpch}, with the specification's column names and
   * decimal prices: exact sums make Q15's equality on total revenue hold whatever order the splits
   * are summed in.
   */
  public static void installTpch(QueryRunner runner) {
    runner.installPlugin(new TpchPlugin());
    runner.createCatalog(
        "tpch",
        "tpch",
        Map.of("tpch.column-naming", "STANDARD", "tpch.double-type-mapping", "DECIMAL"));
  }

  /** The cluster with {@code overrides} of the mosaic catalog's properties. */
  static DistributedQueryRunner create(Path dir, Map<String, String> overrides) throws Exception {
    return create(dir, overrides, 1);
  }

  /** As {@link #create(Path, Map)}, with {@code workers} workers beside the coordinator. */
  static DistributedQueryRunner create(Path dir, Map<String, String> overrides, int workers)
      throws Exception {
    DistributedQueryRunner runner =
        DistributedQueryRunner.builder(
                testSessionBuilder().setCatalog("mosaic").setSchema("tiny").build())
            .setWorkerCount(workers)
            .build();
    try {
      installTpch(runner);
      runner.installPlugin(new MosaicPlugin());
      Map<String, String> properties = catalogProperties(dir);
      properties.putAll(overrides);
      runner.createCatalog("mosaic", "mosaic", properties);
      return runner;
    } catch (RuntimeException e) {
      runner.close();
      throw e;
    }
  }

  /** The records a query left in the current trace epoch of the table at {@code tableDir}. */
  static List<TraceRecord> traceRecords(Path tableDir, MaterializedResultWithPlan result) {
    TraceLog log = new TraceLog(tableDir);
    return log.read(log.epoch()).stream()
        .filter(r -> r.queryId().equals(result.queryId().toString()))
        .toList();
  }

  /**
   * The connector metrics of query {@code id} that are counts ({@link MosaicPageSource}'s chunks
   * and bytes per device), each summed over the query's table scans.
   */
  public static Map<String, Long> connectorMetrics(DistributedQueryRunner runner, QueryId id) {
    Map<String, Long> sums = new HashMap<>();
    for (OperatorStats op :
        runner
            .getCoordinator()
            .getQueryManager()
            .getFullQueryInfo(id)
            .getQueryStats()
            .getOperatorSummaries()) {
      op.getConnectorMetrics()
          .getMetrics()
          .forEach(
              (name, metric) -> {
                if (metric instanceof LongCount c) {
                  sums.merge(name, c.getTotal(), Long::sum);
                }
              });
    }
    return sums;
  }

  /** The splits {@code connector} plans for a scan of all of {@code schema.table}. */
  static List<MosaicSplit> splits(Connector connector, String schema, String table)
      throws Exception {
    ConnectorSession session =
        TestingConnectorSession.builder()
            .setPropertyMetadata(connector.getSessionProperties())
            .build();
    ConnectorTransactionHandle tx =
        connector.beginTransaction(IsolationLevel.READ_COMMITTED, true, true);
    ConnectorTableHandle handle =
        connector
            .getMetadata(session, tx)
            .getTableHandle(
                session, new SchemaTableName(schema, table), Optional.empty(), Optional.empty());
    List<MosaicSplit> splits = new ArrayList<>();
    try (ConnectorSplitSource source =
        connector
            .getSplitManager()
            .getSplits(tx, session, handle, DynamicFilter.EMPTY, Constraint.alwaysTrue())) {
      while (!source.isFinished()) {
        for (ConnectorSplit s : source.getNextBatch(100).get().getSplits()) {
          splits.add((MosaicSplit) s);
        }
      }
    }
    return splits;
  }
}
