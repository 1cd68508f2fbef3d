package io.mosaic.warehouse;

import io.mosaic.MosaicException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableSchema;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.table.CommitGate;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 */
public final class Warehouse {
  /** Longest namespace or table name: each is a directory, and file names have 255 bytes. */
  public static final int MAX_NAME_LENGTH = 255;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  private final Path root;
  private final DevicePool pool;

  private Warehouse(Path root, DevicePool pool) {
    this.root = root;
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
    return new Warehouse(abs, pool);
  }

  public Path root() {
    return root;
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
    return list(root, d -> !MosaicTable.exists(d));
  }

  public boolean namespaceExists(String namespace) {
    if (!couldExist("namespace", namespace)) {
      return false;
    }
    Path dir = root.resolve(namespace);
    return Files.isDirectory(dir) && !MosaicTable.exists(dir);
  }

  private Path namespaceDir(String namespace) {
    checkName("namespace", namespace);
    if (!namespaceExists(namespace)) {
      throw MosaicException.notFound(
          "no namespace '" + namespace + "' in the warehouse " + root + "; create it first");
    }
    return root.resolve(namespace);
  }

  public void createNamespace(String namespace) {
    checkName("namespace", namespace);
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
    Path dir = namespaceDir(namespace);
    List<Path> tables = tableRootsBelow(dir);
    if (!cascade && !tables.isEmpty()) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT,
          "namespace '"
              + namespace
              + "' still has tables "
              + tables.stream().map(t -> dir.relativize(t).toString()).toList()
              + ": drop them first, or drop the namespace with its tables (cascade)");
    }
    for (Path t : tables) {
      new GarbageCollector(MosaicTable.open(t, pool)).drop();
    }
    MosaicTable.deleteTree(dir); // what is left holds no table: nothing on the devices
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
    return list(namespaceDir(namespace), MosaicTable::exists);
  }

  public boolean exists(String namespace, String table) {
    if (!couldExist("namespace", namespace) || !couldExist("table", table)) {
      return false;
    }
    return MosaicTable.exists(root.resolve(namespace).resolve(table));
  }

  /** The root directory of a table (whether it exists or not), after checking both names. */
  public Path location(String namespace, String table) {
    checkName("namespace", namespace);
    checkName("table", table);
    return root.resolve(namespace).resolve(table);
  }

  /**
   * Creates an empty table with {@code properties} ({@link MosaicTable#ROW_GROUP_ROWS}, {@link
   * MosaicTable#DEFAULT_DEVICE}, {@code column.<name>.device} and the engine's own keys, recorded
   * in the manifest as given).
   */
  public MosaicTable create(
      String namespace, String table, TableSchema schema, Map<String, String> properties) {
    Path location = location(namespace, table);
    namespaceDir(namespace);
    if (MosaicTable.exists(location)) {
      throw new MosaicException(
          MosaicException.Kind.CONFLICT,
          "table '" + namespace + "." + table + "' already exists at " + location);
    }
    return MosaicTable.create(location, pool, schema, properties);
  }

  public MosaicTable open(String namespace, String table) {
    return MosaicTable.open(existing(namespace, table), pool);
  }

  private Path existing(String namespace, String table) {
    Path location = location(namespace, table);
    if (!MosaicTable.exists(location)) {
      throw new TableNotFoundException(
          "no table '"
              + namespace
              + "."
              + table
              + "' in the warehouse "
              + root
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
    Path from = existing(namespace, table);
    Path to = location(toNamespace, toTable);
    namespaceDir(toNamespace);
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
