package io.mosaic.config;

import io.mosaic.MosaicException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One {@code [[device]]} entry of {@code devices.toml} (paper Figure 3a): a folder on a storage (a
 * local mount point, or an HDFS directory) with its capacity, reader thread limit, codec and price.
 *
 * @param location the device's folder: a {@code file:} URI for a local directory ({@code path} in
 *     {@code devices.toml}), else the storage's URI, like {@code hdfs://nn:8020/mosaic/fast}
 * @param capacity as configured; for a device on a storage with quotas, the pool gives the smaller
 *     of this and the quota (docs/configuration.md, "Devices on HDFS"), and null before that when
 *     only the quota limits the device
 * @param seek the device's seek time as configured; calibration measures it too
 * @param metadata whether table metadata (manifests, traces, the device model) lives here
 * @param emulation present when the directory emulates a slower device
 * @param cold present for a cold storage device (disk groups, one spun up at a time); its directory
 *     is emulated by the cold table, never by {@code emulation}
 * @param storagePolicy the placement policy of the device's folder (an HDFS storage policy, like
 *     {@code ALL_SSD}), set when the pool is loaded; only on a storage with placement
 * @param storageClass the S3 storage class of the objects Mosaic writes on the device ({@code
 *     STANDARD_IA}, ...; docs/distributed-storage.md, "Devices on S3"); only on S3
 * @param link the path to the host the device shares with other devices ({@code link = "..."}
 *     naming a {@code [[link]]} table), whose rate the cost model charges a scan's reads from all
 *     of them together (docs/cost-model.md, "Shared links")
 */
public record DeviceSpec(
    String id,
    String name,
    URI location,
    ByteSize capacity,
    int threads,
    Codec codec,
    Cost costPerGb,
    Latency seek,
    boolean metadata,
    Optional<Emulation> emulation,
    Optional<ColdSpec> cold,
    Optional<String> storagePolicy,
    Optional<String> storageClass,
    Optional<Link> link) {

  /** A device with no storage class and its own path to the host (no shared {@link Link}). */
  public DeviceSpec(
      String id,
      String name,
      URI location,
      ByteSize capacity,
      int threads,
      Codec codec,
      Cost costPerGb,
      Latency seek,
      boolean metadata,
      Optional<Emulation> emulation,
      Optional<ColdSpec> cold,
      Optional<String> storagePolicy) {
    this(
        id,
        name,
        location,
        capacity,
        threads,
        codec,
        costPerGb,
        seek,
        metadata,
        emulation,
        cold,
        storagePolicy,
        Optional.empty(),
        Optional.empty());
  }

  /** A device on a local directory. */
  public DeviceSpec(
      String id,
      String name,
      Path path,
      ByteSize capacity,
      int threads,
      Codec codec,
      Cost costPerGb,
      Latency seek,
      boolean metadata,
      Optional<Emulation> emulation,
      Optional<ColdSpec> cold) {
    this(
        id,
        name,
        localUri(path),
        capacity,
        threads,
        codec,
        costPerGb,
        seek,
        metadata,
        emulation,
        cold,
        Optional.empty());
  }

  /** A warm device on a local directory: every device but a cold one. */
  public DeviceSpec(
      String id,
      String name,
      Path path,
      ByteSize capacity,
      int threads,
      Codec codec,
      Cost costPerGb,
      Latency seek,
      boolean metadata,
      Optional<Emulation> emulation) {
    this(
        id,
        name,
        path,
        capacity,
        threads,
        codec,
        costPerGb,
        seek,
        metadata,
        emulation,
        Optional.empty());
  }

  /**
   * The {@code file:} URI of a local directory, absolute and normalized, without the trailing
   * {@code /} that {@link Path#toUri} adds only when the directory exists, so a spec does not
   * depend on whether its directory was there yet.
   */
  public static URI localUri(Path path) {
    String uri = path.toAbsolutePath().normalize().toUri().toString();
    return URI.create(
        uri.endsWith("/") && !uri.endsWith(":///") ? uri.substring(0, uri.length() - 1) : uri);
  }

  /** Whether the device is a local directory ({@code file:}), which {@link #path()} names. */
  public boolean local() {
    return "file".equalsIgnoreCase(location.getScheme());
  }

  /**
   * The local directory of the device. A device elsewhere (HDFS) has none: code that still works on
   * {@link Path}s cannot use it, and is refused here rather than handed a local path that merely
   * looks like the remote one.
   */
  public Path path() {
    if (!local()) {
      throw MosaicException.unsupported(
          "device '"
              + id
              + "' is on "
              + location
              + ", not a local directory; this operation still needs a local path (use the"
              + " device's storage and keys instead, docs/configuration.md, \"Devices on HDFS\")");
    }
    return Path.of(location);
  }

  /** This spec with {@code capacity} instead of the configured one. */
  public DeviceSpec withCapacity(ByteSize capacity) {
    return new DeviceSpec(
        id,
        name,
        location,
        capacity,
        threads,
        codec,
        costPerGb,
        seek,
        metadata,
        emulation,
        cold,
        storagePolicy,
        storageClass,
        link);
  }
}
