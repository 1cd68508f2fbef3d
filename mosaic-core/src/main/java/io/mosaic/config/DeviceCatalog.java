package io.mosaic.config;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Devices one could buy, for budget mode. Three catalogues ship with Mosaic: {@code table1} (the
 * paper's evaluation devices), {@code ebs} (AWS volume types) and {@code csd} (a cold storage
 * device, Skipper's figures); any other name is a file in the catalogue format (see
 * docs/configuration.md). Catalogues combine with commas: {@code table1,csd} offers the devices of
 * both.
 */
public final class DeviceCatalog {
  public static final List<String> BUILT_IN = List.of("table1", "ebs", "csd");

  private DeviceCatalog() {}

  public static List<CatalogDevice> load(String nameOrPath) {
    if (nameOrPath.contains(",") && !Files.exists(Path.of(nameOrPath))) {
      List<CatalogDevice> all = new ArrayList<>();
      Map<String, String> from = new HashMap<>();
      for (String part : nameOrPath.split(",", -1)) {
        if (part.isBlank()) {
          throw MosaicException.invalid(
              "catalogue list '"
                  + nameOrPath
                  + "' has an empty name; separate names with single commas, like table1,csd");
        }
        for (CatalogDevice d : loadOne(part.trim())) {
          String before = from.putIfAbsent(d.id(), part.trim());
          if (before != null) {
            throw MosaicException.invalid(
                "device '"
                    + d.id()
                    + "' is in both catalogues "
                    + before
                    + " and "
                    + part.trim()
                    + "; combine catalogues whose ids differ");
          }
          all.add(d);
        }
      }
      return all;
    }
    return loadOne(nameOrPath);
  }

  private static List<CatalogDevice> loadOne(String nameOrPath) {
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
