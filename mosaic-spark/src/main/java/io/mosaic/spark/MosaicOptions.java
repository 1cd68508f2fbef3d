package io.mosaic.spark;

import io.mosaic.device.DevicePool;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.SparkSession;

/**
 * Where a table lives and which pool serves it. Each option resolves in this order (docs): the
 * read/write option, then the session configuration {@code spark.mosaic.<name>}.
 */
record MosaicOptions(String root, String devices) implements Serializable {
  private static final Map<String, DevicePool> POOLS = new ConcurrentHashMap<>();

  static MosaicOptions resolve(Map<String, String> options) {
    String path = options.get("path");
    if (path == null) {
      throw new IllegalArgumentException(
          "no table location: use .load(\"/path/to/table\") or .save(\"/path/to/table\")");
    }
    String devices = options.get("devices");
    if (devices == null) {
      SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
      devices = session == null ? null : session.conf().get("spark.mosaic.devices", null);
    }
    if (devices == null) {
      throw new IllegalArgumentException(
          "no device pool for Mosaic table "
              + path
              + ": set the option \"devices\" or the"
              + " session conf spark.mosaic.devices to the pool's devices.toml");
    }
    return new MosaicOptions(path, devices);
  }

  /** The pool, loaded once per JVM (drivers and executors each keep theirs). */
  DevicePool pool() {
    return POOLS.computeIfAbsent(devices, d -> DevicePool.load(Path.of(d)));
  }

  Path rootPath() {
    return Path.of(root);
  }
}
