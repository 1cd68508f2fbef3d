package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.device.MetadataFiles;
import io.mosaic.format.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A table's segment folders, {@code <device root>/<table id>/} (docs/format.md, "Devices, owners
 * and what gc refuses"): which table root owns each one, and which paths in them gc and migrations
 * may delete.
 *
 * <p>Each folder holds a file {@value #OWNER} with the real path of the table root that created it.
 * A copy of a table root made with {@code cp} keeps the table id, so without it both roots would
 * take the folder for their own and each one's gc would delete the segments only the other's
 * versions refer to. Writes, migrations and gc through a root that is not the owner are refused
 * while the owner is still a table with that id; if the owner is gone (the root was moved or
 * renamed), the root at hand takes the folder over.
 */
public final class TableFolders {
  /** Name of the owner file in a table's segment folder. */
  public static final String OWNER = "_owner";

  private static final long OWNER_LIMIT = 64 << 10;
  private static final Pattern UUID_SHAPE =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private TableFolders() {}

  /** Whether a table id is a plain UUID, the only ids gc and writes use as a folder name. */
  public static boolean isPlainId(String tableId) {
    return tableId != null && UUID_SHAPE.matcher(tableId).matches();
  }

  /** Refuses {@code action} on a table whose id is not a plain UUID. */
  public static void requirePlainId(MosaicTable table, Manifest m, String action) {
    if (!isPlainId(m.tableId())) {
      throw new CorruptTableException(
          action
              + " of table "
              + table.name()
              + " refused: manifest v"
              + m.version()
              + " ("
              + table.manifestFile(m.version())
              + ") records the table id '"
              + m.tableId()
              + "', which is not a UUID; segment folders are <device>/<table id>, and this id"
              + " names no such folder. Nothing was deleted or written");
    }
  }

  /**
   * Whether {@code relative} is a plain path inside the table's folder: {@code <table id>/...},
   * relative, with no empty, {@code .} or {@code ..} component.
   */
  public static boolean isCanonical(String tableId, String relative) {
    if (relative == null || relative.isEmpty() || relative.indexOf('\0') >= 0) {
      return false;
    }
    String[] parts = relative.split("/", -1);
    if (parts.length < 2 || !parts[0].equals(tableId)) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.equals(".") || p.equals("..")) {
        return false;
      }
    }
    return true;
  }

  /**
   * The file to delete for {@code relative} on {@code device}, or null when it is not strictly
   * inside {@code <device root>/<table id>/} once symlinks are followed (a non-canonical path, a
   * table folder or sub-folder that is a link elsewhere, a directory, or the owner file).
   */
  public static Path deletable(Device device, String tableId, String relative) {
    if (!isPlainId(tableId) || !isCanonical(tableId, relative)) {
      return null;
    }
    try {
      Path rootReal = device.root().toRealPath();
      Path dirReal = device.root().resolve(tableId).toRealPath();
      if (!dirReal.equals(rootReal.resolve(tableId))) {
        return null;
      }
      Path file = device.root().resolve(relative);
      Path parentReal = file.getParent().toRealPath();
      if (!parentReal.startsWith(dirReal)) {
        return null;
      }
      Path target = parentReal.resolve(file.getFileName().toString());
      if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)
          || (parentReal.equals(dirReal) && target.getFileName().toString().equals(OWNER))) {
        return null;
      }
      return target;
    } catch (IOException e) {
      return null; // gone, or not resolvable: nothing to delete
    }
  }

  /**
   * Whether the table's folder on {@code device} belongs to another root that is still a table with
   * this id: then {@code table}'s root is a copy of it, and the segments there are not its to
   * delete.
   */
  public static boolean ownedByAnother(MosaicTable table, String tableId, Device device) {
    try {
      Optional<String> recorded = readOwner(device.root().resolve(tableId).resolve(OWNER));
      if (recorded.isEmpty()) {
        return false;
      }
      Path other = Path.of(recorded.get());
      return !same(other, table.root().toRealPath()) && stillOwns(other, tableId);
    } catch (IOException e) {
      return true; // unreadable owner: leave the folder alone
    }
  }

  /**
   * Checks the owner of the table's folder on {@code device} if the folder exists (gc, migrations);
   * see {@link #claim}.
   */
  public static void checkOwner(MosaicTable table, String tableId, Device device) {
    if (Files.isDirectory(device.root().resolve(tableId), LinkOption.NOFOLLOW_LINKS)) {
      claim(table, tableId, device);
    }
  }

  /**
   * Creates the table's folder on {@code device} if needed and makes sure this table root owns it:
   * records the root when no owner is recorded or the recorded one is no longer a table with this
   * id; refuses (naming both roots) when another root with this id owns it.
   */
  static void claim(MosaicTable table, String tableId, Device device) {
    if (!isPlainId(tableId)) {
      throw new CorruptTableException(
          "table "
              + table.name()
              + " has the table id '"
              + tableId
              + "', which is not a UUID; nothing is written to its segment folders");
    }
    Path dir = device.root().resolve(tableId);
    Path owner = dir.resolve(OWNER);
    try {
      Files.createDirectories(dir);
      Path me = table.root().toRealPath();
      for (int attempt = 0; attempt < 10; attempt++) {
        Optional<String> recorded = readOwner(owner);
        if (recorded.isEmpty()) {
          if (write(owner, me, false)) {
            return;
          }
          continue;
        }
        Path other = Path.of(recorded.get());
        if (same(other, me)) {
          return;
        }
        if (stillOwns(other, tableId)) {
          throw copiedRoot(table, me, other, tableId, device, owner);
        }
        write(owner, me, true); // the recorded root is gone or another table: take over
        return;
      }
      throw new UncheckedIOException(
          new IOException("cannot record the owner of " + dir + ": it keeps changing"));
    } catch (IOException e) {
      throw MosaicException.io(
          "cannot check or record the owner of " + dir + " on device '" + device.id() + "'", e);
    }
  }

  private static CorruptTableException copiedRoot(
      MosaicTable table, Path me, Path other, String tableId, Device device, Path owner) {
    return new CorruptTableException(
        "table root "
            + me
            + " and table root "
            + other
            + " are the same table (id "
            + tableId
            + "), and the segment folder "
            + owner.getParent()
            + " on device '"
            + device.id()
            + "' belongs to "
            + other
            + " (its "
            + OWNER
            + " file says so). "
            + me
            + " looks like a copy of "
            + other
            + "'s directory (cp): a copy shares the original's segments, so gc, migrations and"
            + " writes through it would delete or change the original's data, and they are"
            + " refused. To copy a table, clone "
            + other
            + " (docs/format.md): the clone gets its own id and segments. Then remove the copied"
            + " directory "
            + me
            + " (its segments are "
            + other
            + "'s and stay). If "
            + other
            + " is the one to give up instead, remove that directory and "
            + me
            + " takes the folders over");
  }

  private static boolean same(Path recorded, Path me) {
    if (recorded.equals(me)) {
      return true;
    }
    try {
      return recorded.toRealPath().equals(me);
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether {@code root} is still a table with id {@code tableId}; unreadable: assumed so. */
  private static boolean stillOwns(Path root, String tableId) {
    if (!MosaicTable.exists(root)) {
      return false;
    }
    return MosaicTable.idOf(root).map(tableId::equals).orElse(true);
  }

  private static Optional<String> readOwner(Path owner) throws IOException {
    try {
      String text =
          new String(
                  MetadataFiles.read(owner, OWNER_LIMIT, "table folder owner file"),
                  StandardCharsets.UTF_8)
              .strip();
      return text.isEmpty() ? Optional.empty() : Optional.of(text);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Writes the owner file: create-if-absent (false if another was first), or replacing. */
  private static boolean write(Path owner, Path me, boolean replace) throws IOException {
    Path tmp =
        owner.resolveSibling(
            OWNER + ".tmp-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID());
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap((me + "\n").getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      if (replace) {
        Files.move(tmp, owner, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return true;
      }
      Files.createLink(owner, tmp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (NoSuchFileException e) {
      return false; // the temporary file was taken for debris meanwhile: try again
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
