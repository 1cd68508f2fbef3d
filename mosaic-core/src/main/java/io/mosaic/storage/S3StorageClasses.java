package io.mosaic.storage;

import io.mosaic.MosaicException;
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

  /**
   * Whether {@code e} is S3's refusal to GET an object in an archive class (403
   * InvalidObjectState), which S3A reports as access denied and Trino's S3 file system as a failed
   * read: the credentials are fine, the object needs a restore.
   */
  public static boolean isArchivedRead(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("InvalidObjectState")) {
        return true;
      }
    }
    return false;
  }

  /** The error of a read of {@code where} refused as {@link #isArchivedRead}. */
  public static MosaicException archivedRead(String where, Throwable e) {
    return new MosaicException(
        MosaicException.Kind.IO,
        where
            + " is in an archive storage class ("
            + String.join(" or ", ARCHIVE)
            + "), which S3 reads only after a restore ("
            + e.getMessage()
            + "); restore it (aws s3api restore-object), and remove the lifecycle rule that"
            + " moves the device's objects there: a device keeps its objects in one of "
            + String.join(", ", READABLE)
            + ", e.g. GLACIER_IR for cold data read in milliseconds",
        e);
  }

  private S3StorageClasses() {}
}
