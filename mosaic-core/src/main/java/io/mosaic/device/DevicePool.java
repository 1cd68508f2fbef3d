package io.mosaic.device;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.config.ConfigProblem;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceConfigParser;
import io.mosaic.config.DeviceMarker;
import io.mosaic.config.DeviceSpec;
import io.mosaic.storage.LocalStorage;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageOpener;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;

/**
 * The installed, tierless pool of devices read from {@code devices.toml}: no device is fast or slow
 * by name, only its numbers matter (paper Section 3.1).
 */
public final class DevicePool {
  /** Name of the device model file (paper Figure 3d), kept on the metadata device. */
  static final String MODEL_FILE = "device-model.toml";

  private final Path configFile;
  private final StorageOpener storages;
  private final Map<String, Device> devices = new LinkedHashMap<>();
  private final Device metadata;

  private DevicePool(Path configFile, List<DeviceSpec> specs, StorageOpener storages) {
    this.configFile = configFile;
    this.storages = storages;
    for (DeviceSpec configured : specs) {
      Storage storage = open(configFile, configured, storages);
      DeviceMarker.Identity identity = mark(configFile, configured, storage);
      DeviceSpec spec = configured.local() ? configured : prepare(configFile, configured, storage);
      Device device = new Device(spec, configFile, storage);
      device.setIdentity(identity);
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
  private static DeviceMarker.Identity mark(Path configFile, DeviceSpec spec, Storage storage) {
    DeviceMarker.Identity identity;
    try {
      identity = DeviceMarker.ensure(storage, spec.id());
    } catch (IOException | RuntimeException e) {
      String reach =
          spec.local()
              ? ""
              : unreachable(e)
                  ? "; cannot reach "
                      + spec.location()
                      + ": check that the NameNode runs and that the uri's host and port are its"
                      + " RPC address (fs.defaultFS of the cluster)"
                  : "; check the uri and that this user may write there";
      throw problem(
          configFile,
          spec,
          spec.local() ? "path" : "uri",
          "cannot write or read the device marker "
              + DeviceMarker.where(storage)
              + " ("
              + firstLine(e)
              + ")"
              + reach);
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
                      + (spec.local() ? spec.path() : spec.location())
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

  /**
   * The storage of a device's folder: a local directory, or the opener's storage of its URI.
   * Opening the Hadoop one does not contact the NameNode; marking the device does ({@link #mark}).
   */
  private static Storage open(Path configFile, DeviceSpec spec, StorageOpener storages) {
    if (spec.local()) {
      return new LocalStorage(spec.path());
    }
    try {
      return storages.open(spec.location(), spec.storageClass());
    } catch (IOException | RuntimeException e) {
      throw problem(
          configFile,
          spec,
          "uri",
          "cannot open "
              + spec.location()
              + ": "
              + firstLine(e)
              + (e instanceof MosaicException
                  ? ""
                  : "; check the uri and the Hadoop configuration (core-site.xml,"
                      + " hdfs-site.xml)"));
    }
  }

  /**
   * Readies the folder of a device on a remote storage, marked already (so it exists): sets its
   * storage policy, which the files written there inherit, and takes its capacity, the smaller of
   * the configured one and the storage's quota where both are given (docs/configuration.md,
   * "Devices on HDFS").
   */
  private static DeviceSpec prepare(Path configFile, DeviceSpec spec, Storage storage) {
    if (spec.storagePolicy().isPresent()) {
      String policy = spec.storagePolicy().get();
      Function<String, DeviceConfigException> bad =
          why ->
              problem(configFile, spec, "storage_policy", "bad value \"" + policy + "\": " + why);
      if (!storage.capabilities().placement()) {
        throw bad.apply(
            spec.location()
                + " has no storage policies; remove storage_policy, or put the device on HDFS");
      }
      if (StoragePolicies.types(policy).isEmpty()) {
        throw bad.apply(
            "HDFS has no such storage policy; use one of "
                + StoragePolicies.KNOWN
                + " (hdfs storagepolicies -listPolicies)");
      }
      try {
        storage.setPlacement("", policy);
      } catch (IOException | RuntimeException e) {
        throw problem(
            configFile,
            spec,
            "storage_policy",
            "cannot set storage policy "
                + policy
                + " on "
                + spec.location()
                + " ("
                + firstLine(e)
                + "); check that the cluster has the policy and that this user may set it");
      }
    }
    Optional<Long> quota;
    try {
      quota = storage.quota("");
    } catch (IOException e) {
      throw problem(
          configFile,
          spec,
          "capacity",
          "cannot read the quota of " + spec.location() + " (" + e.getMessage() + ")");
    }
    ByteSize configured = spec.capacity();
    if (quota.isEmpty()) {
      if (configured == null) {
        throw problem(
            configFile,
            spec,
            "capacity",
            "missing, and "
                + spec.location()
                + " has no quota to take it from; set capacity = \"60 GB\", or a quota on the"
                + " folder (hdfs dfsadmin -setSpaceQuota)");
      }
      return spec;
    }
    if (quota.get() <= 0) {
      throw new DeviceFullException(
          "device '"
              + spec.id()
              + "' ("
              + spec.location()
              + ") has a quota of 0 bytes; raise the folder's quota (hdfs dfsadmin -setSpaceQuota)"
              + " or remove the device from "
              + configFile);
    }
    ByteSize fromQuota = ByteSize.ofBytes(quota.get());
    return configured != null && configured.bytes() <= fromQuota.bytes()
        ? spec
        : spec.withCapacity(fromQuota);
  }

  /** The exception's kind and the first line of its message (Hadoop's run on for lines). */
  private static String firstLine(Exception e) {
    return (e instanceof MosaicException ? "" : e.getClass().getSimpleName() + ": ")
        + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  private static boolean unreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException
          || t instanceof UnknownHostException
          || t instanceof NoRouteToHostException
          || t instanceof SocketTimeoutException) {
        return true;
      }
    }
    return false;
  }

  private static DeviceConfigException problem(
      Path configFile, DeviceSpec spec, String field, String message) {
    return new DeviceConfigException(
        List.of(new ConfigProblem(configFile, 0, spec.id(), field, message)));
  }

  /** Reads and validates {@code devices.toml}; throws {@link DeviceConfigException} if wrong. */
  public static DevicePool load(Path configFile) {
    return load(configFile, (Configuration) null);
  }

  /**
   * As {@link #load(Path)}, with the Hadoop configuration that devices on Hadoop file systems
   * (HDFS, S3 through S3A) are opened with; null for the default one (core-site.xml, hdfs-site.xml
   * on the class path). Engines pass their own.
   */
  public static DevicePool load(Path configFile, Configuration hadoop) {
    return load(configFile, StorageOpener.hadoop(hadoop));
  }

  /**
   * As {@link #load(Path)}, with the devices on non-local URIs opened by {@code storages}: an
   * engine's own file system (docs/format.md, "Storage backends").
   */
  public static DevicePool load(Path configFile, StorageOpener storages) {
    return new DevicePool(configFile, DeviceConfigParser.parsePool(configFile), storages);
  }

  /**
   * What the pool's non-local storages were opened with; tables whose metadata is on a non-local
   * URI open it with the same ({@link io.mosaic.table.MosaicTable}, {@link
   * io.mosaic.warehouse.Warehouse}).
   */
  public StorageOpener storages() {
    return storages;
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
