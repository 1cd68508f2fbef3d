package io.mosaic.device;

import io.mosaic.MosaicException;
import io.mosaic.config.ConfigProblem;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceConfigParser;
import io.mosaic.config.DeviceMarker;
import io.mosaic.config.DeviceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The installed, tierless pool of devices read from {@code devices.toml}: no device is fast or slow
 * by name, only its numbers matter (paper Section 3.1).
 */
public final class DevicePool {
  /** Name of the device model file (paper Figure 3d), kept on the metadata device. */
  static final String MODEL_FILE = "device-model.toml";

  private final Path configFile;
  private final Map<String, Device> devices = new LinkedHashMap<>();
  private final Device metadata;

  private DevicePool(Path configFile, List<DeviceSpec> specs) {
    this.configFile = configFile;
    for (DeviceSpec spec : specs) {
      Device device = new Device(spec, configFile);
      device.setIdentity(mark(configFile, spec));
      devices.put(spec.id(), device);
    }
    // Without an explicit metadata = true, the first device listed holds the metadata.
    this.metadata =
        devices.values().stream()
            .filter(d -> d.spec().metadata())
            .findFirst()
            .orElse(devices.values().iterator().next());
  }

  /**
   * Writes the {@link DeviceMarker} of a device used for the first time, or reads the one there
   * (checked against the id by the parser; checked again here against a concurrent first use).
   */
  private static DeviceMarker.Identity mark(Path configFile, DeviceSpec spec) {
    DeviceMarker.Identity identity;
    try {
      identity = DeviceMarker.ensure(spec.path(), spec.id());
    } catch (IOException e) {
      throw new DeviceConfigException(
          List.of(
              new ConfigProblem(
                  configFile,
                  0,
                  spec.id(),
                  "path",
                  "cannot write or read the device marker "
                      + DeviceMarker.file(spec.path())
                      + " ("
                      + e.getMessage()
                      + ")")));
    }
    if (!identity.id().equals(spec.id())) {
      throw new DeviceConfigException(
          List.of(
              new ConfigProblem(
                  configFile,
                  0,
                  spec.id(),
                  "id",
                  "directory \""
                      + spec.path()
                      + "\" is device '"
                      + identity.id()
                      + "' (its marker records "
                      + identity
                      + "); set id = \""
                      + identity.id()
                      + "\" again")));
    }
    return identity;
  }

  /** Reads and validates {@code devices.toml}; throws {@link DeviceConfigException} if wrong. */
  public static DevicePool load(Path configFile) {
    return new DevicePool(configFile, DeviceConfigParser.parsePool(configFile));
  }

  public Path configFile() {
    return configFile;
  }

  public List<Device> devices() {
    return List.copyOf(devices.values());
  }

  public Device device(String id) {
    Device device = devices.get(id);
    if (device == null) {
      throw MosaicException.notFound(
          "unknown device '"
              + id
              + "'; "
              + configFile
              + " defines: "
              + String.join(", ", devices.keySet()));
    }
    return device;
  }

  public Device metadataDevice() {
    return metadata;
  }

  /** Where calibration writes, and the cost model reads, the device model. */
  public Path modelFile() {
    return metadata.root().resolve(MODEL_FILE);
  }
}
