package io.mosaic.trino.storage;

import io.mosaic.MosaicException;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageOpener;
import io.trino.filesystem.Location;
import io.trino.filesystem.TrinoFileSystem;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A catalog's storages: {@code s3://} (and {@code s3a://}, {@code s3n://}, as Trino's own catalogs
 * map them) through the catalog's Trino S3 file system as {@link TrinoStorage}s, every other scheme
 * through {@code fallback}, Hadoop's (docs/format.md, "Storage backends").
 *
 * <p>Trino's S3 file system writes every object in the one class of the catalog ({@code
 * s3.storage-class}), so a device asking for another class is refused, naming the fix; Hadoop's S3A
 * writes a class per device.
 */
public final class TrinoStorageOpener implements StorageOpener {
  private static final Set<String> SCHEMES = Set.of("s3", "s3a", "s3n");

  private final TrinoFileSystem fs;
  private final String storageClass;
  private final String endpoint;
  private final StorageOpener fallback;
  // One storage per root: opening one writes and deletes a probe object (TrinoStorage#open).
  private final Map<URI, Storage> shared = new ConcurrentHashMap<>();

  /**
   * @param fs the catalog's file system, for the identity Mosaic acts as
   * @param storageClass the class the file system writes objects in ({@code s3.storage-class})
   * @param endpoint where the file system sends requests ({@code s3.endpoint}), for messages
   */
  public TrinoStorageOpener(
      TrinoFileSystem fs, String storageClass, String endpoint, StorageOpener fallback) {
    this.fs = fs;
    this.storageClass = storageClass;
    this.endpoint = endpoint;
    this.fallback = fallback;
  }

  /** Whether {@code uri} goes through the Trino file system. */
  public static boolean serves(URI uri) {
    return uri.getScheme() != null && SCHEMES.contains(uri.getScheme());
  }

  @Override
  public Storage open(URI uri, Optional<String> deviceClass) throws IOException {
    if (!serves(uri)) {
      return fallback.open(uri, deviceClass);
    }
    if (deviceClass.isPresent() && !deviceClass.get().equalsIgnoreCase(storageClass)) {
      throw MosaicException.invalid(
          "storage_class \""
              + deviceClass.get()
              + "\" of "
              + uri
              + " is not the catalog's: Trino's S3 file system writes every object in"
              + " s3.storage-class ("
              + storageClass
              + "); set s3.storage-class="
              + deviceClass.get()
              + " in the catalog properties, remove storage_class from the device, or set"
              + " fs.native-s3.enabled=false so S3A writes each device's class");
    }
    return openS3(uri);
  }

  @Override
  public Storage shared(URI uri) throws IOException {
    if (!serves(uri)) {
      return fallback.shared(uri);
    }
    Storage storage = shared.get(uri);
    if (storage == null) {
      // Two racing callers may each probe; the map keeps one (a TrinoStorage holds no resource).
      Storage opened = openS3(uri);
      storage = shared.putIfAbsent(uri, opened);
      storage = storage == null ? opened : storage;
    }
    return storage;
  }

  private Storage openS3(URI uri) throws IOException {
    if (uri.getAuthority() == null || uri.getPath() == null || !uri.getPath().startsWith("/")) {
      throw MosaicException.invalid(
          "storage URI '"
              + uri
              + "' names no bucket or no absolute folder; write s3://bucket/folder, e.g."
              + " s3://warehouse/mosaic/fast");
    }
    try {
      return TrinoStorage.open(fs, Location.of(uri.toString()));
    } catch (IOException | RuntimeException e) {
      throw explain(uri, e);
    }
  }

  /**
   * The failures of a first request that a person fixes in the catalog properties or at the server,
   * as {@code HadoopStorage} names S3A's: a missing bucket, refused credentials, an unreachable
   * endpoint.
   */
  private RuntimeException explain(URI uri, Exception e) {
    if (e instanceof MosaicException m) {
      return m;
    }
    String bucket = uri.getAuthority();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof S3Exception s3) {
        String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
        if ("NoSuchBucket".equals(code) || s3.statusCode() == 404) {
          return new MosaicException(
              MosaicException.Kind.NOT_FOUND,
              "bucket '"
                  + bucket
                  + "' of "
                  + uri
                  + " does not exist at the S3 endpoint (s3.endpoint "
                  + endpoint
                  + "); create the bucket, or fix the bucket in the URI or s3.endpoint in the"
                  + " catalog properties",
              e);
        }
        if (s3.statusCode() == 403) {
          return new MosaicException(
              MosaicException.Kind.IO,
              "S3 refused access to "
                  + uri
                  + " ("
                  + code
                  + "); check s3.aws-access-key and s3.aws-secret-key (or s3.iam-role) in the"
                  + " catalog properties and that they may read and write bucket '"
                  + bucket
                  + "'",
              e);
        }
      }
      if (t instanceof ConnectException
          || t instanceof NoRouteToHostException
          || t instanceof SocketTimeoutException
          || t instanceof UnknownHostException
          || (t instanceof SdkClientException && t.getCause() == null)) {
        return new MosaicException(
            MosaicException.Kind.IO,
            "the S3 endpoint of "
                + uri
                + " ("
                + endpoint
                + ") is unreachable ("
                + t.getClass().getSimpleName()
                + "); check s3.endpoint and s3.region in the catalog properties, that the S3"
                + " server there runs, and that this host reaches it (s3.max-error-retries and"
                + " s3.socket-connect-timeout set how long Mosaic waits)",
            e);
      }
    }
    return new MosaicException(
        MosaicException.Kind.IO,
        "cannot write the probe object under "
            + uri
            + " through Trino's S3 file system ("
            + e.getClass().getSimpleName()
            + ": "
            + String.valueOf(e.getMessage()).lines().findFirst().orElse("")
            + "); check the uri and the catalog's s3.* properties",
        e);
  }
}
