package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.config.MetadataFiles;
import io.mosaic.device.Device;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A table's segment folders, {@code <device root>/<table id>/} (docs/format.md, "Devices, owners
 * and what gc refuses"): which table root owns each one, and which paths in them gc and migrations
 * may delete.
 *
 * <p>Each folder holds a file {@value #OWNER} with the real path of the table root that created it.
 * A copy of a table root made with {@code cp} keeps the table id, so without it both roots would
 * take the folder for their own and each one's gc would delete the segments only the other's
 * versions refer to. The table id says which table a folder is; the owner file says which root of
 * it may change the folder. Writes, migrations, gc and drops through any other root are refused:
 * one that is still this table owns it (the root at hand is a copy), or it is gone (the root at
 * hand was moved, or is a copy of a moved root: the two cannot be told apart, so the move is
 * confirmed by hand with {@link #adopt}). A folder written before owner files existed has none; the
 * first root that writes, migrates or collects there records itself.
 */
public final class TableFolders {
  /** Name of the owner file in a table's segment folder. */
  public static final String OWNER = "_owner";

  private static final long OWNER_LIMIT = 64 << 10;
  private static final String INODE = "inode=";
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
              + table.manifestLocation(m.version())
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
   * Whether gc and migrations may delete {@code relative} on {@code device}: only a file strictly
   * inside {@code <device root>/<table id>/} once symlinks are followed (not a non-canonical path,
   * a table folder or sub-folder that is a link elsewhere, a directory, or the owner file).
   */
  public static boolean deletable(Device device, String tableId, String relative) {
    return isPlainId(tableId)
        && isCanonical(tableId, relative)
        && !relative.equals(ownerKey(tableId))
        && device.plainFileIn(tableId, relative);
  }

  private static String ownerKey(String tableId) {
    return tableId + "/" + OWNER;
  }

  /** Who owns the table's folder on a device, as seen from one table root. */
  private enum Owner {
    /** No folder, or a folder with no owner file yet (written before owner files existed). */
    NONE,
    /** This root. */
    THIS,
    /** Another root that is still this table: this root is a copy of it. */
    COPY,
    /**
     * A root that is gone or is no longer this table: this root was moved from there, or copied
     * from a root that was moved; only the person who did it knows which ({@link #adopt}).
     */
    UNMATCHED,
  }

  /**
   * What an owner file records: the root's real path and, where the file system has them, the root
   * directory's inode number. A move within a file system keeps the inode and a copy gets a new
   * one, so a copy put at the recorded path after the original was moved away is not taken for the
   * owner. Owner files written before inodes were recorded have none: path only.
   */
  private record Recorded(String root, Long inode) {
    /** Whether the directory at the recorded path is still the recorded one. */
    boolean sameDirectory() {
      return inode == null || inode.equals(inodeOf(root));
    }
  }

  /**
   * What an owner file records of {@code table}: its root's real path, or its URI on a storage
   * other than local files (where a copy gets another URI, and there is no inode).
   */
  private static String identity(MosaicTable table) throws IOException {
    return table.lockFree() ? table.location() : table.root().toRealPath().toString();
  }

  /**
   * The owner of one folder: whom its owner file names, and what that means for this root; {@code
   * folder} names the folder in messages (a path, or a URI on HDFS).
   */
  private record Ownership(
      Device device, String key, String folder, Owner owner, Recorded recorded) {}

  private static Ownership ownership(MosaicTable table, String me, String tableId, Device device)
      throws IOException {
    String folder = device.where(tableId);
    if (!device.isFolder(tableId)) {
      return new Ownership(device, tableId, folder, Owner.NONE, null);
    }
    Optional<Recorded> recorded = readOwner(device, ownerKey(tableId));
    if (recorded.isEmpty()) {
      return new Ownership(device, tableId, folder, Owner.NONE, null);
    }
    Recorded r = recorded.get();
    boolean sameDirectory = r.sameDirectory();
    Owner owner =
        sameDirectory && same(r.root(), me)
            ? Owner.THIS
            : sameDirectory && stillOwns(table, r.root(), tableId) ? Owner.COPY : Owner.UNMATCHED;
    return new Ownership(device, tableId, folder, owner, r);
  }

  /** The inode number of a directory, or null where the file system does not give one. */
  private static Long inode(Path dir) {
    try {
      return Files.getAttribute(dir, "unix:ino") instanceof Long ino ? ino : null;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether dropping {@code table} deletes its folder on {@code device}: yes when this root owns it
   * (or nobody is recorded), no when it belongs to another root that is still this table (this root
   * is a copy, and the segments are the original's). A folder whose recorded owner is gone is
   * refused, as for any deletion: this root may be a copy of a moved table.
   */
  public static boolean dropsFolder(MosaicTable table, String tableId, Device device) {
    try {
      Ownership o = ownership(table, identity(table), tableId, device);
      if (o.owner() == Owner.UNMATCHED) {
        throw unmatched(table, tableId, o, "dropping it is refused");
      }
      return o.owner() != Owner.COPY;
    } catch (IOException e) {
      return false; // unreadable owner: leave the folder alone
    }
  }

  /**
   * Checks the owner of the table's folder on {@code device} if the folder exists (gc, migrations);
   * see {@link #claim}.
   */
  public static void checkOwner(MosaicTable table, String tableId, Device device) {
    boolean folder;
    try {
      folder = device.isFolder(tableId);
    } catch (IOException e) {
      throw MosaicException.io(
          "cannot check the folder " + device.where(tableId) + " on device '" + device.id() + "'",
          e);
    }
    if (folder) {
      claim(table, tableId, device);
    }
  }

  /**
   * Creates the table's folder on {@code device} if needed and makes sure this table root owns it:
   * refuses (naming both roots) when another root owns a folder of this table on any device of the
   * pool, whether that root is still the table (this root is a copy) or gone (this root was moved,
   * or is a copy of a moved root: {@link #adopt} settles it); records this root where no owner is
   * recorded.
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
    String dir = device.where(tableId);
    String owner = ownerKey(tableId);
    try {
      String me = identity(table);
      // Every folder, not only this one: a copy writing to a device the original never used would
      // own that folder, and the original's writes there would be refused.
      for (Device d : table.pool().devices()) {
        if (!d.id().equals(device.id())) {
          refuseUnlessOwned(table, tableId, ownership(table, me, tableId, d));
        }
      }
      // The owner file's create makes the folder.
      for (int attempt = 0; attempt < 10; attempt++) {
        Ownership o = ownership(table, me, tableId, device);
        if (o.owner() != Owner.NONE) {
          refuseUnlessOwned(table, tableId, o);
          if (o.recorded().inode() == null && inodeOf(me) != null) {
            write(device, owner, me, true); // an owner file from before inodes were recorded
          }
          return;
        }
        if (write(device, owner, me, false)) {
          return;
        }
      }
      throw new UncheckedIOException(
          new IOException("cannot record the owner of " + dir + ": it keeps changing"));
    } catch (IOException e) {
      throw MosaicException.io(
          "cannot check or record the owner of " + dir + " on device '" + device.id() + "'", e);
    }
  }

  private static void refuseUnlessOwned(MosaicTable table, String tableId, Ownership o)
      throws IOException {
    if (o.owner() == Owner.COPY) {
      throw copiedRoot(table, identity(table), o.recorded().root(), tableId, o);
    }
    if (o.owner() == Owner.UNMATCHED) {
      throw unmatched(table, tableId, o, "writes, migrations and gc through it are refused");
    }
  }

  /** What {@link #adopt} did: the devices whose folders now name this root, and whom they named. */
  public record Adoption(
      String tableId, List<String> adopted, List<String> owned, List<String> from) {
    public Adoption {
      adopted = List.copyOf(adopted);
      owned = List.copyOf(owned);
      from = List.copyOf(from);
    }
  }

  /**
   * Makes {@code table}'s root the owner of its segment folders after the root was moved (by hand,
   * or by {@link Warehouse#rename}): every folder whose owner file names a root that is gone or is
   * no longer this table, and that {@code previous} accepts, is recorded as this root's. Refused,
   * changing nothing, when a folder's owner is another root that is still this table: this root is
   * then a copy, not the moved table. The person adopting vouches that this root is the moved table
   * and not a copy of it (docs/operations.md, "adopt").
   */
  public static Adoption adopt(MosaicTable table, Predicate<String> previous) {
    String tableId = table.latest().tableId();
    requirePlainId(table, table.latest(), "adopting the segment folders");
    try {
      String me = identity(table);
      List<Ownership> folders = new ArrayList<>();
      for (Device d : table.pool().devices()) {
        Ownership o = ownership(table, me, tableId, d);
        if (o.owner() == Owner.COPY) {
          throw copiedRoot(table, me, o.recorded().root(), tableId, o);
        }
        if (o.device().isFolder(o.key())) {
          folders.add(o);
        }
      }
      List<String> adopted = new ArrayList<>();
      List<String> owned = new ArrayList<>();
      List<String> from = new ArrayList<>();
      for (Ownership o : folders) {
        if (o.owner() == Owner.THIS) {
          owned.add(o.device().id());
        } else if (o.owner() == Owner.NONE || previous.test(o.recorded().root())) {
          write(o.device(), ownerKey(o.key()), me, true);
          adopted.add(o.device().id());
          if (o.recorded() != null && !from.contains(o.recorded().root())) {
            from.add(o.recorded().root());
          }
        }
      }
      return new Adoption(tableId, adopted, owned, from);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot adopt the segment folders of table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  private static CorruptTableException unmatched(
      MosaicTable table, String tableId, Ownership o, String refused) {
    String me;
    try {
      me = identity(table);
    } catch (IOException e) {
      me = table.location();
    }
    String other = o.recorded().root();
    String why =
        !exists(table, other)
            ? "no table is there any more"
            : !o.recorded().sameDirectory()
                ? "the directory there is not the one recorded (inode "
                    + inodeOf(other)
                    + ", recorded "
                    + o.recorded().inode()
                    + "): it was put there by a copy or a restore, after the table was moved away"
                : "the table there has another id ("
                    + idOf(table, other).orElse("unreadable")
                    + ")";
    return new CorruptTableException(
        "table root "
            + me
            + " (table id "
            + tableId
            + ") does not own its segment folder "
            + o.folder()
            + " on device '"
            + o.device().id()
            + "': the folder's "
            + OWNER
            + " file names "
            + other
            + ", and "
            + why
            + ". So "
            + me
            + " was moved from there, or is a copy (cp) of a root that was moved; from here the two"
            + " look the same, and a copy would delete or change the original's segments, so "
            + refused
            + " (reads are not). If "
            + me
            + " is the moved table itself, adopt its folders: `mosaic adopt --devices D --table "
            + me
            + "` (docs/operations.md). If it is a copy, clone the original with `mosaic clone`"
            + " instead and remove "
            + me
            + " (its segments are the original's and stay)");
  }

  private static CorruptTableException copiedRoot(
      MosaicTable table, String me, String other, String tableId, Ownership o) {
    Device device = o.device();
    return new CorruptTableException(
        "table root "
            + me
            + " and table root "
            + other
            + " are the same table (id "
            + tableId
            + "), and the segment folder "
            + o.folder()
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
            + " is the one to give up instead, remove that directory and adopt the folders from "
            + me
            + " (`mosaic adopt`, docs/operations.md)");
  }

  private static boolean same(String recorded, String me) {
    if (recorded.equals(me)) {
      return true;
    }
    if (MosaicTable.isRemote(recorded) || MosaicTable.isRemote(me)) {
      return false;
    }
    try {
      return Path.of(recorded).toRealPath().equals(Path.of(me));
    } catch (IOException | java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  private static Long inodeOf(String root) {
    return MosaicTable.isRemote(root) ? null : inode(Path.of(root));
  }

  private static boolean exists(MosaicTable table, String root) {
    try {
      return MosaicTable.exists(root, table.pool());
    } catch (RuntimeException e) {
      return true; // unreachable: assumed still there, so nothing is taken from it
    }
  }

  private static Optional<String> idOf(MosaicTable table, String root) {
    if (!MosaicTable.isRemote(root)) {
      return MosaicTable.idOf(Path.of(root));
    }
    try {
      return Optional.of(MosaicTable.open(root, table.pool()).latest().tableId());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Whether {@code root} is still a table with id {@code tableId}; unreadable: assumed so. */
  private static boolean stillOwns(MosaicTable table, String root, String tableId) {
    if (!exists(table, root)) {
      return false;
    }
    return idOf(table, root).map(tableId::equals).orElse(true);
  }

  /**
   * The owner file: the root's path on the first line, then {@code inode=<n>} if recorded. The
   * inode is the table root's, recorded where the root's file system has one, whatever storage the
   * device is on (docs/format.md, "Devices, owners and what gc refuses").
   */
  private static Optional<Recorded> readOwner(Device device, String key) throws IOException {
    try {
      String text =
          new String(
                  MetadataFiles.read(device.storage(), key, OWNER_LIMIT, "table folder owner file"),
                  StandardCharsets.UTF_8)
              .strip();
      if (text.isEmpty()) {
        return Optional.empty();
      }
      String[] lines = text.split("\n");
      Long inode = null;
      for (int i = 1; i < lines.length; i++) {
        if (lines[i].startsWith(INODE)) {
          try {
            inode = Long.parseLong(lines[i].substring(INODE.length()).strip());
          } catch (NumberFormatException e) {
            inode = -1L; // damaged: matches no directory, so nobody owns the folder until adopted
          }
        }
      }
      return Optional.of(new Recorded(lines[0].strip(), inode));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * Writes the owner file {@code key} of {@code device}: created only if absent (false if another
   * was first; the storage's exclusive create, so of racing roots one wins), or replacing.
   */
  private static boolean write(Device device, String key, String me, boolean replace)
      throws IOException {
    Long inode = inodeOf(me);
    byte[] text =
        (me + "\n" + (inode == null ? "" : INODE + inode + "\n")).getBytes(StandardCharsets.UTF_8);
    if (replace) {
      device.storage().replace(key, text);
      return true;
    }
    try {
      device.storage().createExclusive(key, text);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }
}
