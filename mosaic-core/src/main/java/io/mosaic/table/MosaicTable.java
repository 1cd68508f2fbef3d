package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageOpener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * A Mosaic table: a root directory (normally on the metadata device) holding versioned manifests,
 * reader pins and writer locks; its column data lives in segments on the pool's devices
 * (docs/format.md). Publishing a version is atomic and create-if-absent, so concurrent commits
 * never lose each other's data: the loser rebases onto the winner and retries.
 */
public final class MosaicTable {
  public static final String MANIFESTS = "_manifests";
  public static final String PINS = "_pins";
  public static final String WRITERS = "_writers";

  static final long DEFAULT_ROW_GROUP_ROWS = 1 << 20;

  /** Where gc moves old manifests it cannot read, instead of deleting them. */
  public static final String DAMAGED = "_damaged";

  private final Path root; // null on a storage without POSIX locks
  private final String location;
  private final DevicePool pool;
  // Segment folders (table id, device id) this instance has checked it owns, for writes.
  private final Set<String> claimed = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final TableVersions manifests; // null on a storage without POSIX locks
  private final LockFreeVersions lockFree; // null on local files
  private final TableCommitter committer;

  private MosaicTable(Path root, DevicePool pool) {
    this.root = root;
    this.location = root.toString();
    this.pool = pool;
    this.manifests = new TableVersions(root);
    this.lockFree = null;
    this.committer = new TableCommitter(this, manifests);
  }

  private MosaicTable(VersionLog log, DevicePool pool) {
    this.root = null;
    String storageRoot = log.storage().root().toString().replaceAll("/+$", "");
    this.location = log.prefix().isEmpty() ? storageRoot : storageRoot + "/" + log.prefix();
    this.pool = pool;
    this.manifests = null;
    this.lockFree = new LockFreeVersions(log, location, nameOf(location));
    this.committer = new TableCommitter(this, null);
  }

  private static String nameOf(String location) {
    String trimmed =
        location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    return trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }

  /**
   * Whether {@code location} names a table on a storage other than local files: a URI with a scheme
   * other than {@code file} ({@code hdfs://nn:8020/warehouse/orders}).
   */
  public static boolean isRemote(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    return colon > 1
        && (slash < 0 || colon < slash)
        && !location.regionMatches(true, 0, "file:", 0, 5);
  }

  /** The local path a non-remote {@code location} names: a path, or a {@code file:} URI. */
  public static Path localPath(String location) {
    return location.regionMatches(true, 0, "file:", 0, 5)
        ? Path.of(URI.create(location).getPath())
        : Path.of(location);
  }

  /**
   * The table at {@code location}: a local path or {@code file:} URI (the local protocol), or a URI
   * of another storage, opened through the pool's storages (the lock-free protocol, docs/format.md
   * "Commits without POSIX locks").
   */
  public static MosaicTable open(String location, DevicePool pool) {
    return isRemote(location)
        ? open(logAt(location, pool, Retention.defaults()), pool)
        : open(localPath(location), pool);
  }

  /** Creates a table at {@code location} (see {@link #open(String, DevicePool)}). */
  public static MosaicTable create(
      String location, DevicePool pool, TableSchema schema, Map<String, String> properties) {
    return isRemote(location)
        ? create(logAt(location, pool, Retention.defaults()), pool, schema, properties)
        : create(localPath(location), pool, schema, properties);
  }

  /** Whether a table exists at {@code location} (see {@link #open(String, DevicePool)}). */
  public static boolean exists(String location, DevicePool pool) {
    if (!isRemote(location)) {
      return exists(localPath(location));
    }
    try {
      logAt(location, pool, Retention.defaults()).latest();
      return true;
    } catch (TableNotFoundException e) {
      return false;
    }
  }

  /**
   * The properties of the latest version of the table at {@code location}, or none when there is no
   * table there: what an engine reads before it knows the pool, which the properties may name. A
   * remote location is opened with {@code hadoop}, the engine's Hadoop settings (credentials of an
   * S3 location, docs/distributed-storage.md "Devices on S3"); {@code null} for Hadoop's defaults.
   */
  public static Optional<Map<String, String>> propertiesAt(
      String location, org.apache.hadoop.conf.Configuration hadoop) {
    if (!isRemote(location)) {
      return exists(localPath(location))
          ? Optional.of(open(localPath(location), null).latest().properties())
          : Optional.empty();
    }
    try {
      // open() finds the latest version, or fails with TableNotFoundException when there is none.
      VersionLog log = logAt(location, StorageOpener.hadoop(hadoop), Retention.defaults());
      return Optional.of(open(log, null).latest().properties());
    } catch (TableNotFoundException e) {
      return Optional.empty();
    }
  }

  /** The version log of the table at a non-local {@code location}. */
  static VersionLog logAt(String location, DevicePool pool, Retention retention) {
    return logAt(location, pool == null ? StorageOpener.hadoop(null) : pool.storages(), retention);
  }

  private static VersionLog logAt(String location, StorageOpener storages, Retention retention) {
    Storage storage;
    try {
      // Executors open a table per task: one storage per location and pool's settings.
      storage = storages.shared(URI.create(location));
    } catch (IllegalArgumentException e) {
      throw MosaicException.invalid(
          "table location '" + location + "' is no URI (" + e.getMessage() + ")");
    } catch (IOException e) {
      throw MosaicException.io("cannot open table location " + location, e);
    }
    return new VersionLog(storage, "", nameOf(location), retention, java.time.Clock.systemUTC());
  }

  /**
   * Opens the table kept by {@code log}, on any storage, with the lock-free protocol
   * (docs/format.md, "Commits without POSIX locks"); on local files this is for tests of the
   * protocol, tables there use the local one.
   */
  public static MosaicTable open(VersionLog log, DevicePool pool) {
    MosaicTable table = new MosaicTable(log, pool);
    try {
      log.latest();
    } catch (TableNotFoundException e) {
      throw new TableNotFoundException(
          "no Mosaic table at "
              + table.location
              + " (no version in "
              + VersionLog.MANIFESTS
              + "); check the location, or create the table first");
    }
    return table;
  }

  /** Creates a table kept by {@code log} (see {@link #open(VersionLog, DevicePool)}). */
  public static MosaicTable create(
      VersionLog log, DevicePool pool, TableSchema schema, Map<String, String> properties) {
    MosaicTable table = new MosaicTable(log, pool);
    checkProperties(pool, schema, properties, table.location);
    try {
      log.create(LockFreeVersions.encode(first(schema, properties)));
    } catch (TableConflictException e) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT, "a Mosaic table already exists at " + table.location);
    }
    return table;
  }

  private static Manifest first(TableSchema schema, Map<String, String> properties) {
    return new Manifest(
        UUID.randomUUID().toString(),
        1,
        "create",
        Instant.now(),
        schema,
        properties,
        List.of(),
        List.of(),
        new java.util.TreeMap<>());
  }

  /**
   * Whether a table exists at {@code root}: its {@code _manifests} directory holds a version (see
   * {@link TableVersions#exists}).
   */
  public static boolean exists(Path root) {
    return TableVersions.exists(root);
  }

  /**
   * Creates an empty table (version 1) and returns it; fails if one exists there already. A root
   * left by a creation that was interrupted before its first version was published is reused.
   */
  public static MosaicTable create(
      Path root, DevicePool pool, TableSchema schema, Map<String, String> properties) {
    Path abs = root.toAbsolutePath().normalize();
    if (exists(abs)) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT, "a Mosaic table already exists at " + abs);
    }
    if (Files.isDirectory(abs.resolve(MANIFESTS))) {
      new TableVersions(abs).removeStaleTemporaryManifests(); // an interrupted creation's
    }
    checkProperties(pool, schema, properties, abs.toString());
    MosaicTable table = new MosaicTable(abs, pool);
    try {
      Files.createDirectories(abs.resolve(MANIFESTS));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create table directory " + abs, e);
    }
    if (!table.manifests.publish(first(schema, properties))) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT, "a Mosaic table was created at " + abs + " concurrently");
    }
    return table;
  }

  /** Refuses properties of a new table that name no column, no codec, no device or no size. */
  private static void checkProperties(
      DevicePool pool, TableSchema schema, Map<String, String> properties, String where) {
    properties.forEach(
        (key, value) -> {
          if (key.startsWith(TableProperties.COLUMN_DEVICE_PREFIX)) {
            namedColumn(key, schema, where);
          }
          if (key.startsWith(TableProperties.COLUMN_DEVICE_PREFIX)
              && key.endsWith(TableProperties.COLUMN_CODEC_SUFFIX)) {
            codecProperty(key, value, where);
          } else if (key.equals(TableProperties.DEFAULT_DEVICE)
              || key.startsWith(TableProperties.COLUMN_DEVICE_PREFIX)) {
            pool.device(value);
          }
        });
    rowGroupRows(properties, where);
    String sortedBy = properties.get(TableProperties.SORTED_BY);
    if (sortedBy != null) {
      String problem = TableProperties.sortedByProblem(schema, sortedBy);
      if (problem != null) {
        throw MosaicException.invalid("table property of the new table " + where + ": " + problem);
      }
    }
  }

  /**
   * A per-column property ({@code column.<name>.device}, {@code column.<name>.codec}) of a new
   * table must name one of its columns: one that names none would be kept and silently do nothing.
   */
  private static void namedColumn(String key, TableSchema schema, String root) {
    int end = key.lastIndexOf('.');
    String column =
        end > TableProperties.COLUMN_DEVICE_PREFIX.length()
            ? key.substring(TableProperties.COLUMN_DEVICE_PREFIX.length(), end)
            : "";
    if (schema.columns().stream().noneMatch(c -> c.name().equals(column))) {
      throw MosaicException.invalid(
          "table property "
              + key
              + " of the new table "
              + root
              + " names no column of it; its columns: "
              + String.join(", ", schema.columns().stream().map(ColumnSpec::name).toList()));
    }
  }

  /** Opens an existing table, removing what crashed commits left behind. */
  public static MosaicTable open(Path root, DevicePool pool) {
    Path abs = root.toAbsolutePath().normalize();
    if (!exists(abs) && Files.isDirectory(abs.resolve(MANIFESTS))) {
      throw new TableNotFoundException(
          "the creation of table "
              + abs.getFileName()
              + " at "
              + abs
              + " was interrupted: its "
              + MANIFESTS
              + " directory holds no version (at most temporary files of the interrupted"
              + " command), so nothing was committed. Create the table again; the"
              + " directory is reused");
    }
    if (!exists(abs)) {
      throw new TableNotFoundException(
          "no Mosaic table at "
              + abs
              + " (no "
              + MANIFESTS
              + " directory); check the path, or create the table first");
    }
    MosaicTable table = new MosaicTable(abs, pool);
    table.manifests.removeStaleTemporaryManifests();
    return table;
  }

  /**
   * The table's root directory; only tables on local files have one ({@link #lockFree()} tables are
   * at a {@link #location()}).
   */
  public Path root() {
    if (root == null) {
      throw new UnsupportedOperationException(
          "table "
              + name()
              + " is on "
              + location
              + ", not in a local directory; this operation needs a local table root");
    }
    return root;
  }

  /** Where the table is: its root directory's path, or its URI on other storage. */
  public String location() {
    return location;
  }

  /**
   * Whether the table uses the lock-free protocol (docs/format.md, "Commits without POSIX locks").
   */
  public boolean lockFree() {
    return lockFree != null;
  }

  /** The version log of a {@link #lockFree()} table. */
  public VersionLog log() {
    if (lockFree == null) {
      throw new UnsupportedOperationException("table " + name() + " has no version log");
    }
    return lockFree.log();
  }

  public DevicePool pool() {
    return pool;
  }

  public String name() {
    return root != null ? root.getFileName().toString() : nameOf(location);
  }

  // ---- versions

  public List<Long> versions() {
    return lockFree != null ? lockFree.versions() : manifests.versions();
  }

  public Manifest latest() {
    return lockFree != null ? lockFree.latest() : manifests.latest();
  }

  public Manifest version(long version) {
    return lockFree != null ? lockFree.version(version) : manifests.version(version);
  }

  LockFreeVersions lockFreeVersions() {
    return lockFree;
  }

  /**
   * Deletes a directory tree (links themselves, never what they point to); returns the bytes of the
   * segment files in it, which writes booked against their device.
   */
  public static long deleteTree(Path dir) {
    long bytes = 0;
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)
            && p.getFileName().toString().endsWith(".parquet")) {
          bytes += Files.size(p);
        }
        Files.delete(p);
      }
    } catch (NoSuchFileException e) {
      // already gone
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
    }
    return bytes;
  }

  /**
   * The table id of the table at {@code root}, from its newest readable manifest; empty when none
   * can be read.
   */
  public static java.util.Optional<String> idOf(Path root) {
    return TableVersions.idOf(root);
  }

  /**
   * Makes sure this root owns the table's segment folder on {@code device} before writing there
   * (see {@link TableFolders}); checked once per instance and folder.
   */
  public void claimFolder(String tableId, Device device) {
    if (!claimed.contains(tableId + "\0" + device.id())) {
      TableFolders.claim(this, tableId, device);
      claimed.add(tableId + "\0" + device.id());
    }
  }

  /**
   * Publishes the content of version {@code to} as a new version: the way back from a damaged
   * newest manifest (see {@link TableCommitter#rollback}).
   */
  public Manifest rollback(long to) {
    return committer.rollback(to);
  }

  public Path manifestFile(long version) {
    return manifests.manifestFile(version);
  }

  /** Where version {@code version}'s manifest is (a path or a URI), for messages. */
  public String manifestLocation(long version) {
    return lockFree != null ? lockFree.where(version) : manifests.manifestFile(version).toString();
  }

  /** Pins the latest version: its files stay until the pin is closed. */
  public TablePin pin() {
    if (lockFree != null) {
      VersionLog.Version latest = lockFree.log().latest();
      return TablePin.byTime(lockFree.decode(latest), lockFree.log(), latest.readAtMillis());
    }
    while (true) {
      long version = latest().version();
      TablePin pin = TablePin.create(root.resolve(PINS), version, UUID.randomUUID().toString());
      try {
        // The version may have been retired between reading it and pinning it: then pin anew.
        return pin.withManifest(version(version));
      } catch (TableNotFoundException e) {
        pin.close();
      }
    }
  }

  /**
   * Pins a given version: an executor reading the version its driver planned, or a time-travel read
   * of an old one ({@link #asOf}). A version gc retired, or one never committed, is a NOT_FOUND
   * error naming the versions still readable ({@link #missingVersion}). On a lock-free table a
   * version a newer one superseded takes a reader lease before it is read, so gc keeps its files
   * from then on (docs/format.md, "Time travel").
   */
  public TablePin pin(long version) {
    if (lockFree != null) {
      VersionLog log = lockFree.log();
      if (!superseded(log, version)) {
        return new TablePin(readable(version), null);
      }
      Lease lease = log.pin(version);
      try {
        return TablePin.leased(readable(version), log, lease);
      } catch (RuntimeException e) {
        lease.close();
        throw e;
      }
    }
    TablePin pin = TablePin.create(root.resolve(PINS), version, UUID.randomUUID().toString());
    try {
      return pin.withManifest(readable(version));
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }

  /** Whether a version after {@code version} was published (its name exists). */
  private boolean superseded(VersionLog log, long version) {
    try {
      return log.storage().isFile(log.key(version + 1));
    } catch (IOException e) {
      throw MosaicException.io("cannot look for version " + (version + 1) + " of " + name(), e);
    }
  }

  // ---- time travel (docs/format.md, "Time travel")

  /**
   * Version {@code version}'s manifest, for a time-travel read: NOT_FOUND, naming the versions
   * still readable, when gc retired it or it was never committed. Readers pin it with {@link
   * #pin(long)}.
   */
  public Manifest asOf(long version) {
    return readable(version);
  }

  /**
   * The version a reader saw at {@code time}: the newest version committed at or before it (by the
   * manifests' {@code committedAt}). NOT_FOUND when the table did not exist yet then, or when the
   * version current then was retired by gc.
   */
  public Manifest asOf(Instant time) {
    List<Long> readable = versions();
    Manifest newer = null;
    for (int i = readable.size() - 1; i >= 0; i--) {
      Manifest m;
      try {
        m = version(readable.get(i));
      } catch (TableNotFoundException e) {
        continue; // retired since the listing: older ones go too, unless pinned
      }
      if (!m.committedAt().isAfter(time)) {
        if (newer != null && newer.version() != m.version() + 1) {
          throw missingAt(time, "v" + (m.version() + 1) + ", committed after v" + m.version());
        }
        return m;
      }
      newer = m;
    }
    if (newer != null && newer.version() == 1) {
      throw MosaicException.notFound(
          "table "
              + name()
              + " did not exist at "
              + time
              + ": it was created at "
              + newer.committedAt()
              + " (v1); ask for a time at or after that");
    }
    throw missingAt(time, "a version older than any still readable");
  }

  private MosaicException missingAt(Instant time, String which) {
    return MosaicException.notFound(
        "table "
            + name()
            + " has no readable version as of "
            + time
            + ": the version current then ("
            + which
            + ") was retired by gc; "
            + readableRange()
            + ". "
            + keepLonger());
  }

  /** The manifest of {@code version}, or NOT_FOUND naming what is readable instead. */
  private Manifest readable(long version) {
    try {
      return version(version);
    } catch (TableNotFoundException e) {
      throw missingVersion(version, e);
    }
  }

  /**
   * The error for a version that cannot be read: never committed (newer than the latest) or retired
   * by gc, with the versions still readable and how to keep versions longer.
   */
  private MosaicException missingVersion(long version, TableNotFoundException cause) {
    long latest;
    try {
      latest = latest().version();
    } catch (RuntimeException e) {
      return cause; // the table itself is gone: its own message says so
    }
    String why =
        version > latest
            ? "it was never committed (the latest version is v" + latest + ")"
            : version < 1 ? "versions are numbered from 1" : "gc retired it";
    return new MosaicException(
        MosaicException.Kind.NOT_FOUND,
        "table "
            + name()
            + " has no version "
            + version
            + " to read: "
            + why
            + "; "
            + readableRange()
            + ". Read one of those"
            + (version > latest || version < 1 ? "" : "; " + keepLonger()),
        cause);
  }

  /** "readable now: v3 (committed at ...) to v7 (the latest, committed at ...)". */
  private String readableRange() {
    List<Long> readable = versions();
    if (readable.isEmpty()) {
      return "no version is readable now";
    }
    long oldest = readable.get(0);
    long newest = readable.get(readable.size() - 1);
    return "readable now: "
        + (oldest == newest ? "only v" + newest : readable.size() + " versions, v" + oldest)
        + describe(oldest)
        + (oldest == newest ? "" : " to v" + newest + describe(newest));
  }

  private String describe(long version) {
    try {
      return " (committed at " + version(version).committedAt() + ")";
    } catch (RuntimeException e) {
      return "";
    }
  }

  /** How to keep old versions readable longer, for this table's protocol. */
  private String keepLonger() {
    return lockFree != null
        ? "To keep versions longer, raise the version retention (now "
            + lockFree.log().retention().versions()
            + "), or read them while a reader holds them"
        : "gc (and migrations) retire every version but the latest and those a running scan pins:"
            + " to keep versions for time travel, run gc less often";
  }

  /** Versions pinned by live readers (in this or another process). */
  public Set<Long> pinnedVersions() {
    Set<Long> versions = new HashSet<>();
    if (lockFree != null) {
      return versions; // readers hold versions by time, or by reader leases gc reads itself
    }
    Path dir = root.resolve(PINS);
    if (!Files.isDirectory(dir)) {
      return versions;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().endsWith(".pin")) {
          if (isLocked(f)) {
            versions.add(TablePin.versionOf(f));
          } else {
            Files.deleteIfExists(f); // left by a dead reader
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list pins of table " + name(), e);
    }
    return versions;
  }

  /** Whether some live process (this one included) holds the lock of {@code file}. */
  public static boolean isLocked(Path file) {
    return LockFile.isLocked(file);
  }

  // ---- writes

  /** A writer for one task; the caller commits its {@link WriteResult} (with others) later. */
  public TableWriter newWriter() {
    return new TableWriter(this, latest());
  }

  /** Rows per row group a writer cuts for version {@code m} (table property, else the default). */
  public long rowGroupRows(Manifest m) {
    return rowGroupRows(m.properties(), location);
  }

  private static long rowGroupRows(Map<String, String> properties, String root) {
    String value = properties.get(TableProperties.ROW_GROUP_ROWS);
    if (value == null) {
      return DEFAULT_ROW_GROUP_ROWS;
    }
    try {
      long rows = Long.parseLong(value.trim());
      if (rows > 0) {
        return rows;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw MosaicException.invalid(
        "table property "
            + TableProperties.ROW_GROUP_ROWS
            + " = '"
            + value
            + "' of "
            + root
            + " must be a positive whole number of rows");
  }

  /** The device a column without segments goes to: its placement property, else the default. */
  Device initialDevice(Manifest m, String column) {
    String id = m.properties().get(TableProperties.COLUMN_DEVICE_PREFIX + column + ".device");
    if (id == null) {
      id = m.properties().get(TableProperties.DEFAULT_DEVICE);
    }
    return id != null ? pool.device(id) : pool.devices().get(0);
  }

  /**
   * The property that records {@code column}'s codec override ({@link
   * TableProperties#COLUMN_CODEC_SUFFIX}).
   */
  public static String codecProperty(String column) {
    return TableProperties.COLUMN_DEVICE_PREFIX + column + TableProperties.COLUMN_CODEC_SUFFIX;
  }

  /**
   * The codec new segments of {@code column} on {@code device} are written with: the column's
   * override ({@code column.<name>.codec}), else the device's.
   */
  static Codec codecOf(Manifest m, String column, Device device) {
    String value = m.properties().get(codecProperty(column));
    return value == null
        ? device.spec().codec()
        : codecProperty(codecProperty(column), value, null);
  }

  private static Codec codecProperty(String key, String value, String root) {
    return Codec.fromConfigName(value.strip())
        .orElseThrow(
            () ->
                MosaicException.invalid(
                    "table property "
                        + key
                        + " = '"
                        + value
                        + "'"
                        + (root == null ? "" : " of " + root)
                        + " is no codec; write one of "
                        + Codec.allowed()));
  }

  /** Appends the rows of all results in one new version (an empty list commits nothing). */
  public Manifest append(List<WriteResult> results) {
    return committer.append(results);
  }

  /** Replaces all rows with those of the results, in one new version. */
  public Manifest overwrite(List<WriteResult> results) {
    return committer.overwrite(results);
  }

  /**
   * Removes all rows in one new version (TRUNCATE TABLE in both engines); older versions keep them
   * for time travel until gc retires those versions.
   */
  public Manifest truncate() {
    return committer.truncate();
  }

  /**
   * Deletes rows of version {@code baseVersion} (the one the change read) and appends {@code
   * inserted}, in one new version: a DELETE, an UPDATE or a MERGE (docs/format.md, "Deletion
   * vectors"). A concurrent change to the same rows makes it a CONFLICT, never a lost change.
   *
   * @param deleted per row group, the positions to delete (within the row group)
   */
  public Manifest changeRows(
      String operation,
      long baseVersion,
      Map<Integer, DeletedRows> deleted,
      List<WriteResult> inserted) {
    return committer.changeRows(operation, baseVersion, deleted, inserted);
  }

  /** The operation a replace-where's version records ({@link #replaceWhere}). */
  public static final String REPLACE_WHERE = "replace where";

  /**
   * Replaces the rows of version {@code baseVersion} (the one the write started from) that {@code
   * condition} matches with {@code inserted}, in one new version (operation {@value
   * #REPLACE_WHERE}): Spark's {@code overwrite(condition)} and {@code INSERT INTO ... REPLACE
   * WHERE}. The matches become deletion vectors, as a DELETE's do, so no segment is rewritten
   * (docs/format.md, "Deletion vectors"). Rebased over newer commits as {@link #changeRows} is,
   * deleting the matching rows appended since too; a concurrent change to the same row groups makes
   * it a CONFLICT, never a lost change.
   */
  public Manifest replaceWhere(RowCondition condition, long baseVersion, List<WriteResult> inserted)
      throws IOException {
    Map<Integer, DeletedRows> deleted;
    try (TablePin pin = pin(baseVersion)) {
      deleted = condition.matches(pin.manifest(), 0);
    }
    return committer.changeRows(REPLACE_WHERE, baseVersion, deleted, inserted, condition);
  }

  /**
   * Commits an ALTER TABLE change of the columns as a new version (docs/format.md, "Column ids"),
   * through the same committer as appends, so a concurrent commit is rebased or refused, never
   * lost.
   */
  public Manifest alter(SchemaChange change) {
    return committer.alter(List.of(change));
  }

  /** As {@link #alter(SchemaChange)}, the changes applied in order, in one version. */
  public Manifest alter(List<SchemaChange> changes) {
    return committer.alter(changes);
  }

  /**
   * Publishes {@code change(latest)} as the next version; a commit that loses a race applies the
   * change again to the new latest version (see {@link TableCommitter#commit}).
   */
  public Manifest commit(String operation, UnaryOperator<Manifest> change) {
    return committer.commit(operation, change);
  }
}
