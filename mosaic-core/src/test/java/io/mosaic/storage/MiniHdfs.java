package io.mosaic.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.GlobalStorageStatistics;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSOpsCountStatistics;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An in-process HDFS for tests: one NameNode and three DataNodes, one with SSD, one with DISK and
 * one with ARCHIVE storage, so a storage policy decides which DataNode holds a block (ALL_SSD on
 * the SSD one, HOT on the DISK one, COLD on the ARCHIVE one) and tests can assert it from the block
 * locations. Starting takes seconds (tens on a loaded machine), so the test classes of a test JVM
 * share one cluster, started by the first and shut down when JUnit's root context closes:
 *
 * <pre>{@code @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();}</pre>
 *
 * Classes on the shared cluster keep to their own folders. A class that needs a cluster of its own
 * (one it stops or fills) registers {@code new MiniHdfs()}, or calls {@link #start()} and {@link
 * #close()} itself.
 */
public final class MiniHdfs implements BeforeAllCallback, AfterAllCallback, AutoCloseable {
  /** Files written through {@link #conf()} have blocks this large, so segments span blocks. */
  public static final long BLOCK_SIZE = 1 << 20;

  /**
   * The client settings of this cluster, which {@link #conf()} has and which the engines' tests
   * pass where an engine builds its own Hadoop configuration ({@code spark.hadoop.*}, a Trino
   * catalog's {@code mosaic.hadoop.settings}, the CLI's {@code --hadoop-conf}):
   *
   * <ul>
   *   <li>one replica: each block lies on exactly one DataNode, the one of its policy's type;
   *   <li>blocks of {@link #BLOCK_SIZE}, so segments span blocks;
   *   <li>a closing file polls the NameNode until its last block is reported, first after 20 ms
   *       instead of 400 ms: with the default, that wait was most of the time a small write took
   *       (hundreds of closes per engine suite), and twice the retries keep the total it waits
   *       before giving up (20 ms doubling 10 times, 20 s) above the default's 12 s on a loaded
   *       machine.
   * </ul>
   */
  public static final Map<String, String> CLIENT_SETTINGS =
      Map.of(
          "dfs.replication", "1",
          "dfs.blocksize", Long.toString(BLOCK_SIZE),
          "dfs.client.block.write.locateFollowingBlock.initial.delay.ms", "20",
          "dfs.client.block.write.locateFollowingBlock.retries", "10");

  /** The smallest block size a client may ask for here (HDFS's own minimum is 1 MiB). */
  public static final long MIN_BLOCK_SIZE = 4096;

  /**
   * Loggers that write a line per file operation or per block (the NameNode's audit log, block
   * state changes, a DataNode's client trace and its thousands of "Added DIR lock" lines at start):
   * megabytes of test output and the time to write them. Warnings still show.
   */
  private static final List<String> CHATTY =
      List.of(
          "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit",
          "org.apache.hadoop.hdfs.StateChange",
          "BlockStateChange",
          "org.apache.hadoop.hdfs.server.datanode.DataNode",
          "org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace",
          "org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetImpl",
          "org.apache.hadoop.hdfs.server.datanode.fsdataset.impl.FsDatasetAsyncDiskService",
          "org.apache.hadoop.io.compress.CodecPool");

  /** Held: java.util.logging keeps its loggers (and so their levels) only weakly. */
  private static final List<java.util.logging.Logger> QUIET = new ArrayList<>();

  static {
    for (String name : CHATTY) {
      // Both bindings the modules' tests log through: slf4j-simple and java.util.logging.
      System.setProperty("org.slf4j.simpleLogger.log." + name, "warn");
      java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
      logger.setLevel(java.util.logging.Level.WARNING);
      QUIET.add(logger);
    }
  }

  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(MiniHdfs.class);

  private final boolean shared;
  private MiniDFSCluster cluster;
  private Configuration conf;
  private URI uri;
  private Duration startTime;

  /** An extension that starts a cluster for its test class and shuts it down after. */
  public MiniHdfs() {
    this(false);
  }

  private MiniHdfs(boolean shared) {
    this.shared = shared;
  }

  /**
   * An extension on the cluster of this test JVM (surefire and failsafe run a module's classes in
   * one JVM), started by the first class that asks; JUnit closes it with its root context.
   */
  public static MiniHdfs shared() {
    return new MiniHdfs(true);
  }

  /** Starts a cluster now, for callers that manage its life themselves. */
  public static MiniHdfs start() {
    MiniHdfs hdfs = new MiniHdfs();
    hdfs.startCluster();
    return hdfs;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (!shared) {
      startCluster();
      return;
    }
    MiniHdfs running =
        context
            .getRoot()
            .getStore(SHARED)
            .getOrComputeIfAbsent(MiniHdfs.class, k -> start(), MiniHdfs.class);
    cluster = running.cluster;
    conf = running.conf;
    uri = running.uri;
    startTime = running.startTime;
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (!shared) {
      close();
    }
  }

  private void startCluster() {
    long start = System.nanoTime();
    Path base = Path.of("target", "minihdfs", UUID.randomUUID().toString()).toAbsolutePath();
    Configuration c = new Configuration();
    CLIENT_SETTINGS.forEach(c::set);
    c.setLong("dfs.namenode.fs-limits.min-block-size", MIN_BLOCK_SIZE);
    // DataNodes register and report sooner, which is most of what the start waits for.
    c.setInt("dfs.heartbeat.interval", 1);
    c.set("dfs.namenode.http-address", "127.0.0.1:0");
    c.set("dfs.datanode.http.address", "127.0.0.1:0");
    try {
      cluster =
          new MiniDFSCluster.Builder(c, base.toFile())
              .numDataNodes(3)
              .storagesPerDatanode(1)
              .storageTypes(
                  new StorageType[][] {
                    {StorageType.SSD}, {StorageType.DISK}, {StorageType.ARCHIVE}
                  })
              // A busy DataNode must not push a block onto another type (a fallback storage).
              .setNNRedundancyConsiderLoad(false)
              .build();
      cluster.waitActive();
    } catch (IOException e) {
      throw new UncheckedIOException("MiniDFSCluster did not start under " + base, e);
    }
    uri = URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort() + "/");
    conf = new Configuration(cluster.getConfiguration(0));
    conf.set("fs.defaultFS", uri.toString());
    startTime = Duration.ofNanos(System.nanoTime() - start);
  }

  /** {@code hdfs://127.0.0.1:port/}. */
  public URI uri() {
    return uri;
  }

  /**
   * Devices "ssd", "hot" and "cold" under {@code /mosaic/} with the policies ALL_SSD, HOT and COLD,
   * as {@code devices.toml} entries, and the storage type each policy puts its blocks on here.
   */
  public static final Map<String, StorageType> POLICY_DEVICES =
      Map.of("ssd", StorageType.SSD, "hot", StorageType.DISK, "cold", StorageType.ARCHIVE);

  /**
   * The device of {@link #POLICY_DEVICES} a TPC-H table goes to in the engines' cluster tests, so
   * their queries read all three storage types: lineitem cold, orders and partsupp hot, the rest on
   * SSD.
   */
  public static String tpchDevice(String table) {
    return switch (table) {
      case "lineitem" -> "cold";
      case "orders", "partsupp" -> "hot";
      default -> "ssd";
    };
  }

  /** The {@code [[device]]} entries of {@link #POLICY_DEVICES}, on this cluster. */
  public String policyDevicesToml() {
    return policyDevicesToml("mosaic");
  }

  /**
   * The devices of {@link #POLICY_DEVICES} under {@code /folder/} instead of {@code /mosaic/}, for
   * a pool of its own on the shared cluster.
   */
  public String policyDevicesToml(String folder) {
    return """

        [[device]]
        id = "ssd"
        uri = "%1$s%2$s/ssd"
        storage_policy = "ALL_SSD"
        capacity = "2 GB"
        threads = 2
        codec = "lz4"
        cost_per_gb = "60 ct"

        [[device]]
        id = "hot"
        uri = "%1$s%2$s/hot"
        storage_policy = "HOT"
        capacity = "4 GB"
        threads = 2
        codec = "zstd"
        cost_per_gb = "20 ct"

        [[device]]
        id = "cold"
        uri = "%1$s%2$s/cold"
        storage_policy = "COLD"
        capacity = "8 GB"
        threads = 1
        codec = "zstd"
        cost_per_gb = "2 ct"
        """
        .formatted(uri, folder);
  }

  /**
   * For each Parquet file under {@code folder} (none if it does not exist), the storage types of
   * all its blocks' replicas, to assert that segments lie on their device's type.
   */
  public Map<String, Set<StorageType>> blockTypes(String folder) throws IOException {
    Map<String, Set<StorageType>> types = new TreeMap<>();
    var fs = fileSystem();
    var root = new org.apache.hadoop.fs.Path(folder);
    if (!fs.exists(root)) {
      return types;
    }
    var files = fs.listFiles(root, true);
    while (files.hasNext()) {
      var f = files.next();
      if (f.getPath().getName().endsWith(".parquet")) {
        Set<StorageType> of = EnumSet.noneOf(StorageType.class);
        for (var block : f.getBlockLocations()) {
          of.addAll(Arrays.asList(block.getStorageTypes()));
        }
        types.put(f.getPath().toString(), of);
      }
    }
    return types;
  }

  /** A copy of the clients' configuration (block size {@link #BLOCK_SIZE}, one replica). */
  public Configuration conf() {
    return new Configuration(conf);
  }

  /** A storage rooted at {@code folder} ({@code "t1/fast"}), with this cluster's configuration. */
  public Storage storage(String folder) throws IOException {
    return Storages.open(uri.resolve(folder), conf);
  }

  /** The cluster's file system, for what tests set up as an administrator (quotas). */
  public DistributedFileSystem fileSystem() throws IOException {
    return cluster.getFileSystem();
  }

  public MiniDFSCluster cluster() {
    return cluster;
  }

  /**
   * The calls every HDFS client in this JVM has made to the NameNode, by operation ({@code
   * op_create}, {@code op_rename}, ...), to count the metadata operations of a commit or a scan.
   */
  public static Map<String, Long> operationCounts() {
    Map<String, Long> counts = new TreeMap<>();
    StorageStatistics stats = GlobalStorageStatistics.INSTANCE.get(DFSOpsCountStatistics.NAME);
    if (stats != null) {
      stats
          .getLongStatistics()
          .forEachRemaining(
              s -> {
                if (s.getValue() != 0) {
                  counts.put(s.getName(), s.getValue());
                }
              });
    }
    return counts;
  }

  /** The operations of {@link #operationCounts()} made while {@code work} ran. */
  public static Map<String, Long> operationsOf(IoRunnable work) throws IOException {
    Map<String, Long> before = operationCounts();
    work.run();
    Map<String, Long> made = new TreeMap<>();
    operationCounts()
        .forEach(
            (op, n) -> {
              long delta = n - before.getOrDefault(op, 0L);
              if (delta != 0) {
                made.put(op, delta);
              }
            });
    return made;
  }

  /** Work that may fail with an {@link IOException}. */
  public interface IoRunnable {
    void run() throws IOException;
  }

  /** How long the cluster took to start and become active. */
  public Duration startTime() {
    return startTime;
  }

  @Override
  public void close() {
    if (cluster != null && !shared) {
      cluster.shutdown(true);
      cluster = null;
    }
  }
}
