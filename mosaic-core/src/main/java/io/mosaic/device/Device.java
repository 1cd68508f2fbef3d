package io.mosaic.device;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.config.ColdSpec;
import io.mosaic.config.ConfigProblem;
import io.mosaic.config.DeviceConfigException;
import io.mosaic.config.DeviceMarker;
import io.mosaic.config.DeviceSpec;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A device of the installed pool at run time: its spec and its I/O path (reads throttled if
 * emulated), on the {@link Storage} that holds its folder (a local directory, or an HDFS
 * directory). Files are named by keys relative to the device's folder; the {@link Path} methods
 * remain for local devices.
 */
public final class Device {
  private static final String SEGMENT_SUFFIX = ".parquet";

  private final DeviceSpec spec;
  private final Path configFile;
  private final Storage storage;
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

  Device(DeviceSpec spec, Path configFile, Storage storage) {
    this.spec = spec;
    this.configFile = configFile;
    this.storage = storage;
    this.throttle =
        spec.cold()
            .map(DeviceThrottle::cold)
            .or(() -> spec.emulation().map(DeviceThrottle::new))
            .orElse(null);
  }

  void setIdentity(DeviceMarker.Identity identity) {
    this.identity = identity;
    Object dir = spec.location();
    if (spec.local()) {
      try {
        dir = spec.path().toRealPath();
      } catch (IOException e) {
        dir = spec.path().toAbsolutePath().normalize();
      }
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
      now = DeviceMarker.read(storage);
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
                  spec.local() ? "path" : "uri",
                  "directory \""
                      + where()
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

  /** The device's local directory; refused for a device elsewhere ({@link DeviceSpec#path()}). */
  public Path root() {
    return spec.path();
  }

  /** Where the device's folder is: a {@code file:} URI or the storage's, like {@code hdfs:}. */
  public URI location() {
    return spec.location();
  }

  /** The storage holding the device's folder; key {@code ""} is the folder. */
  public Storage storage() {
    return storage;
  }

  /** The device's folder for messages: a local path, else the URI. */
  private String where() {
    return spec.local() ? spec.path().toString() : spec.location().toString();
  }

  /**
   * How messages name the file at {@code key} of this device: its local path (as before storages),
   * else its URI, such as {@code hdfs://nn:8020/mosaic/fast/<table id>/0/w-0.parquet}.
   */
  public String where(String key) {
    StorageKeys.check(key);
    return spec.local()
        ? spec.path().resolve(key).toString()
        : storage.root().resolve(key).toString();
  }

  /**
   * Whether the device's folder is still there; errors about a missing file say when the whole
   * device is gone (an unmounted disk, a removed HDFS directory).
   */
  public boolean present() {
    if (spec.local()) {
      return Files.isDirectory(spec.path());
    }
    try {
      return storage.stat("").map(Storage.FileStatus::folder).orElse(false);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The key of a local file of this device, relative to its directory; refuses a file elsewhere.
   */
  public String key(Path file) {
    Path root = spec.path();
    Path normal = file.toAbsolutePath().normalize();
    if (!normal.startsWith(root) || normal.equals(root)) {
      throw MosaicException.invalid(
          "file " + file + " is not on device '" + spec.id() + "' (" + root + ")");
    }
    StringBuilder key = new StringBuilder();
    for (Path part : root.relativize(normal)) {
      key.append(key.isEmpty() ? "" : "/").append(part);
    }
    return key.toString();
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
    Path normal = file.toAbsolutePath().normalize();
    Path root = spec.path().toAbsolutePath().normalize();
    if (normal.startsWith(root) && !normal.equals(root)) {
      return groupOf(key(file));
    }
    StringBuilder name = new StringBuilder();
    for (Path part : normal) {
      name.append(name.isEmpty() ? "" : "/").append(part);
    }
    return groupOf(name.toString());
  }

  /** The disk group of the file at {@code key} of this cold device ({@link ColdSpec#groupOf}). */
  public int groupOf(String key) {
    ColdSpec cold =
        spec.cold()
            .orElseThrow(
                () ->
                    MosaicException.invalid(
                        "device '" + spec.id() + "' is not cold: it has no disk groups"));
    return cold.groupOf(key);
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

  /** Opens a local file of this device for reading through the device's I/O path. */
  public DeviceReadChannel openForRead(Path file) throws IOException {
    return openForRead(key(file));
  }

  /** Opens the file at {@code key} of this device for reading through the device's I/O path. */
  public DeviceReadChannel openForRead(String key) throws IOException {
    // Local only: a stat per open would be a NameNode call per read on HDFS, whose missing files
    // fail the open anyway.
    if (spec.local() && !Files.isDirectory(spec.path())) {
      throw new NoSuchFileException(
          spec.path().toString(),
          null,
          "directory of device '" + spec.id() + "' is gone; remount it or fix devices.toml");
    }
    return new DeviceReadChannel(storage.open(key), key, throttle, cold() ? groupOf(key) : -1);
  }

  /**
   * Opens the file at {@code key}, whose length the caller knows (a manifest records a segment's),
   * through the device's I/O path: an object store then asks for no metadata before the first read
   * ({@link Storage#open(String, long)}).
   */
  public DeviceReadChannel openForRead(String key, long length) throws IOException {
    if (spec.local()) {
      return openForRead(key);
    }
    return new DeviceReadChannel(
        storage.open(key, length), key, throttle, cold() ? groupOf(key) : -1);
  }

  /** Creates a new local file on this device; writes count against its capacity. */
  public DeviceOutputStream openForWrite(Path file) throws IOException {
    return openForWrite(key(file));
  }

  /** Creates a new file at {@code key} on this device; writes count against its capacity. */
  public DeviceOutputStream openForWrite(String key) throws IOException {
    if (spec.local()) {
      Path file = spec.path().resolve(key);
      Files.createDirectories(file.getParent());
      checkOnDevice(file.getParent());
    }
    try {
      return new DeviceOutputStream(this, key, storage.create(key));
    } catch (IOException e) {
      throw full(key, e);
    }
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
  void reserve(long bytes, String key) throws DeviceFullException {
    synchronized (usage) {
      reserveLocked(bytes, key);
    }
  }

  private void reserveLocked(long bytes, String key) throws DeviceFullException {
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
              + StorageKeys.name(key)
              + " needs more; free space (collect garbage, docs/format.md), move columns off it, or raise its capacity"
              + " in devices.toml");
    }
    usage.used += bytes;
  }

  /**
   * {@code e}, a failed write of {@code key}, as the {@link DeviceFullException} it is when the
   * storage ran out of space or quota (thrown), else {@code e} itself (returned, for the caller to
   * throw).
   */
  IOException full(String key, IOException e) {
    String message = String.valueOf(e.getMessage());
    String lower = message.toLowerCase(Locale.ROOT);
    if (lower.contains("no space left")) {
      throw new DeviceFullException(
          "the file system under device '"
              + spec.id()
              + "' ("
              + where()
              + ") is full while writing "
              + key
              + "; free space there or move data off the device",
          e);
    }
    // HDFS: DSQuotaExceededException, QuotaByStorageTypeExceededException; and no DataNode with
    // room for a new block ("could only be written to 0 of the 1 minReplication nodes").
    if (lower.contains("quota") && lower.contains("exceeded")
        || lower.contains("could only be written to 0")) {
      throw new DeviceFullException(
          "device '"
              + spec.id()
              + "' ("
              + where()
              + ") has no "
              + (lower.contains("quota") ? "quota" : "space on its DataNodes")
              + " left while writing "
              + key
              + " ("
              + message.lines().findFirst().orElse("")
              + "); free space (collect garbage, docs/format.md), move columns off it, or "
              + (spec.local()
                  ? "raise the quota of the file system's user"
                  : "raise the folder's quota (hdfs dfsadmin -setSpaceQuota, -storageType for a"
                      + " storage type) or add DataNodes of its storage type"),
          e);
    }
    return e;
  }

  /**
   * Checks that every replica of every block of the new file {@code key} lies on a storage type the
   * device's storage policy asks for; refuses and deletes the file otherwise. HDFS places a block
   * on another type when the ones its policy wants are full or missing, so a file can silently land
   * off its device (docs/configuration.md, "Devices on HDFS").
   */
  void checkPlacement(String key) throws IOException {
    if (spec.storagePolicy().isEmpty() || !storage.capabilities().placement()) {
      return;
    }
    String policy = spec.storagePolicy().get();
    Set<String> wanted = StoragePolicies.types(policy).orElse(Set.of());
    List<List<String>> blocks = storage.blockStorageTypes(key);
    int misplaced = 0;
    Set<String> found = new TreeSet<>();
    for (List<String> replicas : blocks) {
      if (!wanted.containsAll(replicas)) {
        misplaced++;
        found.addAll(replicas);
      }
    }
    if (misplaced == 0) {
      return;
    }
    long length = storage.stat(key).map(Storage.FileStatus::length).orElse(0L);
    storage.delete(key);
    release(length);
    found.removeAll(wanted);
    throw new DeviceFullException(
        "file "
            + key
            + " written to device '"
            + spec.id()
            + "' ("
            + where()
            + ", storage_policy "
            + policy
            + ") has "
            + misplaced
            + " of "
            + blocks.size()
            + " blocks with replicas on "
            + String.join(", ", found)
            + ", not only on "
            + String.join(", ", new TreeSet<>(wanted))
            + ": HDFS falls back to other storage types when the ones a policy asks for are full"
            + " or missing on the DataNodes. The file was deleted; add or free "
            + String.join("/", new TreeSet<>(wanted))
            + " space on the cluster, or move columns off this device");
  }

  /**
   * Whether {@code key} is a folder of this device; on a local device a link is none, so a table
   * folder that is a link out of the device is never taken for the table's (docs/format.md,
   * "Devices, owners and what gc refuses").
   */
  public boolean isFolder(String key) throws IOException {
    if (spec.local()) {
      return Files.isDirectory(
          spec.path().resolve(StorageKeys.check(key)), LinkOption.NOFOLLOW_LINKS);
    }
    return storage.stat(key).map(Storage.FileStatus::folder).orElse(false);
  }

  /**
   * Every file under the folder {@code key} of this device, at any depth, with its size and time;
   * on a local device links are neither followed nor listed.
   */
  public List<Storage.FileStatus> files(String key) throws IOException {
    List<Storage.FileStatus> found = new ArrayList<>();
    if (spec.local()) {
      Path dir = spec.path().resolve(StorageKeys.check(key));
      // A walk that meets a file or folder deleted meanwhile (another gc, a drop) skips it, where
      // Files.walk would fail the whole listing.
      Files.walkFileTree(
          dir,
          new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path f, BasicFileAttributes a) {
              if (a.isRegularFile()) {
                found.add(
                    new Storage.FileStatus(
                        key(f),
                        f.getFileName().toString(),
                        false,
                        a.size(),
                        a.lastModifiedTime().toMillis()));
              }
              return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path f, IOException e)
                throws IOException {
              return skipVanished(e);
            }

            @Override
            public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e)
                throws IOException {
              return e == null ? java.nio.file.FileVisitResult.CONTINUE : skipVanished(e);
            }

            private java.nio.file.FileVisitResult skipVanished(IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return java.nio.file.FileVisitResult.CONTINUE;
              }
              throw e;
            }
          });
      return found;
    }
    for (Storage.FileStatus s : storage.list(key)) {
      if (s.folder()) {
        found.addAll(files(s.key()));
      } else {
        found.add(s);
      }
    }
    return found;
  }

  /**
   * Whether {@code key} may be deleted as a file strictly inside this device's folder {@code
   * folder}: not a folder, and on a local device inside it once links are followed (the folder not
   * a link elsewhere, nor any folder between). A file that is not there passes.
   */
  public boolean plainFileIn(String folder, String key) {
    try {
      if (!spec.local()) {
        return !storage.stat(key).map(Storage.FileStatus::folder).orElse(false);
      }
      Path rootReal = spec.path().toRealPath();
      Path dirReal = spec.path().resolve(StorageKeys.check(folder)).toRealPath();
      if (!dirReal.equals(rootReal.resolve(folder))) {
        return false;
      }
      Path file = spec.path().resolve(StorageKeys.check(key));
      Path parentReal = file.getParent().toRealPath();
      return parentReal.startsWith(dirReal)
          && !Files.isDirectory(
              parentReal.resolve(file.getFileName().toString()), LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return false; // gone, or not resolvable: nothing to delete
    }
  }

  /** Forgets {@code bytes} of Mosaic data deleted from this device; returns them. */
  public long release(long bytes) {
    synchronized (usage) {
      if (usage.used >= 0) {
        usage.used = Math.max(0, usage.used - bytes);
      }
    }
    return bytes;
  }

  /**
   * Deletes the folder {@code key} of this device and everything under it, never following links,
   * and releases the bytes of the segment files ({@code .parquet}) deleted from the device's
   * accounting; returns them. A folder that is not there deletes nothing.
   */
  public long deleteTree(String key) throws IOException {
    StorageKeys.check(key);
    if (spec.local()) {
      return release(deleteLocalTree(spec.path().resolve(key)));
    }
    Optional<Storage.FileStatus> status = storage.stat(key);
    if (status.isEmpty()) {
      return 0;
    }
    long freed = 0;
    if (status.get().folder()) {
      for (Storage.FileStatus child : storage.list(key)) {
        freed += child.folder() ? deleteTree(child.key()) : deleteFile(child);
      }
      storage.delete(key);
    } else {
      freed += deleteFile(status.get());
    }
    return freed;
  }

  // Files.walk does not follow links, so a link in a table's folder loses only itself.
  private static long deleteLocalTree(Path dir) throws IOException {
    long bytes = 0;
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
            && p.getFileName().toString().endsWith(SEGMENT_SUFFIX)) {
          bytes += Files.size(p);
        }
        Files.delete(p);
      }
    } catch (NoSuchFileException e) {
      // already gone
    }
    return bytes;
  }

  private long deleteFile(Storage.FileStatus file) throws IOException {
    if (!storage.delete(file.key())) {
      return 0;
    }
    return file.name().endsWith(SEGMENT_SUFFIX) ? release(file.length()) : 0;
  }

  /**
   * Deletes the file at {@code key} of this device, if there, and releases its bytes from the
   * device's accounting; returns them, or -1 when no file was there.
   */
  public long deleteFile(String key) throws IOException {
    Optional<Storage.FileStatus> status = storage.stat(key);
    if (status.isEmpty() || !storage.delete(key)) {
      return -1;
    }
    return release(status.get().length());
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
        + where()
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
    if (!spec.local()) {
      try {
        return measureUsed("");
      } catch (IOException e) {
        return 0;
      }
    }
    try (var files = Files.walk(spec.path())) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
    }
  }

  private long measureUsed(String folder) throws IOException {
    long sum = 0;
    for (Storage.FileStatus status : storage.list(folder)) {
      sum += status.folder() ? measureUsed(status.key()) : status.length();
    }
    return sum;
  }

  /**
   * Bytes the file system under this device still has free (the configured capacity aside); a
   * remote storage's limit is its quota, which the capacity already takes (DevicePool).
   */
  long usableBytes() throws IOException {
    if (!spec.local()) {
      return Long.MAX_VALUE;
    }
    FileStore store = Files.getFileStore(spec.path());
    return store.getUsableSpace();
  }

  @Override
  public String toString() {
    return spec.id() + " (" + where() + ")";
  }
}
