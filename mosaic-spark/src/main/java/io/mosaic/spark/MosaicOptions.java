package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.table.MosaicTable;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Where a table lives and which pool serves it. Every Mosaic setting resolves in one order
 * (docs/spark.md): the read/write option, then the session configuration {@code
 * spark.mosaic.<name>}, then the table property of the same name recorded in the manifest.
 */
record MosaicOptions(String root, String devices) implements Serializable {
  private static final Map<String, DevicePool> POOLS = new ConcurrentHashMap<>();

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

  static MosaicOptions resolve(Map<String, String> options) {
    String path = options.get("path");
    if (path == null) {
      throw MosaicException.invalid(
          "no table location: use .load(\"/path/to/table\") or .save(\"/path/to/table\")");
    }
    Path root = Path.of(path);
    Setting devices = setting(SparkSetting.DEVICES.key(), options, tableProperties(root));
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
    return new MosaicOptions(path, devices.value());
  }

  /**
   * Setting {@code name}: the option, else the session conf {@code spark.mosaic.<name>}, else the
   * table property; null if none is set.
   */
  static Setting setting(
      String name, Map<String, String> options, Map<String, String> tableProperties) {
    String value = options.get(name);
    if (value != null) {
      return new Setting(name, value, "option " + name);
    }
    value = sessionConf(name);
    if (value != null) {
      return new Setting(name, value, "session conf " + SparkSetting.CONF_PREFIX + name);
    }
    value = tableProperties.get(name);
    return value == null ? null : new Setting(name, value, "table property " + name);
  }

  static String sessionConf(String name) {
    SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
    return session == null ? null : session.conf().get(SparkSetting.CONF_PREFIX + name, null);
  }

  /**
   * The properties of the table at {@code root}, or none if there is no table yet. Reading the
   * manifest needs no pool: the pool is what the properties may name.
   */
  static Map<String, String> tableProperties(Path root) {
    return MosaicTable.exists(root) ? MosaicTable.open(root, null).latest().properties() : Map.of();
  }

  /**
   * The properties a new table is created with: its pool's devices.toml (so a later read needs no
   * option), and {@code row_group_rows} and {@code default_device} from the options or the session
   * conf; {@code pushdown} and {@code column.<name>.device} only when given explicitly.
   */
  Map<String, String> creationProperties(Map<String, String> options) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(
        SparkSetting.DEVICES.key(), Path.of(devices).toAbsolutePath().normalize().toString());
    for (String name :
        new String[] {SparkSetting.ROW_GROUP_ROWS.key(), SparkSetting.DEFAULT_DEVICE.key()}) {
      Setting s = setting(name, options, Map.of());
      if (s != null) {
        properties.put(name, s.value().strip());
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
          } else if (k.startsWith(TableProperties.COLUMN_DEVICE_PREFIX) && k.endsWith(".device")) {
            properties.put(key, value.strip());
          }
        });
    return properties;
  }

  /**
   * Row-group size and default device are fixed when a table is created: a write option asking for
   * another value than the existing table's property cannot be honoured, so it is refused.
   */
  static void checkWriteOptions(Path root, Map<String, String> options, Map<String, String> props) {
    for (String name :
        new String[] {SparkSetting.ROW_GROUP_ROWS.key(), SparkSetting.DEFAULT_DEVICE.key()}) {
      String wanted = options.get(name);
      if (wanted != null && !wanted.strip().equals(props.get(name))) {
        throw MosaicException.invalid(
            "option "
                + name
                + " = '"
                + wanted
                + "' does not match table property "
                + name
                + (props.containsKey(name) ? " = '" + props.get(name) + "'" : " (not set)")
                + " of the existing table "
                + root
                + ": it is fixed when a table is created; drop the option to write with the"
                + " table's setting, or write to a new table");
      }
    }
  }

  /** The pool, loaded once per JVM (drivers and executors each keep theirs). */
  DevicePool pool() {
    return POOLS.computeIfAbsent(devices, d -> DevicePool.load(Path.of(d)));
  }

  Path rootPath() {
    return Path.of(root);
  }
}
