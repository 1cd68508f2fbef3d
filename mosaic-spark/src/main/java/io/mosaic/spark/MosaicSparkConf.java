package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.format.TableProperties;
import io.mosaic.scan.Retriever;
import io.mosaic.table.MosaicTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The one place Mosaic's Spark settings ({@link SparkSetting}) are looked up, parsed and checked,
 * as Iceberg's {@code SparkReadConf} is for its reads; every other class of the module asks it.
 * Where each setting is read (docs/spark.md, "Options, session conf and table properties"):
 *
 * <ul>
 *   <li>a table setting: the read/write option, else the session conf {@code spark.mosaic.<name>},
 *       else the table property of the same name recorded in the manifest, else its default;
 *   <li>an executor setting: the application conf only ({@link #executor});
 *   <li>a catalog setting: the catalog's own options ({@link #catalog}).
 * </ul>
 *
 * An instance resolves the table settings of one read or write, from its options and the table's
 * properties; a bad value's error names the place it came from, so the user knows what to fix.
 */
final class MosaicSparkConf {
  /** A resolved setting and where it came from, so an error can name the place to fix. */
  record Setting(String name, String value, String source) {
    boolean asBoolean() {
      return switch (value.strip().toLowerCase(Locale.ROOT)) {
        case "true" -> true;
        case "false" -> false;
        default ->
            throw MosaicException.invalid(source + " = '" + value + "' must be true or false");
      };
    }
  }

  /**
   * A catalog's pool and directory of namespaces, and the Hadoop settings of the session that
   * created it ({@link #hadoopSettings()}).
   */
  record CatalogConf(String devices, String warehouse, Map<String, String> hadoop) {}

  private final Map<String, String> options;
  private final Map<String, String> tableProperties;

  /**
   * @param options the read or write options (Spark's, looked up as Spark hands them over)
   * @param tableProperties the table's properties; empty for a table not created yet
   */
  MosaicSparkConf(Map<String, String> options, Map<String, String> tableProperties) {
    this.options = options;
    this.tableProperties = tableProperties;
  }

  /** The settings of a write that creates a table: there are no properties yet. */
  static MosaicSparkConf newTable(Map<String, String> options) {
    return new MosaicSparkConf(options, Map.of());
  }

  /**
   * Setting {@code name}: the option, else the session conf {@code spark.mosaic.<name>}, else the
   * table property; null if none is set.
   */
  Setting setting(SparkSetting s) {
    String name = s.key();
    String value = options.get(name);
    if (value != null) {
      return new Setting(name, value, "option " + name);
    }
    value = sessionConf(name);
    if (value != null) {
      return new Setting(name, value, "session conf " + s.confKey());
    }
    value = tableProperties.get(name);
    return value == null ? null : new Setting(name, value, "table property " + name);
  }

  private static String sessionConf(String name) {
    SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
    return session == null ? null : session.conf().get(SparkSetting.CONF_PREFIX + name, null);
  }

  // ---- where a table lives

  /**
   * The table's location (the {@code path} given to load/save) and its pool: the {@code devices}
   * setting, whose last source is the property the table was created with.
   */
  static MosaicOptions location(Map<String, String> options) {
    String path = options.get("path");
    if (path == null) {
      throw MosaicException.invalid(
          "no table location: use .load(\"/path/to/table\") or .save(\"/path/to/table\")");
    }
    Setting devices =
        new MosaicSparkConf(options, tableProperties(path)).setting(SparkSetting.DEVICES);
    if (devices == null) {
      throw MosaicException.invalid(
          "no device pool for Mosaic table "
              + path
              + ": set the option \"devices\" or the"
              + " session conf spark.mosaic.devices to the pool's devices.toml");
    }
    if (devices.source().startsWith("table property") && !Files.exists(Path.of(devices.value()))) {
      throw MosaicException.notFound(
          devices.source()
              + " names "
              + devices.value()
              + ", which does not exist: give the pool's current devices.toml with the option"
              + " \"devices\" or the session conf spark.mosaic.devices (or restore the file)");
    }
    return new MosaicOptions(path, devices.value(), hadoopSettings());
  }

  /**
   * The Hadoop settings the pool's devices on HDFS are opened with (docs/spark.md, "Devices on
   * HDFS"): those of the session's {@code sparkContext().hadoopConfiguration()} that are not
   * Hadoop's defaults, that is {@code spark.hadoop.*}, the driver's core-site.xml and
   * hdfs-site.xml, and what the application set there itself. None without a session.
   */
  static Map<String, String> hadoopSettings() {
    SparkSession session =
        SparkSession.getActiveSession()
            .getOrElse(() -> SparkSession.getDefaultSession().getOrElse(() -> null));
    return session == null
        ? Map.of()
        : hadoopSettings(session.sparkContext().hadoopConfiguration());
  }

  /** The settings of {@code conf} that did not come from Hadoop's *-default.xml files only. */
  static Map<String, String> hadoopSettings(Configuration conf) {
    Map<String, String> set = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      String[] sources = conf.getPropertySources(e.getKey());
      if (sources == null
          || !Arrays.stream(sources).allMatch(source -> source.endsWith("-default.xml"))) {
        set.put(e.getKey(), e.getValue());
      }
    }
    return set;
  }

  /**
   * The properties of the table at {@code root}, or none if there is no table yet. Reading the
   * manifest needs no pool, the pool is what the properties may name; a remote location is read
   * with the session's Hadoop configuration, whose {@code spark.hadoop.*} settings may hold what
   * reaching it takes (an S3 endpoint and credentials, docs/spark.md "Devices on S3").
   */
  static Map<String, String> tableProperties(String location) {
    SparkSession session =
        SparkSession.getActiveSession()
            .getOrElse(() -> SparkSession.getDefaultSession().getOrElse(() -> null));
    return MosaicTable.propertiesAt(
            location, session == null ? null : session.sparkContext().hadoopConfiguration())
        .orElse(Map.of());
  }

  // ---- reads

  /** Whether filters skip row groups by their statistics: true unless set otherwise. */
  boolean pushdown() {
    Setting pushdown = setting(SparkSetting.PUSHDOWN);
    return pushdown == null || pushdown.asBoolean();
  }

  /** The read's sharing policy; null when none is set (the executor's retriever decides). */
  SharingPolicy sharingPolicy() {
    Setting sharing = setting(SparkSetting.SHARING_POLICY);
    if (sharing == null) {
      return null;
    }
    try {
      return SharingPolicy.parse(sharing.value());
    } catch (MosaicException e) {
      throw new MosaicException(e.kind(), sharing.source() + ": " + e.getMessage(), e);
    }
  }

  // ---- writes

  private static final SparkSetting[] FIXED_AT_CREATION = {
    SparkSetting.ROW_GROUP_ROWS, SparkSetting.DEFAULT_DEVICE
  };

  /**
   * The properties a new table is created with: its pool's devices.toml (so a later read needs no
   * option), and {@code row_group_rows} and {@code default_device} from the options or the session
   * conf; {@code pushdown} and {@code column.<name>.device} only when given explicitly. Called on a
   * {@link #newTable} conf.
   */
  Map<String, String> creationProperties(String devices) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(
        SparkSetting.DEVICES.key(), Path.of(devices).toAbsolutePath().normalize().toString());
    for (SparkSetting s : FIXED_AT_CREATION) {
      Setting given = setting(s);
      if (given != null) {
        properties.put(s.key(), given.value().strip());
      }
    }
    Map<String, String> given =
        options instanceof CaseInsensitiveStringMap m ? m.asCaseSensitiveMap() : options;
    given.forEach(
        (key, value) -> {
          String k = key.toLowerCase(Locale.ROOT);
          if (k.equals(SparkSetting.PUSHDOWN.key())) {
            // Checked now: recorded as the table's property, a bad value would fail every read.
            new Setting(k, value, "option " + key).asBoolean();
            properties.put(key, value.strip());
          } else if (isColumnDevice(k) || k.equals(TableProperties.SORTED_BY)) {
            properties.put(key, value.strip());
          }
        });
    return properties;
  }

  private static boolean isColumnDevice(String key) {
    return key.startsWith(TableProperties.COLUMN_DEVICE_PREFIX) && key.endsWith(".device");
  }

  /**
   * Row-group size and default device are fixed when a table is created: a write option asking for
   * another value than the existing table's property cannot be honoured, so it is refused.
   */
  void checkWriteToExisting(String root) {
    for (SparkSetting s : FIXED_AT_CREATION) {
      String name = s.key();
      String wanted = options.get(name);
      if (wanted != null && !wanted.strip().equals(tableProperties.get(name))) {
        throw MosaicException.invalid(
            "option "
                + name
                + " = '"
                + wanted
                + "' does not match table property "
                + name
                + (tableProperties.containsKey(name)
                    ? " = '" + tableProperties.get(name) + "'"
                    : " (not set)")
                + " of the existing table "
                + root
                + ": it is fixed when a table is created; drop the option to write with the"
                + " table's setting, or write to a new table");
      }
    }
  }

  // ---- the catalog

  /** A catalog's settings, from its options {@code spark.sql.catalog.<name>.*}. */
  static CatalogConf catalog(String name, Map<String, String> options) {
    String devices = options.get(SparkSetting.CATALOG_DEVICES.key());
    String dir = options.get(SparkSetting.WAREHOUSE.key());
    if (devices == null || dir == null) {
      throw new IllegalArgumentException(
          "catalog "
              + name
              + " needs spark.sql.catalog."
              + name
              + ".devices (the pool's"
              + " devices.toml) and spark.sql.catalog."
              + name
              + ".warehouse (a directory, or a URI such as hdfs://nn:8020/mosaic/warehouse)");
    }
    return new CatalogConf(devices, dir, hadoopSettings());
  }

  /**
   * The Mosaic settings among a CREATE TABLE's properties: TBLPROPERTIES ('row_group_rows' = ...)
   * and the options of DataFrameWriterV2, which Spark passes as {@code option.<name>}. Spark's own
   * properties (provider, owner, ...) are not Mosaic's.
   */
  static Map<String, String> createTableOptions(Map<String, String> properties) {
    Map<String, String> settings = new LinkedHashMap<>();
    properties.forEach(
        (key, value) -> {
          String k = key.startsWith("option.") ? key.substring("option.".length()) : key;
          if (k.equals(SparkSetting.ROW_GROUP_ROWS.key())
              || k.equals(SparkSetting.DEFAULT_DEVICE.key())
              || k.equals(SparkSetting.PUSHDOWN.key())
              || k.equals(TableProperties.SORTED_BY)
              || isColumnDevice(k)) {
            settings.put(k, value);
          }
        });
    return settings;
  }

  // ---- executors

  /** This JVM's executor settings: the executor's (or, in local mode, the application's) conf. */
  static ExecutorSettings executor() {
    SparkEnv env = SparkEnv.get();
    return executor(env == null ? new SparkConf(false) : env.conf());
  }

  /**
   * What an executor's retriever is sized by, from the application conf only: each executor JVM
   * builds its retriever on its first Mosaic read and keeps it, so a session conf set later could
   * not resize it.
   */
  static ExecutorSettings executor(SparkConf conf) {
    int threads = Runtime.getRuntime().availableProcessors();
    String threadsKey = SparkSetting.DECODE_THREADS.confKey();
    if (conf.contains(threadsKey)) {
      String value = conf.get(threadsKey);
      try {
        threads = Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        threads = 0;
      }
      if (threads < 1) {
        throw new IllegalArgumentException(
            threadsKey + " = '" + value + "': give a whole number of threads, at least 1");
      }
    }
    long vectors =
        size(
            conf,
            SparkSetting.VECTOR_POOL_MEMORY,
            Retriever.DEFAULT_POOLED_VECTOR_BYTES,
            0,
            "give a size such as 256m or 1g (a bare number is bytes; 0 keeps none)");
    long shared =
        size(
            conf,
            SparkSetting.SHARED_BUFFER_MEMORY,
            defaultSharedBufferBytes(),
            1,
            "give a size above 0 such as 256m or 1g (a bare number is bytes)");
    return new ExecutorSettings(threads, vectors, shared);
  }

  /** A size in Spark's own syntax (as spark.executor.memory): 512m, 1g; a bare number is bytes. */
  private static long size(SparkConf conf, SparkSetting s, long fallback, long least, String fix) {
    String key = s.confKey();
    if (!conf.contains(key)) {
      return fallback;
    }
    long bytes;
    try {
      bytes = conf.getSizeAsBytes(key);
    } catch (NumberFormatException e) {
      bytes = -1;
    }
    if (bytes < least) {
      throw new IllegalArgumentException(key + " = '" + conf.get(key) + "': " + fix);
    }
    return bytes;
  }

  /**
   * The shared scan buffer's chunks are on the heap, and reads share it by default (relevance): a
   * small executor (Spark's default 1g) gives it an eighth of its heap rather than 256 MB.
   */
  static long defaultSharedBufferBytes() {
    return Math.min(Retriever.DEFAULT_SHARED_BUFFER_BYTES, Runtime.getRuntime().maxMemory() / 8);
  }
}
