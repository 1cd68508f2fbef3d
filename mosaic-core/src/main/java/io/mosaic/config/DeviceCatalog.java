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
 * Devices one could buy, for budget mode. Four catalogues ship with Mosaic: {@code table1} (the
 * paper's evaluation devices), {@code ebs} (AWS volume types, the thesis's Table 2.4), {@code csd}
 * (a cold storage device, Skipper's figures) and {@code aws} (S3 storage classes, EBS volumes and
 * instance NVMe at published prices per month, docs/cost-model.md); any other name is a file in the
 * catalogue format (see docs/configuration.md). Catalogues combine with commas: {@code table1,csd}
 * offers the devices of both, if all are priced alike (once, or per month).
 */
public final class DeviceCatalog {
  public static final List<String> BUILT_IN = List.of("table1", "ebs", "csd", "aws");

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
      checkBilling(nameOrPath, all);
      return all;
    }
    List<CatalogDevice> one = loadOne(nameOrPath);
    checkBilling(nameOrPath, one);
    return one;
  }

  /**
   * A budget is one amount: money once (the paper's Eq. 5) or money per month, so a catalogue's
   * devices must all be priced the one way or all the other.
   */
  private static void checkBilling(String nameOrPath, List<CatalogDevice> devices) {
    CatalogDevice monthly = null;
    CatalogDevice once = null;
    for (CatalogDevice d : devices) {
      if (d.monthly() && monthly == null) {
        monthly = d;
      } else if (!d.monthly() && once == null) {
        once = d;
      }
    }
    if (monthly != null && once != null) {
      throw MosaicException.invalid(
          "catalogue "
              + nameOrPath
              + " prices device '"
              + monthly.id()
              + "' per GB-month (cost_per_gb_month) but device '"
              + once.id()
              + "' per GB once (cost_per_gb); a budget is either money once or money per month:"
              + " combine catalogues priced alike");
    }
  }

  /** Whether the devices are priced per month (all are, or none: {@link #load} checks it). */
  public static boolean monthly(List<CatalogDevice> devices) {
    return !devices.isEmpty() && devices.get(0).monthly();
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
