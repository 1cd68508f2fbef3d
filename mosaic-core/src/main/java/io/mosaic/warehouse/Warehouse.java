package io.mosaic.warehouse;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.storage.Storage;
import io.mosaic.table.CommitGate;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A warehouse: a directory of namespaces (Trino's schemas, Spark's namespaces), each a directory of
 * tables, each a table root ({@link MosaicTable}), over one device pool. Both engines' catalogs
 * call it and only translate names and errors (docs/format.md, "Warehouse"), so they accept the
 * same names, refuse them with the same message, and drop tables the same way.
 *
 * <p>Names are directories, so a name is letters, digits, {@code _}, {@code -} and {@code .} (not
 * first), never {@code ..}, at most {@value #MAX_NAME_LENGTH} characters (a file name's limit on
 * ext4, xfs and most others). A name with another character is refused ({@link
 * MosaicException.Kind#INVALID_ARGUMENT}): it could be a path trick. A name that is only too long
 * is refused when creating, but names nothing when looking up ({@code exists} is false), since no
 * such table could have been created.
 *
 * <p>Errors: a missing namespace or table is {@link MosaicException.Kind#NOT_FOUND} (a table's is a
 * {@link TableNotFoundException}); a namespace or table that already exists, and a namespace that
 * still holds tables, is {@link MosaicException.Kind#CONFLICT}: the warehouse's state, not the
 * request's form, is what stands in the way, and keeping it apart from a bad name lets a front end
 * map "already exists" from the kind alone.
 *
 * <p>Rename moves the table root: a table's identity is its id, which names its segment folders on
 * the devices ({@code <device>/<table id>/}), not its name, so no segment moves. Each folder's
 * owner file is then pointed at the new root ({@link TableFolders}).
 *
 * <p>A warehouse at a URI of another storage ({@code hdfs://nn:8020/mosaic/warehouse}) keeps the
 * same names on that storage: a namespace is a folder holding an empty {@value #NAMESPACE_MARKER}
 * file, created exclusively so that two engines creating one namespace see one winner (object
 * stores have no folders to create), and a table is a location below it, with the lock-free
 * protocol (docs/format.md, "Commits without POSIX locks"). Such a table is not renamed: its
 * location is all it has, on storages where a folder's rename is not atomic.
 */
public final class Warehouse {
  /** Longest namespace or table name: each is a directory, and file names have 255 bytes. */
  public static final int MAX_NAME_LENGTH = 255;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  /** The file that makes a folder of a warehouse on a storage a namespace. */
  public static final String NAMESPACE_MARKER = ".namespace";

  private final Path root; // local warehouses
  private final Storage storage; // warehouses on another storage
  private final String location;
  private final DevicePool pool;

  private Warehouse(Path root, Storage storage, String location, DevicePool pool) {
    this.root = root;
    this.storage = storage;
    this.location = location;
    this.pool = pool;
  }

  /** The warehouse at {@code root}, creating the directory if it does not exist. */
  public static Warehouse open(Path root, DevicePool pool) {
    Path abs = root.toAbsolutePath().normalize();
    if (Files.exists(abs) && !Files.isDirectory(abs)) {
      throw MosaicException.invalid(
          "the warehouse " + abs + " is a file, not a directory: point it at a directory");
    }
    if (MosaicTable.exists(abs)) {
      throw MosaicException.invalid(
          "the warehouse " + abs + " is a table root, not a directory of namespaces");
    }
    try {
      Files.createDirectories(abs);
    } catch (IOException e) {
      throw MosaicException.io("cannot create the warehouse " + abs + ": " + e.getMessage(), e);
    }
    return new Warehouse(abs, null, abs.toString(), pool);
  }

  /**
   * The warehouse at {@code location}: a local path or {@code file:} URI ({@link #open(Path,
   * DevicePool)}), or a URI of another storage, reached through the pool's {@link
   * DevicePool#storages()}.
   */
  public static Warehouse open(String location, DevicePool pool) {
    if (!MosaicTable.isRemote(location)) {
      return open(MosaicTable.localPath(location), pool);
    }
    String at = location.replaceAll("/+$", "");
    Storage storage;
    try {
      storage = pool.storages().shared(URI.create(at));
    } catch (IllegalArgumentException e) {
      throw MosaicException.invalid(
          "the warehouse '" + location + "' is no URI (" + e.getMessage() + "); fix the setting");
    } catch (IOException e) {
      throw MosaicException.io("cannot reach the warehouse " + at + ": " + e.getMessage(), e);
    }
    if (MosaicTable.exists(at, pool)) {
      throw MosaicException.invalid(
          "the warehouse " + at + " is a table's location, not a folder of namespaces");
    }
    return new Warehouse(null, storage, at, pool);
  }

  /** The local directory of this warehouse; null for a warehouse on another storage. */
  public Path root() {
    return root;
  }

  /** Where this warehouse is: a local directory, or a URI. */
  public String location() {
    return location;
  }

  public DevicePool pool() {
    return pool;
  }

  // ---- names

  /**
   * Refuses a name Mosaic cannot use as a directory of the warehouse; {@code kind} is {@code
   * "namespace"} or {@code "table"}.
   */
  public static void checkName(String kind, String name) {
    if (name == null || !NAME.matcher(name).matches() || name.contains("..")) {
      throw MosaicException.invalid(
          kind
              + " name '"
              + name
              + "' is not allowed: use letters, digits, '_', '-' and '.' (not first), without"
              + " '/' or '..', so that it stays a directory inside the warehouse");
    }
    if (name.length() > MAX_NAME_LENGTH) {
      throw MosaicException.invalid(
          kind
              + " name '"
              + name
              + "' is too long: "
              + name.length()
              + " characters, Mosaic allows "
              + MAX_NAME_LENGTH
              + " (the name is a directory); use a shorter name");
    }
  }

  /** Whether a name could name something here: too long is false, a bad character an error. */
  private static boolean couldExist(String kind, String name) {
    if (name != null && name.length() > MAX_NAME_LENGTH) {
      return false;
    }
    checkName(kind, name);
    return true;
  }

  private static boolean legal(String name) {
    return NAME.matcher(name).matches() && !name.contains("..") && name.length() <= MAX_NAME_LENGTH;
  }

  // ---- namespaces

  /** The namespaces, sorted: directories with legal names that are not tables. */
  public List<String> namespaces() {
    if (storage != null) {
      return listOnStorage("", this::isNamespaceFolder);
    }
    return list(root, d -> !MosaicTable.exists(d));
  }

  public boolean namespaceExists(String namespace) {
    if (!couldExist("namespace", namespace)) {
      return false;
    }
    if (storage != null) {
      return isNamespaceFolder(namespace);
    }
    Path dir = root.resolve(namespace);
    return Files.isDirectory(dir) && !MosaicTable.exists(dir);
  }

  private boolean isNamespaceFolder(String key) {
    try {
      return storage.stat(key + "/" + NAMESPACE_MARKER).isPresent();
    } catch (IOException e) {
      throw MosaicException.io("cannot read " + where(key) + ": " + e.getMessage(), e);
    }
  }

  private String where(String key) {
    return key.isEmpty() ? location : location + "/" + key;
  }

  private void checkNamespace(String namespace) {
    checkName("namespace", namespace);
    if (!namespaceExists(namespace)) {
      throw MosaicException.notFound(
          "no namespace '" + namespace + "' in the warehouse " + location + "; create it first");
    }
  }

  public void createNamespace(String namespace) {
    checkName("namespace", namespace);
    if (storage != null) {
      try {
        storage.createExclusive(namespace + "/" + NAMESPACE_MARKER, new byte[0]);
      } catch (FileAlreadyExistsException e) {
        throw new MosaicException(
            MosaicException.Kind.CONFLICT,
            "namespace '" + namespace + "' already exists at " + where(namespace));
      } catch (IOException e) {
        throw MosaicException.io(
            "cannot create namespace " + where(namespace) + ": " + e.getMessage(), e);
      }
      return;
    }
    Path dir = root.resolve(namespace);
    try {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT,
          (MosaicTable.exists(dir) ? "a table" : "namespace '" + namespace + "'")
              + " already exists at "
              + dir);
    } catch (IOException e) {
      throw MosaicException.io("cannot create namespace directory " + dir + ": " + e, e);
    }
  }

  /**
   * Drops a namespace. Without {@code cascade} it must hold no table; with it, each table is
   * dropped as by {@link #drop} (releasing its device space) before the directory goes. Tables
   * anywhere below it count, so no table root is ever deleted without its segments.
   */
  public void dropNamespace(String namespace, boolean cascade) {
    checkNamespace(namespace);
    List<String> tables = tablesBelow(namespace);
    if (!cascade && !tables.isEmpty()) {
      String prefix = where(namespace) + "/";
      throw new MosaicException(
          MosaicException.Kind.CONFLICT,
          "namespace '"
              + namespace
              + "' still has tables "
              + tables.stream().map(t -> t.substring(prefix.length())).toList()
              + ": drop them first, or drop the namespace with its tables (cascade)");
    }
    for (String t : tables) {
      new GarbageCollector(MosaicTable.open(t, pool)).drop();
    }
    // What is left holds no table: nothing on the devices.
    if (storage == null) {
      MosaicTable.deleteTree(root.resolve(namespace));
      return;
    }
    try {
      storage.deleteTree(namespace);
    } catch (IOException e) {
      throw MosaicException.io(
          "cannot delete namespace " + where(namespace) + ": " + e.getMessage(), e);
    }
  }

  /** The locations of the tables at any depth below a namespace, not looking inside them. */
  private List<String> tablesBelow(String namespace) {
    if (storage == null) {
      return tableRootsBelow(root.resolve(namespace)).stream().map(Path::toString).toList();
    }
    List<String> tables = new ArrayList<>();
    try {
      tablesBelow(namespace, tables);
    } catch (IOException e) {
      throw MosaicException.io("cannot list " + where(namespace) + ": " + e.getMessage(), e);
    }
    tables.sort(null);
    return tables;
  }

  private void tablesBelow(String key, List<String> tables) throws IOException {
    for (Storage.FileStatus f : storage.list(key)) {
      if (f.folder()) {
        if (MosaicTable.exists(where(f.key()), pool)) {
          tables.add(where(f.key()));
        } else {
          tablesBelow(f.key(), tables);
        }
      }
    }
  }

  /** The table roots at any depth below {@code dir}, not looking inside them. */
  private static List<Path> tableRootsBelow(Path dir) {
    List<Path> tables = new ArrayList<>();
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
              if (!d.equals(dir) && MosaicTable.exists(d)) {
                tables.add(d);
                return FileVisitResult.SKIP_SUBTREE;
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw MosaicException.io("cannot list " + dir + ": " + e.getMessage(), e);
    }
    tables.sort(null);
    return tables;
  }

  // ---- tables

  /** The tables of a namespace, sorted. */
  public List<String> tables(String namespace) {
    checkNamespace(namespace);
    if (storage != null) {
      return listOnStorage(namespace, key -> MosaicTable.exists(where(key), pool));
    }
    return list(root.resolve(namespace), MosaicTable::exists);
  }

  public boolean exists(String namespace, String table) {
    if (!couldExist("namespace", namespace) || !couldExist("table", table)) {
      return false;
    }
    return MosaicTable.exists(location(namespace, table), pool);
  }

  /**
   * The location of a table (whether it exists or not), after checking both names: a local path, or
   * a URI for a warehouse on another storage.
   */
  public String location(String namespace, String table) {
    checkName("namespace", namespace);
    checkName("table", table);
    return storage != null
        ? where(namespace + "/" + table)
        : root.resolve(namespace).resolve(table).toString();
  }

  /**
   * Creates an empty table with {@code properties} ({@link MosaicTable#ROW_GROUP_ROWS}, {@link
   * MosaicTable#DEFAULT_DEVICE}, {@code column.<name>.device} and the engine's own keys, recorded
   * in the manifest as given).
   */
  public MosaicTable create(
      String namespace, String table, TableSchema schema, Map<String, String> properties) {
    String location = location(namespace, table);
    checkNamespace(namespace);
    if (MosaicTable.exists(location, pool)) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT,
          "table '" + namespace + "." + table + "' already exists at " + location);
    }
    return MosaicTable.create(location, pool, schema, properties);
  }

  public MosaicTable open(String namespace, String table) {
    return MosaicTable.open(existing(namespace, table), pool);
  }

  private String existing(String namespace, String table) {
    String location = location(namespace, table);
    if (!MosaicTable.exists(location, pool)) {
      throw new TableNotFoundException(
          "no table '"
              + namespace
              + "."
              + table
              + "' in the warehouse "
              + location
              + (namespaceExists(namespace) ? "" : " (no namespace '" + namespace + "' either)"));
    }
    return location;
  }

  /**
   * Drops a table: its segment folders on every device, their bytes released from the devices'
   * accounting, then its root ({@link GarbageCollector#drop}).
   */
  public void drop(String namespace, String table) {
    new GarbageCollector(open(namespace, table)).drop();
  }

  /**
   * Renames a table, within its namespace or into another: the root directory moves atomically
   * (under gc's exclusive hold, so no commit or gc is in flight), and the owner files of its
   * segment folders are pointed at the new root. A reader that pinned a version keeps reading (its
   * segments do not move); a writer of the old name fails to commit and its files become gc's.
   */
  public void rename(String namespace, String table, String toNamespace, String toTable) {
    if (storage != null) {
      existing(namespace, table);
      throw MosaicException.unsupported(
          "cannot rename table '"
              + namespace
              + "."
              + table
              + "' in the warehouse "
              + location
              + ": a table on this storage is its location, and its folder cannot be renamed"
              + " atomically; create the new table from this one (CREATE TABLE ... AS SELECT),"
              + " then drop this one");
    }
    Path from = Path.of(existing(namespace, table));
    Path to = Path.of(location(toNamespace, toTable));
    checkNamespace(toNamespace);
    if (Files.exists(to, LinkOption.NOFOLLOW_LINKS)) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT,
          (MosaicTable.exists(to)
                  ? "table '" + toNamespace + "." + toTable + "' already exists at " + to
                  : to
                      + " already exists (not a table: the rest of an interrupted creation, or"
                      + " another file); remove it, or choose another name")
              + "; nothing was renamed");
    }
    Path fromReal; // what the folders' owner files name
    try (CommitGate.Hold hold = CommitGate.exclusive(from)) {
      fromReal = from.toRealPath();
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      throw MosaicException.unsupported(
          "cannot rename "
              + from
              + " to "
              + to
              + ": they are on different file systems, and a table root moves in one atomic"
              + " rename; keep the warehouse's namespaces on one file system");
    } catch (NoSuchFileException e) {
      throw new TableNotFoundException("table '" + namespace + "." + table + "' was dropped");
    } catch (IOException e) {
      throw MosaicException.io("cannot rename " + from + " to " + to + ": " + e.getMessage(), e);
    }
    if (TableFolders.isPlainId(MosaicTable.idOf(to).orElse(null))) {
      // This rename is the move: the folders that named the old root now name the new one.
      TableFolders.adopt(
          MosaicTable.open(to, pool), recorded -> recorded.equals(fromReal.toString()));
    }
  }

  /** The legal names of the folders in {@code key} that {@code keep} keeps (by key), sorted. */
  private List<String> listOnStorage(String key, Predicate<String> keep) {
    List<String> names = new ArrayList<>();
    try {
      for (Storage.FileStatus f : storage.list(key)) {
        if (f.folder() && legal(f.name()) && keep.test(f.key())) {
          names.add(f.name());
        }
      }
    } catch (IOException e) {
      throw MosaicException.io("cannot list " + where(key) + ": " + e.getMessage(), e);
    }
    names.sort(null);
    return names;
  }

  private static List<String> list(Path dir, Predicate<Path> keep) {
    List<String> names = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(dir)) {
      dirs.filter(Files::isDirectory)
          .filter(d -> legal(d.getFileName().toString()))
          .filter(keep)
          .map(d -> d.getFileName().toString())
          .sorted()
          .forEach(names::add);
    } catch (NoSuchFileException e) {
      throw MosaicException.notFound(dir + " is gone");
    } catch (IOException | UncheckedIOException e) {
      throw MosaicException.io("cannot list " + dir + ": " + e.getMessage(), e);
    }
    return names;
  }
}
