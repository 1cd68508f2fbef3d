package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.device.MetadataFiles;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.GarbageCollector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Mosaic table: a root directory (normally on the metadata device) holding versioned manifests,
 * reader pins and writer locks; its column data lives in segments on the pool's devices (DESIGN
 * sections 3 and 6, docs/format.md). Publishing a version is atomic and create-if-absent, so
 * concurrent commits never lose each other's data: the loser rebases onto the winner and retries.
 */
public final class MosaicTable {
  public static final String MANIFESTS = "_manifests";
  public static final String PINS = "_pins";
  public static final String WRITERS = "_writers";

  /** Table property: rows per row group (default {@value #DEFAULT_ROW_GROUP_ROWS}). */
  public static final String ROW_GROUP_ROWS = "row_group_rows";

  /** Table property: device for columns that have no placement yet (default: the first device). */
  public static final String DEFAULT_DEVICE = "default_device";

  /** Table property prefix: {@code column.<name>.device} places a column before it has data. */
  public static final String COLUMN_DEVICE_PREFIX = "column.";

  static final long DEFAULT_ROW_GROUP_ROWS = 1 << 20;

  /**
   * Largest manifest file read: a manifest takes about 100 bytes per row group and column (their
   * statistics), so this holds about 600,000 of them; a larger file is damaged or not a manifest.
   */
  static final long MAX_MANIFEST_BYTES = 64L << 20;

  /** Where gc moves old manifests it cannot read, instead of deleting them. */
  public static final String DAMAGED = "_damaged";

  private static final int MAX_COMMIT_ATTEMPTS = 20;
  private static final Pattern MANIFEST_NAME = Pattern.compile("v(\\d{20})\\.json");

  private final Path root;
  private final DevicePool pool;
  // Segment folders (table id, device id) this instance has checked it owns, for writes.
  private final Set<String> claimed = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private MosaicTable(Path root, DevicePool pool) {
    this.root = root;
    this.pool = pool;
  }

  /**
   * Whether a table exists at {@code root}: its {@code _manifests} directory holds a version. A
   * directory whose creation was interrupted before the first version was published (only temporary
   * files, or nothing) is no table; {@link #create} makes one there.
   */
  public static boolean exists(Path root) {
    Path dir = root.resolve(MANIFESTS);
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> MANIFEST_NAME.matcher(f.getFileName().toString()).matches());
    } catch (IOException e) {
      return true; // unreadable: not a place to create a table either; open says what is wrong
    }
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
      new MosaicTable(abs, pool).removeStaleTemporaryManifests(); // an interrupted creation's
    }
    properties.forEach(
        (key, value) -> {
          if (key.equals(DEFAULT_DEVICE) || key.startsWith(COLUMN_DEVICE_PREFIX)) {
            pool.device(value);
          }
        });
    rowGroupRows(properties, abs);
    MosaicTable table = new MosaicTable(abs, pool);
    try {
      Files.createDirectories(abs.resolve(MANIFESTS));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create table directory " + abs, e);
    }
    Manifest first =
        new Manifest(
            UUID.randomUUID().toString(),
            1,
            "create",
            Instant.now(),
            schema,
            properties,
            List.of(),
            List.of());
    if (!table.publish(first)) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT, "a Mosaic table was created at " + abs + " concurrently");
    }
    return table;
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
              + " command), so nothing was committed. Create the table again (the CLI's `mosaic"
              + " import --create`, or MosaicTable.create); the directory is reused");
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
    table.removeStaleTemporaryManifests();
    return table;
  }

  public Path root() {
    return root;
  }

  public DevicePool pool() {
    return pool;
  }

  public String name() {
    return root.getFileName().toString();
  }

  // ---- versions

  public List<Long> versions() {
    List<Long> versions = new ArrayList<>();
    try (Stream<Path> files = Files.list(root.resolve(MANIFESTS))) {
      files.forEach(
          f -> {
            Matcher m = MANIFEST_NAME.matcher(f.getFileName().toString());
            if (m.matches()) {
              versions.add(Long.parseLong(m.group(1)));
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the manifests of table " + name(), e);
    }
    versions.sort(null);
    return versions;
  }

  public Manifest latest() {
    List<Long> versions = versions();
    if (versions.isEmpty()) {
      throw new CorruptTableException(
          "table "
              + name()
              + " at "
              + root
              + " has no manifest in "
              + MANIFESTS
              + ": its creation was interrupted, or its manifests were removed");
    }
    long last = versions.get(versions.size() - 1);
    try {
      return version(last);
    } catch (CorruptTableException e) {
      throw new CorruptTableException(e.getMessage() + "; " + lastGood(versions), e);
    }
  }

  /** Names the newest readable version before the newest one, and how to roll back to it. */
  private String lastGood(List<Long> versions) {
    for (int i = versions.size() - 2; i >= 0; i--) {
      long v = versions.get(i);
      try {
        version(v);
        return "the last good version is v"
            + v
            + ": roll back to it (the CLI's `mosaic rollback --to "
            + v
            + "`, or MosaicTable.rollback("
            + v
            + ")), which publishes its content as v"
            + (versions.get(versions.size() - 1) + 1)
            + " and keeps the damaged file";
      } catch (RuntimeException e) {
        // damaged too: look further back
      }
    }
    return versions.size() == 1
        ? "there is no earlier version to roll back to"
        : "no earlier version can be read either; restore " + MANIFESTS + " from a backup";
  }

  public Manifest version(long version) {
    Path file = manifestFile(version);
    String where = "manifest v" + version + " of table " + name() + " (" + file + ")";
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw new CorruptTableException(where + " is a directory, not a manifest file");
      }
      bytes = MetadataFiles.read(file, MAX_MANIFEST_BYTES, "manifest");
    } catch (NoSuchFileException e) {
      throw new TableNotFoundException(
          "table " + name() + " has no version " + version + " (" + file + ")");
    } catch (MetadataFiles.TooLargeException e) {
      throw new CorruptTableException(where + " is refused: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    Manifest m = ManifestFile.decode(bytes, where);
    if (m.version() != version) {
      throw new CorruptTableException(file + " holds version " + m.version() + ", not " + version);
    }
    return m;
  }

  /**
   * Drops the table (DROP TABLE in Spark and Trino, through {@link Warehouse#drop}): its segment
   * folders on every device, their bytes released from the devices' accounting, then its root; see
   * {@link GarbageCollector#drop}.
   */
  public void drop() {
    new GarbageCollector(this).drop();
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
    MosaicTable other = new MosaicTable(root.toAbsolutePath().normalize(), null);
    List<Long> versions;
    try {
      versions = other.versions();
    } catch (RuntimeException e) {
      return java.util.Optional.empty();
    }
    for (int i = versions.size() - 1; i >= 0; i--) {
      try {
        return java.util.Optional.of(other.version(versions.get(i)).tableId());
      } catch (RuntimeException e) {
        // damaged: try an older one
      }
    }
    return java.util.Optional.empty();
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
   * Publishes the content of version {@code to} (schema, properties, rows and segments) as a new
   * version, numbered after the newest manifest file, readable or not: the way back from a damaged
   * newest manifest, which is kept as a (harmless) older version and is moved to {@code
   * _manifests/_damaged/} by gc. Refused if a segment of {@code to} is gone.
   */
  public Manifest rollback(long to) {
    Manifest target = version(to);
    for (int attempt = 1; ; attempt++) {
      List<Long> versions = versions();
      long newest = versions.get(versions.size() - 1);
      if (newest == to) {
        throw new IllegalArgumentException(
            "v" + to + " is already the newest version of table " + name() + "; nothing to undo");
      }
      Manifest next =
          new Manifest(
              target.tableId(),
              newest + 1,
              "rollback",
              Instant.now(),
              target.schema(),
              target.properties(),
              target.rowGroups(),
              target.segments());
      next.validate();
      try (CommitGate.Hold hold = CommitGate.shared(root)) {
        for (SegmentEntry s : target.segments()) {
          Path file;
          try {
            file = pool.device(s.device()).resolve(s.path());
          } catch (MosaicException e) {
            throw new CorruptTableException(
                "cannot roll back table " + name() + " to v" + to + ": " + e.getMessage(), e);
          }
          if (!Files.exists(file)) {
            throw new CorruptTableException(
                "cannot roll back table "
                    + name()
                    + " to v"
                    + to
                    + ": its segment "
                    + file
                    + " of column "
                    + s.column()
                    + " on device '"
                    + s.device()
                    + "' is gone (deleted by gc once v"
                    + to
                    + " was no longer kept); roll back to a later version");
          }
        }
        if (publish(next)) {
          return next;
        }
      }
      if (attempt == MAX_COMMIT_ATTEMPTS) {
        throw new TableConflictException(
            "rollback of table " + name() + " lost " + attempt + " races in a row; try again");
      }
    }
  }

  public Path manifestFile(long version) {
    return root.resolve(MANIFESTS).resolve(String.format(Locale.ROOT, "v%020d.json", version));
  }

  /** Pins the latest version: its files stay until the pin is closed. */
  public TablePin pin() {
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

  /** Pins a given version (an executor reading the version its driver planned). */
  public TablePin pin(long version) {
    TablePin pin = TablePin.create(root.resolve(PINS), version, UUID.randomUUID().toString());
    try {
      return pin.withManifest(version(version));
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }

  /** Versions pinned by live readers (in this or another process). */
  public Set<Long> pinnedVersions() {
    Set<Long> versions = new HashSet<>();
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

  long rowGroupRows(Manifest m) {
    return rowGroupRows(m.properties(), root);
  }

  private static long rowGroupRows(Map<String, String> properties, Path root) {
    String value = properties.get(ROW_GROUP_ROWS);
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
    throw new IllegalArgumentException(
        "table property "
            + ROW_GROUP_ROWS
            + " = '"
            + value
            + "' of "
            + root
            + " must be a positive whole number of rows");
  }

  /** The device a column without segments goes to: its placement property, else the default. */
  Device initialDevice(Manifest m, String column) {
    String id = m.properties().get(COLUMN_DEVICE_PREFIX + column + ".device");
    if (id == null) {
      id = m.properties().get(DEFAULT_DEVICE);
    }
    return id != null ? pool.device(id) : pool.devices().get(0);
  }

  /** Appends the rows of all results in one new version (an empty list commits nothing). */
  public Manifest append(List<WriteResult> results) {
    return commit("append", base -> withResults(base, base.rowGroups(), base.segments(), results));
  }

  /** Replaces all rows with those of the results, in one new version. */
  public Manifest overwrite(List<WriteResult> results) {
    return commit("overwrite", base -> withResults(base, List.of(), List.of(), results));
  }

  private Manifest withResults(
      Manifest base, List<Long> groups, List<SegmentEntry> segments, List<WriteResult> results) {
    List<Long> rowGroups = new ArrayList<>(groups);
    List<SegmentEntry> all = new ArrayList<>(segments);
    for (WriteResult r : results) {
      if (!r.schema().equals(base.schema())) {
        throw new IllegalArgumentException(
            "schema mismatch writing to table "
                + name()
                + ": the data has "
                + describe(r.schema())
                + ", the table has "
                + describe(base.schema()));
      }
      int first = rowGroups.size();
      rowGroups.addAll(r.rowGroups());
      for (SegmentEntry s : r.segments()) {
        all.add(s.startingAt(first + s.firstRowGroup()));
      }
    }
    return base.next("append", rowGroups, all);
  }

  private static String describe(TableSchema schema) {
    return "("
        + String.join(
            ", ",
            schema.columns().stream()
                .map(c -> c.name() + " " + c.type() + (c.nullable() ? "" : " not null"))
                .toList())
        + ")";
  }

  /**
   * Publishes {@code change(latest)} as the next version. If another commit wins the race, the
   * change is applied again to the new latest version (it must be a function of its base), so no
   * update is lost; a change that no longer applies throws {@link TableConflictException}.
   */
  public Manifest commit(String operation, UnaryOperator<Manifest> change) {
    for (int attempt = 1; ; attempt++) {
      Manifest base = latest();
      Manifest proposed = change.apply(base);
      Manifest next =
          new Manifest(
              base.tableId(),
              base.version() + 1,
              operation,
              Instant.now(),
              proposed.schema(),
              proposed.properties(),
              proposed.rowGroups(),
              proposed.segments());
      next.validate();
      // gc decides what is garbage under the exclusive hold: checking that the new segments exist
      // and publishing must not straddle one of its passes.
      try (CommitGate.Hold hold = CommitGate.shared(root)) {
        checkNewSegmentsExist(base, next);
        if (publish(next)) {
          return next;
        }
      }
      if (attempt == MAX_COMMIT_ATTEMPTS) {
        throw new TableConflictException(
            "commit to table " + name() + " lost " + attempt + " races in a row; try again");
      }
      try {
        Thread.sleep(ThreadLocalRandom.current().nextInt(1, 5 * attempt));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TableConflictException("commit to table " + name() + " interrupted");
      }
    }
  }

  private void checkNewSegmentsExist(Manifest base, Manifest next) {
    Set<String> old = new HashSet<>();
    base.segments().forEach(s -> old.add(s.device() + "/" + s.path()));
    for (SegmentEntry s : next.segments()) {
      if (!old.contains(s.device() + "/" + s.path())
          && !Files.exists(pool.device(s.device()).resolve(s.path()))) {
        throw new CorruptTableException(
            "cannot commit to table "
                + name()
                + ": new segment "
                + s.path()
                + " of column "
                + s.column()
                + " is missing on device '"
                + s.device()
                + "' (removed by gc, or the device is gone)");
      }
    }
  }

  /** Writes the manifest, then links it to its version's name: fails if that name exists. */
  boolean publish(Manifest next) {
    Path dir = root.resolve(MANIFESTS);
    Path tmp = dir.resolve(".tmp-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID());
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(ManifestFile.encode(next)));
        ch.force(true);
      }
      CrashPoints.reached("manifest-written");
      try {
        Files.createLink(manifestFile(next.version()), tmp);
      } catch (FileAlreadyExistsException e) {
        return false;
      } finally {
        Files.deleteIfExists(tmp);
      }
      forceDirectory(dir);
      CrashPoints.reached("manifest-published");
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot publish version " + next.version() + " of table " + name(), e);
    }
  }

  private static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems cannot sync a directory; the rename is still atomic there.
    }
  }

  private void removeStaleTemporaryManifests() {
    try (Stream<Path> files = Files.list(root.resolve(MANIFESTS))) {
      for (Path f : files.toList()) {
        String n = f.getFileName().toString();
        if (n.startsWith(".tmp-")) {
          long pid = Long.parseLong(n.substring(5, n.indexOf('-', 5)));
          if (ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
            Files.deleteIfExists(f);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // Leftover temporary files are harmless; gc tries again.
    }
  }
}
