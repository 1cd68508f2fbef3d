package io.mosaic.spark;

import io.mosaic.device.DevicePool;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a table lives and which pool serves it, as {@link MosaicSparkConf#location} resolved them
 * on the driver; serialized with each partition so executors open the same table and pool.
 */
record MosaicOptions(String root, String devices) implements Serializable {
  private static final Map<String, DevicePool> POOLS = new ConcurrentHashMap<>();

  /** The pool, loaded once per JVM (drivers and executors each keep theirs). */
  DevicePool pool() {
    return POOLS.computeIfAbsent(devices, d -> DevicePool.load(Path.of(d)));
  }

  Path rootPath() {
    return Path.of(root);
  }
}
