package io.mosaic.spark;

import io.mosaic.device.DevicePool;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Where a table lives and which pool serves it, as {@link MosaicSparkConf#location} resolved them
 * on the driver; serialized with each partition so executors open the same table and pool.
 *
 * @param hadoop the driver's Hadoop settings that differ from Hadoop's defaults ({@link
 *     MosaicSparkConf#hadoopSettings}): a Hadoop {@code Configuration} is not serializable, and an
 *     executor must open the pool's devices on HDFS as the driver does (docs/spark.md, "Devices on
 *     HDFS")
 */
record MosaicOptions(String root, String devices, Map<String, String> hadoop)
    implements Serializable {
  private static final Map<PoolKey, DevicePool> POOLS = new ConcurrentHashMap<>();

  /** One pool per devices.toml and Hadoop configuration. */
  private record PoolKey(String devices, Map<String, String> hadoop) {}

  MosaicOptions {
    hadoop = Map.copyOf(hadoop);
  }

  /** A table whose pool needs no Hadoop settings beyond the defaults. */
  MosaicOptions(String root, String devices) {
    this(root, devices, Map.of());
  }

  /** The pool, loaded once per JVM (drivers and executors each keep theirs). */
  DevicePool pool() {
    return POOLS.computeIfAbsent(
        new PoolKey(devices, hadoop),
        k -> DevicePool.load(Path.of(k.devices()), hadoopConfiguration()));
  }

  /** Hadoop's configuration on this JVM (its *-site.xml files), with the driver's settings. */
  Configuration hadoopConfiguration() {
    Configuration conf = new Configuration();
    hadoop.forEach((key, value) -> conf.set(key, value, "the Spark driver"));
    return conf;
  }

  Path rootPath() {
    return Path.of(root);
  }
}
