package io.mosaic.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseError;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlTable;

/**
 * The device model file, {@code device-model.toml}: one {@code [[model]]} table per device, in the
 * form of the paper's Figure 3d plus the raw throughput and measured compression ratios.
 */
public final class DeviceModelFile {
  private DeviceModelFile() {}

  /** Writes the models atomically (temporary file, then rename), so readers never see half. */
  public static void write(Path file, List<DeviceModel> models, String header) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (String line : header.split("\n")) {
      sb.append("# ").append(line).append('\n');
    }
    sb.append("# Throughput per codec is effective: decompressed bytes delivered per second.\n");
    for (DeviceModel m : models) {
      sb.append("\n[[model]]\n");
      sb.append("device_id = \"").append(m.deviceId()).append("\"\n");
      sb.append("threads = ").append(m.threads()).append('\n');
      sb.append("raw = \"").append(mbps(m.raw())).append("\"\n");
      sb.append("seek = \"").append(String.format(Locale.ROOT, "%.3f ms", m.seek().nanos() / 1e6));
      sb.append("\"\n");
      for (Codec codec : Codec.values()) {
        DeviceModel.CodecModel c = m.codecs().get(codec);
        if (c != null) {
          sb.append(codec.configName()).append(" = \"").append(mbps(c.effective())).append("\"\n");
          sb.append(codec.configName()).append("_ratio = ");
          sb.append(String.format(Locale.ROOT, "%.3f", c.ratio())).append('\n');
        }
      }
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    Files.writeString(tmp, sb);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static String mbps(Bandwidth b) {
    return String.format(Locale.ROOT, "%.1f MB/s", b.megabytesPerSecond());
  }

  /** Reads a model file; a damaged one is a {@link DeviceConfigException} naming line and field. */
  public static Map<String, DeviceModel> read(Path file) throws IOException {
    if (!Files.exists(file)) {
      throw new DeviceConfigException(
          List.of(
              new ConfigProblem(
                  file,
                  0,
                  null,
                  null,
                  "no device model yet; calibrate the devices to measure them (docs/configuration.md)")));
    }
    TomlParseResult toml =
        Toml.parse(
            new String(
                MetadataFiles.read(file, MetadataFiles.CONFIG_LIMIT, "device model file"),
                java.nio.charset.StandardCharsets.UTF_8));
    List<ConfigProblem> problems = new ArrayList<>();
    for (TomlParseError e : toml.errors()) {
      problems.add(
          new ConfigProblem(
              file, e.position().line(), null, null, "not valid TOML: " + e.getMessage()));
    }
    Map<String, DeviceModel> models = new LinkedHashMap<>();
    TomlArray array = toml.hasErrors() ? null : toml.getArray("model");
    if (array != null && DeviceConfigParser.allTables(array)) {
      for (int i = 0; i < array.size(); i++) {
        TomlTable t = array.getTable(i);
        int line = array.inputPositionOf(i).line();
        String id = t.getString("device_id");
        try {
          Map<Codec, DeviceModel.CodecModel> codecs = new EnumMap<>(Codec.class);
          for (Codec c : Codec.values()) {
            if (t.contains(c.configName())) {
              codecs.put(
                  c,
                  new DeviceModel.CodecModel(
                      Bandwidth.parse(t.getString(c.configName())),
                      t.getDouble(c.configName() + "_ratio")));
            }
          }
          models.put(
              id,
              new DeviceModel(
                  id,
                  Math.toIntExact(t.getLong("threads")),
                  Bandwidth.parse(t.getString("raw")),
                  Latency.parse(t.getString("seek")),
                  codecs));
        } catch (RuntimeException e) {
          problems.add(
              new ConfigProblem(
                  file,
                  line,
                  id,
                  null,
                  "damaged model entry ("
                      + (e.getMessage() != null ? e.getMessage() : e.toString())
                      + "); delete the file and calibrate the devices again (docs/configuration.md)"));
        }
      }
    } else if (!toml.hasErrors()) {
      problems.add(
          new ConfigProblem(
              file,
              0,
              null,
              null,
              "no [[model]] tables; calibrate the devices to measure them (docs/configuration.md)"));
    }
    if (!problems.isEmpty()) {
      throw new DeviceConfigException(problems);
    }
    return models;
  }
}
