package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/**
 * The Hadoop configuration devices on HDFS are opened with (docs/distributed-storage.md, "The
 * CLI"): {@code core-site.xml} and {@code hdfs-site.xml} of {@code $HADOOP_CONF_DIR}, as Hadoop's
 * own commands read them, then each {@code --hadoop-conf key=value} on top.
 */
final class HadoopOptions {
  /** The environment variable Hadoop's own scripts read the configuration directory from. */
  static final String CONF_DIR = "HADOOP_CONF_DIR";

  /** The files of {@link #CONF_DIR} that a client reads, in Hadoop's order. */
  static final List<String> SITE_FILES = List.of("core-site.xml", "hdfs-site.xml");

  @Option(
      names = "--hadoop-conf",
      paramLabel = "KEY=VALUE",
      description =
          "A Hadoop setting for devices on HDFS or S3 (repeatable), over core-site.xml and"
              + " hdfs-site.xml of $HADOOP_CONF_DIR, e.g. --hadoop-conf"
              + " dfs.client.use.datanode.hostname=true or --hadoop-conf"
              + " fs.s3a.endpoint=http://s3.local:8333 (S3 credentials come from the environment).")
  Map<String, String> settings = new LinkedHashMap<>();

  /** Loads the pool of {@code devices} with this command's Hadoop configuration. */
  DevicePool load(Path devices) {
    return DevicePool.load(devices, configuration(System.getenv(CONF_DIR), settings));
  }

  /**
   * Hadoop's defaults, then the site files of {@code confDir} (null or blank: none), then {@code
   * settings}.
   */
  static Configuration configuration(String confDir, Map<String, String> settings) {
    Configuration conf = new Configuration();
    if (confDir != null && !confDir.isBlank()) {
      Path dir = Path.of(confDir);
      if (!Files.isDirectory(dir)) {
        throw MosaicException.invalid(
            CONF_DIR
                + "="
                + confDir
                + " is not a directory; point it at the folder of core-site.xml and"
                + " hdfs-site.xml, or unset it");
      }
      for (String name : SITE_FILES) {
        Path file = dir.resolve(name);
        if (Files.isRegularFile(file)) {
          conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
        }
      }
    }
    settings.forEach((key, value) -> conf.set(key, value, "--hadoop-conf"));
    return conf;
  }
}
