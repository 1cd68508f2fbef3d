package io.mosaic.device;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.ConfigProblem;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceMarker;
import io.mosaic.config.DeviceSpec;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A device of the installed pool at run time: its spec and its read path (throttled if emulated).
 */
public final class Device {
  private final DeviceSpec spec;
  private final Path configFile;
  // Final after setIdentity: a cold device's throttle is then the one its directory has in this
  // JVM.
  private DeviceThrottle throttle;
  private DeviceMarker.Identity identity;
  private Usage usage = new Usage();

  /**
   * The bytes of Mosaic data on one device directory, as measured once and booked since (-1: not
   * measured yet). Every pool of this JVM that loads the directory shares one, so a table written
   * through one pool (a Trino worker's connector) and dropped through another (the coordinator's)
   * leaves the count where it was; separate counts would drift by each other's writes.
   */
  private static final class Usage {
    long used = -1;
  }

  // Guarded by itself. Weak, so a directory no live pool uses is measured again when loaded.
  private static final Map<String, WeakReference<Usage>> USAGE = new HashMap<>();

  // An emulated cold device's throttle per directory (and emulation), shared by every pool of this
  // JVM that loads it, as Usage is: a cold device has one active disk group, so two pools of one
  // JVM (the coordinator's and a worker's connector of an in-process Trino) reading its directory
  // must see the same group and timeline, not one private device each. Guarded by itself.
  private static final Map<String, WeakReference<DeviceThrottle>> COLD = new HashMap<>();

  Device(DeviceSpec spec, Path configFile) {
    this.spec = spec;
    this.configFile = configFile;
    this.throttle =
        spec.cold()
            .map(DeviceThrottle::cold)
            .or(() -> spec.emulation().map(DeviceThrottle::new))
            .orElse(null);
  }

  void setIdentity(DeviceMarker.Identity identity) {
    this.identity = identity;
    Path dir;
    try {
      dir = spec.path().toRealPath();
    } catch (IOException e) {
      dir = spec.path().toAbsolutePath().normalize();
    }
    // The marker's uuid and the real path: a cp'd copy of a device directory has the same uuid.
    String key = identity.uuid() + "\0" + dir;
    synchronized (USAGE) {
      WeakReference<Usage> ref = USAGE.get(key);
      Usage shared = ref == null ? null : ref.get();
      if (shared == null) {
        shared = new Usage();
        USAGE.put(key, new WeakReference<>(shared));
      }
      this.usage = shared;
      if (spec.cold().isPresent()) {
        ColdSpec c = spec.cold().get();
        String coldKey = key + "\0" + c.groups() + "\0" + c.switchLatency() + "\0" + c.groupRead();
        WeakReference<DeviceThrottle> t = COLD.get(coldKey);
        DeviceThrottle same = t == null ? null : t.get();
        if (same == null) {
          COLD.put(coldKey, new WeakReference<>(throttle));
        } else {
          throttle = same;
        }
      }
    }
  }

  /** The identity this device's directory had when the pool was loaded ({@link DeviceMarker}). */
  public DeviceMarker.Identity identity() {
    return identity;
  }

  /**
   * Checks that the device's directory is still the one the pool loaded: its marker must record the
   * same id and UUID. gc calls this before deleting anything on the device, so a directory that was
   * unmounted, replaced or renamed meanwhile is never taken for this device.
   */
  public void checkIdentity() {
    DeviceMarker.Identity now;
    String problem;
    try {
      now = DeviceMarker.read(spec.path());
      problem = now == null ? "it has no device marker any more" : "its marker records " + now;
    } catch (IOException e) {
      now = null;
      problem = "its marker cannot be read (" + e.getMessage() + ")";
    }
    if (now == null || !now.equals(identity)) {
      throw new DeviceConfigException(
          List.of(
              new ConfigProblem(
                  configFile,
                  0,
                  spec.id(),
                  "path",
                  "directory \""
                      + spec.path()
                      + "\" is not the directory loaded as this device ("
                      + identity
                      + "): "
                      + problem
                      + ". Was it unmounted, replaced or renamed? Nothing was deleted there; check"
                      + " the mount and devices.toml, then load the pool again")));
    }
  }

  public DeviceSpec spec() {
    return spec;
  }

  public String id() {
    return spec.id();
  }

  public Path root() {
    return spec.path();
  }

  public boolean emulated() {
    return throttle != null;
  }

  /** Whether this is a cold storage device (disk groups, one spun up at a time). */
  public boolean cold() {
    return spec.cold().isPresent();
  }

  /**
   * The disk group of a file of this cold device ({@link ColdSpec#groupOf}: by its path relative to
   * the device's directory).
   */
  public int groupOf(Path file) {
    ColdSpec cold =
        spec.cold()
            .orElseThrow(
                () ->
                    MosaicException.invalid(
                        "device '" + spec.id() + "' is not cold: it has no disk groups"));
    Path normal = file.toAbsolutePath().normalize();
    Path root = spec.path().toAbsolutePath().normalize();
    Path relative = normal.startsWith(root) ? root.relativize(normal) : normal;
    StringBuilder name = new StringBuilder();
    for (Path part : relative) {
      name.append(name.isEmpty() ? "" : "/").append(part);
    }
    return cold.groupOf(name.toString());
  }

  /**
   * Group switches of this cold device since its directory was first loaded by a live pool of this
   * JVM (every pool loading it shares its emulation), the first spin-up included (0 unless cold);
   * for tests and metrics.
   */
  public long groupSwitches() {
    return throttle == null ? 0 : throttle.switches();
  }

  /** Resolves a path relative to the device root, refusing paths that would leave it. */
  public Path resolve(String relative) {
    Path resolved = spec.path().resolve(relative).normalize();
    if (!resolved.startsWith(spec.path())) {
      throw MosaicException.invalid(
          "path '" + relative + "' escapes device '" + spec.id() + "' (" + spec.path() + ")");
    }
    return resolved;
  }

  /** Opens a file on this device for reading through the device's I/O path. */
  public DeviceReadChannel openForRead(Path file) throws IOException {
    if (!Files.isDirectory(spec.path())) {
      throw new NoSuchFileException(
          spec.path().toString(),
          null,
          "directory of device '" + spec.id() + "' is gone; remount it or fix devices.toml");
    }
    return new DeviceReadChannel(file, throttle, cold() ? groupOf(file) : -1);
  }

  /** Creates a new file on this device; writes count against its capacity. */
  public DeviceOutputStream openForWrite(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    checkOnDevice(file.getParent());
    return new DeviceOutputStream(this, file);
  }

  /**
   * Refuses a folder of this device that a symbolic link takes elsewhere: its files would be
   * written to another disk while they count as this device's (placement and capacity would be
   * wrong, and the device's I/O emulation would not pace them). Only the device's own folder may be
   * a link; the folders in it must be real.
   */
  void checkOnDevice(Path dir) throws IOException {
    Path root = spec.path().toRealPath();
    Path real = dir.toRealPath();
    if (!real.startsWith(root)) {
      throw MosaicException.invalid(
          "folder "
              + dir
              + " of device '"
              + spec.id()
              + "' is a link to "
              + real
              + ", outside the device's folder "
              + root
              + "; replace the link by a real folder in "
              + spec.path()
              + " (move its files there), or add that disk to devices.toml as a device of its own");
    }
  }

  /**
   * Books {@code bytes} more of Mosaic data on this device, or refuses with a clear error when that
   * would exceed the configured capacity. The first call measures what is already there.
   */
  void reserve(long bytes, Path file) throws DeviceFullException {
    synchronized (usage) {
      reserveLocked(bytes, file);
    }
  }

  private void reserveLocked(long bytes, Path file) throws DeviceFullException {
    if (usage.used < 0) {
      usage.used = measureUsed();
    }
    long capacity = spec.capacity().bytes();
    if (usage.used + bytes > capacity) {
      throw new DeviceFullException(
          "device '"
              + spec.id()
              + "' is full: capacity "
              + spec.capacity()
              + ", "
              + usedDescription(usage.used)
              + ", writing "
              + file.getFileName()
              + " needs more; free space (collect garbage, docs/format.md), move columns off it, or raise its capacity"
              + " in devices.toml");
    }
    usage.used += bytes;
  }

  /** Forgets {@code bytes} of Mosaic data deleted from this device. */
  public void release(long bytes) {
    synchronized (usage) {
      if (usage.used >= 0) {
        usage.used = Math.max(0, usage.used - bytes);
      }
    }
  }

  /** Bytes Mosaic may still write here: within the capacity and what the file system has free. */
  public long freeBytes() throws IOException {
    return Math.min(spec.capacity().bytes() - usedBytes(), usableBytes());
  }

  /**
   * What {@link #usedBytes} counts, in words for an error: every file under the device's folder
   * counts against its capacity, Mosaic's or not, so a file someone else put there is no "Mosaic
   * data".
   */
  public String usedDescription() {
    return usedDescription(usedBytes());
  }

  private String usedDescription(long used) {
    return "files under "
        + spec.path()
        + " take "
        + ByteSize.ofBytes(used)
        + " (all files there count, not only Mosaic's)";
  }

  /** Bytes of Mosaic data on this device, as last measured and booked since. */
  public long usedBytes() {
    synchronized (usage) {
      if (usage.used < 0) {
        usage.used = measureUsed();
      }
      return usage.used;
    }
  }

  private long measureUsed() {
    try (var files = Files.walk(spec.path())) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
    }
  }

  /** Bytes the file system under this device still has free (the configured capacity aside). */
  long usableBytes() throws IOException {
    FileStore store = Files.getFileStore(spec.path());
    return store.getUsableSpace();
  }

  @Override
  public String toString() {
    return spec.id() + " (" + spec.path() + ")";
  }
}
