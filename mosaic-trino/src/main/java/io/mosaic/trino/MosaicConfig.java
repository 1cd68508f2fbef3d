package io.mosaic.trino;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.airlift.units.MinDataSize;
import io.mosaic.MosaicException;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.scan.Retriever;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;

/** The catalog properties ({@code etc/catalog/mosaic.properties}); docs/trino.md lists them. */
// Not final: airlift's ConfigAssertions records defaults through a subclass proxy.
public class MosaicConfig {
  private String devicesConfig;
  private String metadataDirectory;
  private DataSize scanBufferMemory = DataSize.of(256, DataSize.Unit.MEGABYTE);
  private int decodeThreads = Runtime.getRuntime().availableProcessors();
  private DataSize vectorPoolMemory = DataSize.ofBytes(Retriever.DEFAULT_POOLED_VECTOR_BYTES);
  private SharingPolicy sharingPolicy = SharingPolicy.ENGINE_DEFAULT;
  private DataSize sharedBufferMemory = DataSize.ofBytes(Retriever.DEFAULT_SHARED_BUFFER_BYTES);
  private DataSize targetSplitSize = DataSize.of(128, DataSize.Unit.MEGABYTE);
  // Hive's default (hive.dynamic-filtering.wait-timeout): no wait. Waiting delays every probe
  // scan until its build side ends, and a filter that arrives later still prunes row groups
  // before they are read (ScanRequest.narrowing); TPC-H q14 took 1.5x as long with a 1 s wait
  // (docs/benchmarks.md). Tables clustered on a join key may gain from a wait.
  private Duration dynamicFilteringWaitTimeout = new Duration(0, TimeUnit.SECONDS);
  // Hive's and Iceberg's minimum-assigned-split-weight default.
  private double minimumAssignedSplitWeight = 0.05;
  private String hadoopConfigResources;
  private String hadoopSettings;

  @NotNull
  public String getDevicesConfig() {
    return devicesConfig;
  }

  @Config("mosaic.devices-config")
  @ConfigDescription("The device pool's devices.toml")
  public MosaicConfig setDevicesConfig(String devicesConfig) {
    this.devicesConfig = devicesConfig;
    return this;
  }

  @NotNull
  public String getMetadataDirectory() {
    return metadataDirectory;
  }

  @Config("mosaic.metadata-directory")
  @ConfigDescription(
      "Directory or URI (hdfs://...) of the catalog's schemas and table manifests (a metadata device)")
  public MosaicConfig setMetadataDirectory(String metadataDirectory) {
    this.metadataDirectory = metadataDirectory;
    return this;
  }

  @NotNull
  @MinDataSize("1MB")
  public DataSize getScanBufferMemory() {
    return scanBufferMemory;
  }

  @Config("mosaic.scan-buffer-memory")
  @ConfigDescription("Raw column chunks one split may prefetch (paper Section 3.3's buffer)")
  public MosaicConfig setScanBufferMemory(DataSize scanBufferMemory) {
    this.scanBufferMemory = scanBufferMemory;
    return this;
  }

  @Min(1)
  public int getDecodeThreads() {
    return decodeThreads;
  }

  @Config("mosaic.decode-threads")
  @ConfigDescription(
      "Threads decompressing and decoding column chunks; device reader threads come from"
          + " devices.toml")
  public MosaicConfig setDecodeThreads(int decodeThreads) {
    this.decodeThreads = decodeThreads;
    return this;
  }

  @NotNull
  public DataSize getVectorPoolMemory() {
    return vectorPoolMemory;
  }

  @Config("mosaic.vector-pool-memory")
  @ConfigDescription(
      "Decoded column vectors the node keeps after a scan, for later scans of the same columns to"
          + " decode into (0B keeps none)")
  public MosaicConfig setVectorPoolMemory(DataSize vectorPoolMemory) {
    this.vectorPoolMemory = vectorPoolMemory;
    return this;
  }

  @NotNull
  public String getSharingPolicy() {
    return sharingPolicy.configName();
  }

  /** {@link #getSharingPolicy()}, parsed (the setter refuses unknown names at startup). */
  SharingPolicy sharingPolicy() {
    return sharingPolicy;
  }

  @Config("mosaic.sharing-policy")
  @ConfigDescription(
      "How concurrent scans on this node share their reads (docs/cooperative-scans.md):"
          + " relevance (the default), elevator, attach or normal (each reads its own, in order)")
  public MosaicConfig setSharingPolicy(String policy) {
    try {
      this.sharingPolicy = SharingPolicy.parse(policy);
    } catch (MosaicException e) {
      throw new IllegalArgumentException("mosaic.sharing-policy: " + e.getMessage(), e);
    }
    return this;
  }

  @NotNull
  @MinDataSize("1MB")
  public DataSize getSharedBufferMemory() {
    return sharedBufferMemory;
  }

  @Config("mosaic.shared-buffer-memory")
  @ConfigDescription(
      "Raw column chunks the node's shared scan buffer holds for concurrent scans (one per sharing"
          + " policy in use other than normal)")
  public MosaicConfig setSharedBufferMemory(DataSize sharedBufferMemory) {
    this.sharedBufferMemory = sharedBufferMemory;
    return this;
  }

  @NotNull
  @MinDataSize("1kB")
  public DataSize getTargetSplitSize() {
    return targetSplitSize;
  }

  @Config("mosaic.target-split-size")
  @ConfigDescription("Compressed bytes of the requested columns per split (row-group range)")
  public MosaicConfig setTargetSplitSize(DataSize targetSplitSize) {
    this.targetSplitSize = targetSplitSize;
    return this;
  }

  @NotNull
  public Duration getDynamicFilteringWaitTimeout() {
    return dynamicFilteringWaitTimeout;
  }

  @Config("mosaic.dynamic-filtering.wait-timeout")
  @ConfigDescription(
      "How long split planning waits for a join's dynamic filter, to prune row groups by it"
          + " (session property dynamic_filtering_wait_timeout)")
  public MosaicConfig setDynamicFilteringWaitTimeout(Duration timeout) {
    this.dynamicFilteringWaitTimeout = timeout;
    return this;
  }

  @DecimalMin(value = "0", inclusive = false)
  @DecimalMax("1")
  public double getMinimumAssignedSplitWeight() {
    return minimumAssignedSplitWeight;
  }

  @Config("mosaic.minimum-assigned-split-weight")
  @ConfigDescription(
      "Smallest weight a split gets (its bytes over the target split size otherwise), in (0, 1]")
  public MosaicConfig setMinimumAssignedSplitWeight(double weight) {
    this.minimumAssignedSplitWeight = weight;
    return this;
  }

  public String getHadoopConfigResources() {
    return hadoopConfigResources;
  }

  @Config("mosaic.hadoop.config-resources")
  @ConfigDescription(
      "Hadoop configuration files for devices on HDFS, comma-separated (core-site.xml,"
          + " hdfs-site.xml), as Hive's hive.config.resources")
  public MosaicConfig setHadoopConfigResources(String files) {
    this.hadoopConfigResources = files;
    return this;
  }

  public String getHadoopSettings() {
    return hadoopSettings;
  }

  @Config("mosaic.hadoop.settings")
  @ConfigDescription(
      "Hadoop settings for devices on HDFS, comma-separated key=value pairs applied over"
          + " mosaic.hadoop.config-resources (e.g. dfs.client.use.datanode.hostname=true)")
  public MosaicConfig setHadoopSettings(String settings) {
    this.hadoopSettings = settings;
    return this;
  }

  /**
   * The Hadoop configuration devices on HDFS are opened with (docs/trino.md, "Devices on HDFS"):
   * Hadoop's defaults, then each file of {@code mosaic.hadoop.config-resources}, then {@code
   * mosaic.hadoop.settings}. Every node of the cluster builds the same from the same catalog file.
   */
  Configuration hadoopConfiguration() {
    Configuration conf = new Configuration();
    for (String file : list(hadoopConfigResources)) {
      Path path = Path.of(file);
      if (!Files.isRegularFile(path)) {
        throw new IllegalArgumentException(
            "mosaic.hadoop.config-resources: "
                + path
                + " is not a file; list existing files such as"
                + " /etc/hadoop/conf/core-site.xml,/etc/hadoop/conf/hdfs-site.xml");
      }
      conf.addResource(new org.apache.hadoop.fs.Path(path.toAbsolutePath().toUri()));
    }
    for (String pair : list(hadoopSettings)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "mosaic.hadoop.settings: '"
                + pair
                + "' is not key=value; write e.g."
                + " mosaic.hadoop.settings=dfs.replication=2,dfs.client.use.datanode.hostname=true");
      }
      conf.set(
          pair.substring(0, eq).strip(), pair.substring(eq + 1).strip(), "mosaic.hadoop.settings");
    }
    return conf;
  }

  private static List<String> list(String commaSeparated) {
    return commaSeparated == null
        ? List.of()
        : Arrays.stream(commaSeparated.split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .toList();
  }
}
