package io.mosaic.spark;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
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
  private static final Map<String, DevicePool> POOLS = new ConcurrentHashMap<>();

  MosaicOptions {
    hadoop = Map.copyOf(hadoop);
  }

  /** A table whose pool needs no Hadoop settings beyond the defaults. */
  MosaicOptions(String root, String devices) {
    this(root, devices, Map.of());
  }

  /**
   * The pool, loaded once per JVM and devices.toml (drivers and executors each keep theirs, with
   * its device space accounting), with the Hadoop settings of its first use: as Hadoop's own
   * FileSystem cache, later changes to the settings do not reopen it.
   */
  DevicePool pool() {
    return POOLS.computeIfAbsent(devices, d -> DevicePool.load(Path.of(d), hadoopConfiguration()));
  }

  /** Hadoop's configuration on this JVM (its *-site.xml files), with the driver's settings. */
  Configuration hadoopConfiguration() {
    Configuration conf = new Configuration();
    hadoop.forEach((key, value) -> conf.set(key, value, "the Spark driver"));
    return conf;
  }

  /**
   * The table's location: an absolute local path, or as given when it is a URI of other storage
   * ({@code hdfs://nn:8020/warehouse/orders}, docs/distributed-storage.md).
   */
  String location() {
    return MosaicTable.isRemote(root)
        ? root
        : Path.of(root).toAbsolutePath().normalize().toString();
  }

  /** The table's name: the last part of its location. */
  String tableName() {
    String l = location().replaceAll("/+$", "");
    return l.substring(l.lastIndexOf('/') + 1);
  }
}
