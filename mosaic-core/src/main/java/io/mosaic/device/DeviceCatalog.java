package io.mosaic.device;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Devices one could buy, for budget mode. Two catalogues ship with Mosaic: {@code table1} (the
 * paper's evaluation devices) and {@code ebs} (AWS volume types); any other name is a file in the
 * catalogue format (see docs/configuration.md).
 */
public final class DeviceCatalog {
  public static final List<String> BUILT_IN = List.of("table1", "ebs");

  private DeviceCatalog() {}

  public static List<CatalogDevice> load(String nameOrPath) {
    if (BUILT_IN.contains(nameOrPath)) {
      String resource = "catalog/" + nameOrPath + ".toml";
      try (InputStream in = DeviceCatalog.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("built-in catalogue missing from the jar: " + resource);
        }
        return DeviceConfigParser.parseCatalog(
            "built-in catalogue " + nameOrPath,
            new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path file = Path.of(nameOrPath);
    if (!Files.exists(file)) {
      throw MosaicException.notFound(
          "no catalogue '"
              + nameOrPath
              + "': not a file, and not a built-in one ("
              + String.join(", ", BUILT_IN)
              + ")");
    }
    return DeviceConfigParser.parseCatalog(file);
  }
}
