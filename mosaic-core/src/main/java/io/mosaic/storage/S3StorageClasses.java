package io.mosaic.storage;

import java.util.List;

/**
 * The S3 storage classes by whether a GET reads their objects at once: what devices.toml allows a
 * device (docs/distributed-storage.md, "Devices on S3") and what a refused read names.
 */
public final class S3StorageClasses {
  /**
   * S3 storage classes whose objects a GET reads at once; a device may use them. EXPRESS_ONEZONE
   * only in a directory bucket of its own.
   */
  public static final List<String> READABLE =
      List.of(
          "STANDARD",
          "STANDARD_IA",
          "ONEZONE_IA",
          "INTELLIGENT_TIERING",
          "GLACIER_IR",
          "REDUCED_REDUNDANCY",
          "EXPRESS_ONEZONE");

  /** S3 storage classes whose objects must be restored before a GET, which a device cannot use. */
  public static final List<String> ARCHIVE = List.of("GLACIER", "DEEP_ARCHIVE");

  private S3StorageClasses() {}
}
