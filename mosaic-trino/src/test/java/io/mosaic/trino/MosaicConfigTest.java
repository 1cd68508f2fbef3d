package io.mosaic.trino;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.airlift.units.DataSize;
import io.airlift.units.Duration;
import io.trino.spi.connector.Connector;
import io.trino.testing.TestingConnectorContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Catalog properties: defaults, explicit mapping, and the errors an admin sees at startup. */
class MosaicConfigTest {
  @TempDir Path dir;

  @Test
  void defaults() {
    assertRecordedDefaults(
        recordDefaults(MosaicConfig.class)
            .setDevicesConfig(null)
            .setMetadataDirectory(null)
            .setScanBufferMemory(DataSize.of(256, DataSize.Unit.MEGABYTE))
            .setDecodeThreads(Runtime.getRuntime().availableProcessors())
            .setVectorPoolMemory(DataSize.of(256, DataSize.Unit.MEGABYTE))
            .setTargetSplitSize(DataSize.of(128, DataSize.Unit.MEGABYTE))
            .setDynamicFilteringWaitTimeout(new Duration(0, TimeUnit.SECONDS))
            .setMinimumAssignedSplitWeight(0.05)
            .setSharingPolicy("relevance")
            .setSharedBufferMemory(DataSize.of(256, DataSize.Unit.MEGABYTE))
            .setHadoopConfigResources(null)
            .setHadoopSettings(null));
  }

  @Test
  void explicitPropertyMappings() {
    Map<String, String> properties =
        Map.ofEntries(
            Map.entry("mosaic.sharing-policy", "elevator"),
            Map.entry("mosaic.shared-buffer-memory", "64MB"),
            Map.entry("mosaic.dynamic-filtering.wait-timeout", "3s"),
            Map.entry("mosaic.minimum-assigned-split-weight", "0.2"),
            Map.entry("mosaic.devices-config", "/etc/mosaic/devices.toml"),
            Map.entry("mosaic.metadata-directory", "/var/mosaic/metadata"),
            Map.entry("mosaic.scan-buffer-memory", "64MB"),
            Map.entry("mosaic.decode-threads", "3"),
            Map.entry("mosaic.target-split-size", "32MB"),
            Map.entry("mosaic.vector-pool-memory", "0B"),
            Map.entry("mosaic.hadoop.config-resources", "/etc/hadoop/core-site.xml"),
            Map.entry("mosaic.hadoop.settings", "dfs.replication=2"));
    assertFullMapping(
        properties,
        new MosaicConfig()
            .setDevicesConfig("/etc/mosaic/devices.toml")
            .setMetadataDirectory("/var/mosaic/metadata")
            .setScanBufferMemory(DataSize.of(64, DataSize.Unit.MEGABYTE))
            .setDecodeThreads(3)
            .setTargetSplitSize(DataSize.of(32, DataSize.Unit.MEGABYTE))
            .setVectorPoolMemory(DataSize.ofBytes(0))
            .setDynamicFilteringWaitTimeout(new Duration(3, TimeUnit.SECONDS))
            .setMinimumAssignedSplitWeight(0.2)
            .setSharingPolicy("elevator")
            .setSharedBufferMemory(DataSize.of(64, DataSize.Unit.MEGABYTE))
            .setHadoopConfigResources("/etc/hadoop/core-site.xml")
            .setHadoopSettings("dfs.replication=2"));
  }

  private Connector create(Map<String, String> properties) {
    return new MosaicConnectorFactory().create("mosaic", properties, new TestingConnectorContext());
  }

  @Test
  void validCatalogStartsAndCreatesTheMetadataDirectory() {
    Connector connector = create(MosaicQueryRunner.catalogProperties(dir));
    try {
      assertThat(Files.isDirectory(dir.resolve("metadata"))).isTrue();
    } finally {
      connector.shutdown();
    }
  }

  @Test
  void missingDevicesConfigIsNamed() {
    Map<String, String> properties = new HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    Path missing = dir.resolve("no-such-devices.toml");
    properties.put("mosaic.devices-config", missing.toString());
    assertThatThrownBy(() -> create(properties)).hasStackTraceContaining(missing.toString());
  }

  @Test
  void requiredPropertiesAreNamed() {
    assertThatThrownBy(() -> create(Map.of("mosaic.metadata-directory", dir.toString())))
        .hasMessageContaining("mosaic.devices-config")
        .hasMessageContaining("must not be null");
  }

  @Test
  void outOfRangeTuningIsNamed() {
    Map<String, String> properties = new HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    properties.put("mosaic.decode-threads", "0");
    assertThatThrownBy(() -> create(properties))
        .hasMessageContaining("mosaic.decode-threads")
        .hasMessageContaining("must be greater than or equal to 1");
    properties.put("mosaic.decode-threads", "1");
    properties.put("mosaic.scan-buffer-memory", "10kB");
    assertThatThrownBy(() -> create(properties)).hasMessageContaining("mosaic.scan-buffer-memory");
    properties.put("mosaic.scan-buffer-memory", "64MB");
    properties.put("mosaic.minimum-assigned-split-weight", "0");
    assertThatThrownBy(() -> create(properties))
        .hasMessageContaining("mosaic.minimum-assigned-split-weight");
    properties.put("mosaic.minimum-assigned-split-weight", "0.2");
    properties.put("mosaic.sharing-policy", "fastest");
    assertThatThrownBy(() -> create(properties))
        .hasStackTraceContaining("mosaic.sharing-policy")
        .hasStackTraceContaining(
            "'fastest' is unknown; use one of normal, attach, elevator," + " relevance");
  }

  /**
   * A devices.toml with a mistake: the error is the parser's list of problems (file and line), not
   * Guice's report with the parser's stack trace in its message.
   */
  @Test
  void devicesConfigThatDoesNotParseIsReportedWithoutAStackTrace() throws Exception {
    Map<String, String> properties = new HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    Path toml = Path.of(properties.get("mosaic.devices-config"));
    Files.writeString(toml, Files.readString(toml).replace("threads = 2", "threadz = 2"));
    assertThatThrownBy(() -> create(properties))
        .isInstanceOf(io.trino.spi.TrinoException.class)
        .hasMessageStartingWith("catalog mosaic cannot start: ")
        .hasMessageContaining(toml + ":5: device 'fast' field 'threadz': unknown field")
        .hasMessageContaining("field 'threads': missing")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\tat ", "Guice"));
  }

  @Test
  void unknownPropertyIsNamed() {
    Map<String, String> properties = new HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    properties.put("mosaic.reader-thread", "4");
    assertThatThrownBy(() -> create(properties)).hasMessageContaining("mosaic.reader-thread");
  }

  @Test
  void metadataDirectoryThatIsAFileIsRefused() throws Exception {
    Map<String, String> properties = new HashMap<>(MosaicQueryRunner.catalogProperties(dir));
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
    properties.put("mosaic.metadata-directory", file.toString());
    assertThatThrownBy(() -> create(properties))
        .hasStackTraceContaining("is a file, not a directory");
  }
}
