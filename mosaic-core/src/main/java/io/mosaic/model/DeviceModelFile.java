package io.mosaic.model;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.config.ConfigProblem;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceConfigParser;
import io.mosaic.config.Latency;
import io.mosaic.config.MetadataFiles;
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
import java.util.Optional;
import org.tomlj.Toml;
import org.tomlj.TomlArray;
import org.tomlj.TomlParseError;
import org.tomlj.TomlParseResult;
import org.tomlj.TomlTable;

/**
 * The device model file, {@code device-model.toml}: one {@code [[model]]} table per device, in the
 * form of the paper's Figure 3d plus the raw throughput and measured compression ratios, and an
 * optional {@code [cpu]} table ({@link CpuModel}; files written before it read without one).
 */
public final class DeviceModelFile {
  private DeviceModelFile() {}

  /** Writes the models atomically (temporary file, then rename), so readers never see half. */
  public static void write(Path file, List<DeviceModel> models, String header) throws IOException {
    write(file, models, null, header);
  }

  /** As {@link #write(Path, List, String)}, with the host's {@code cpu} model unless null. */
  public static void write(Path file, List<DeviceModel> models, CpuModel cpu, String header)
      throws IOException {
    StringBuilder sb = new StringBuilder();
    for (String line : header.split("\n")) {
      sb.append("# ").append(line).append('\n');
    }
    sb.append("# Throughput per codec is effective: decompressed bytes delivered per second.\n");
    if (cpu != null) {
      sb.append(
          "\n# Decoding per core (uncompressed bytes per second), cores a scan gets, and the\n");
      sb.append("# fixed cost of one scan: Mosaic's extension of Eq. 3 (docs/cost-model.md).\n");
      sb.append("[cpu]\n");
      sb.append("cores = ").append(String.format(Locale.ROOT, "%.3f", cpu.cores())).append('\n');
      sb.append("scan_fixed = \"")
          .append(String.format(Locale.ROOT, "%.3f ms", cpu.scanFixed().nanos() / 1e6))
          .append("\"\n");
      for (Codec codec : Codec.values()) {
        Bandwidth rate = cpu.decode().get(codec);
        if (rate != null) {
          sb.append(codec.configName()).append(" = \"").append(mbps(rate)).append("\"\n");
        }
      }
      if (!cpu.byKind().isEmpty()) {
        sb.append(
            "# By kind of value: fixed-width columns per byte; strings and binaries per byte\n");
        sb.append(
            "# plus nanoseconds per value (docs/cost-model.md, \"Decoding by kind of value\").\n");
      }
      for (Codec codec : Codec.values()) {
        CpuModel.Decoding kind = cpu.byKind().get(codec);
        if (kind != null) {
          String name = codec.configName();
          sb.append(name)
              .append("_fixed_width = \"")
              .append(mbps(kind.fixedWidth()))
              .append("\"\n");
          sb.append(name).append("_variable_width = \"");
          sb.append(mbps(kind.variableBytes())).append("\"\n");
          sb.append(name).append("_variable_value_ns = ");
          sb.append(String.format(Locale.ROOT, "%.3f", kind.variableValueNanos())).append('\n');
        }
      }
    }
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

  /**
   * The file's {@code [cpu]} table, empty if it has none (written before Mosaic modelled the CPU,
   * or by a calibration of some devices only); a damaged one is a {@link DeviceConfigException}.
   */
  public static Optional<CpuModel> readCpu(Path file) throws IOException {
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    TomlParseResult toml = parse(file);
    if (toml.hasErrors()) {
      read(file); // names the syntax errors
    }
    TomlTable t = toml.getTable("cpu");
    if (t == null) {
      return Optional.empty();
    }
    try {
      Map<Codec, Bandwidth> decode = new EnumMap<>(Codec.class);
      Map<Codec, CpuModel.Decoding> byKind = new EnumMap<>(Codec.class);
      for (Codec c : Codec.values()) {
        String name = c.configName();
        if (t.contains(name)) {
          decode.put(c, Bandwidth.parse(t.getString(name)));
        }
        if (t.contains(name + "_fixed_width")) {
          byKind.put(
              c,
              new CpuModel.Decoding(
                  Bandwidth.parse(t.getString(name + "_fixed_width")),
                  Bandwidth.parse(t.getString(name + "_variable_width")),
                  t.getDouble(name + "_variable_value_ns")));
        }
      }
      return Optional.of(
          new CpuModel(
              t.getDouble("cores"), Latency.parse(t.getString("scan_fixed")), decode, byKind));
    } catch (RuntimeException e) {
      throw new DeviceConfigException(
          List.of(
              new ConfigProblem(
                  file,
                  toml.inputPositionOf("cpu") == null ? 0 : toml.inputPositionOf("cpu").line(),
                  null,
                  null,
                  "damaged [cpu] table ("
                      + (e.getMessage() != null ? e.getMessage() : e.toString())
                      + "); delete the file and calibrate the devices again"
                      + " (docs/configuration.md)")));
    }
  }

  private static TomlParseResult parse(Path file) throws IOException {
    return Toml.parse(
        new String(
            MetadataFiles.read(file, MetadataFiles.CONFIG_LIMIT, "device model file"),
            java.nio.charset.StandardCharsets.UTF_8));
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
    TomlParseResult toml = parse(file);
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
