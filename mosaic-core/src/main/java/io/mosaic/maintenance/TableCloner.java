package io.mosaic.maintenance;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.device.Device;
import io.mosaic.device.DeviceFullException;
import io.mosaic.device.DevicePool;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.SegmentStamp;
import io.mosaic.storage.Storage;
import io.mosaic.table.CommitGate;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TablePin;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriterLock;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Copies a table properly ({@code mosaic clone}): the copy gets a new table id, and every segment
 * of the source's latest version is copied byte for byte to the same device under the new id, its
 * checksum checked against the manifest and read back from the device; all of them land in one
 * commit. The source stays readable and writable meanwhile (its version is pinned while copying),
 * and gc of either table never touches the other's files. Copying a table root with {@code cp}
 * instead keeps the id and shares the segments, which gc, migrations and writes refuse.
 */
public final class TableCloner {
  private static final List<String> CREATED =
      List.of(
          MosaicTable.MANIFESTS, MosaicTable.PINS, MosaicTable.WRITERS, CommitGate.FILE, "_trace");

  /** Progress, for a person at a terminal. */
  public interface Listener {
    default void copied(SegmentEntry segment, long bytes) {}
  }

  /** What a clone made: the new table, its first version with data, and the bytes copied. */
  public record Result(MosaicTable table, Manifest manifest, long sourceVersion, long bytes) {}

  private TableCloner() {}

  /** Clones to a local directory (see {@link #cloneTable(MosaicTable, String, Listener)}). */
  public static Result cloneTable(MosaicTable source, Path target, Listener listener)
      throws IOException {
    return cloneTable(source, target.toAbsolutePath().normalize().toString(), listener);
  }

  /**
   * Clones the latest version of {@code source} to a new table at {@code target} (which must not be
   * a table), on the same devices: a local directory (the local protocol) or a URI such as {@code
   * hdfs://nn:8020/warehouse/orders} (the lock-free protocol, docs/format.md "Commits without POSIX
   * locks"), whichever protocol the source uses. On failure nothing of the clone is left.
   */
  public static Result cloneTable(MosaicTable source, String target, Listener listener)
      throws IOException {
    DevicePool pool = source.pool();
    if (MosaicTable.exists(target, pool)) {
      throw MosaicException.invalid(
          "cannot clone table "
              + source.name()
              + " to "
              + target
              + ": a Mosaic table already exists there; give a new directory");
    }
    Root root = Root.before(target, pool);
    try (TablePin pin = source.pin()) {
      Manifest from = pin.manifest();
      TableFolders.requirePlainId(source, from, "clone");
      checkSpace(source, from);
      MosaicTable copy = MosaicTable.create(target, pool, from.schema(), from.properties());
      Manifest base = copy.latest();
      List<SegmentEntry> created = new ArrayList<>();
      long bytes = 0;
      try {
        try (WriterLock lock = new WriterLock(copy, "c")) {
          int n = 0;
          for (SegmentEntry s : from.segments()) {
            Device device = pool.device(s.device());
            copy.claimFolder(base.tableId(), device);
            String path = TableWriter.segmentPath(base, s.column(), lock.id(), n++);
            created.add(copySegment(source, device, s, path, base.tableId(), listener));
            bytes += s.fileBytes();
          }
          Manifest committed =
              copy.commit(
                  "clone",
                  b -> b.next("clone", from.rowGroups(), created).withDeletions(from.deletions()));
          return new Result(copy, committed, from.version(), bytes);
        }
      } catch (IOException | RuntimeException e) {
        undo(copy, base.tableId(), root);
        throw e;
      }
    }
  }

  /**
   * The clone's root before the clone: whether it existed. An existing folder on a storage other
   * than local files must be empty, since undoing a failed clone there removes all it holds (a
   * lock-free table's files have no fixed list of names, docs/format.md).
   */
  private record Root(boolean existed) {
    static Root before(String location, DevicePool pool) throws IOException {
      if (!MosaicTable.isRemote(location)) {
        return new Root(Files.exists(MosaicTable.localPath(location)));
      }
      Storage storage = pool.storages().shared(URI.create(location));
      Optional<Storage.FileStatus> stat = storage.stat("");
      if (stat.isPresent() && !storage.list("").isEmpty()) {
        throw MosaicException.invalid(
            "cannot clone to "
                + location
                + ": the folder is not empty; give a new or empty folder for the new table");
      }
      return new Root(stat.isPresent());
    }
  }

  private static void checkSpace(MosaicTable source, Manifest from) throws IOException {
    Map<String, Long> in = new LinkedHashMap<>();
    from.segments().forEach(s -> in.merge(s.device(), s.fileBytes(), Long::sum));
    for (Map.Entry<String, Long> e : in.entrySet()) {
      Device d = source.pool().device(e.getKey());
      long free = d.freeBytes();
      if (e.getValue() > free) {
        throw new DeviceFullException(
            "cannot clone table "
                + source.name()
                + ": its segments on device '"
                + d.id()
                + "' take "
                + ByteSize.ofBytes(e.getValue())
                + " but the device has "
                + ByteSize.ofBytes(Math.max(0, free))
                + " free (capacity "
                + d.spec().capacity()
                + "); free space or raise its capacity. Nothing was copied.");
      }
    }
  }

  /** Copies one segment byte for byte on its device, checked as {@link SegmentMover} checks. */
  private static SegmentEntry copySegment(
      MosaicTable source,
      Device device,
      SegmentEntry s,
      String path,
      String tableId,
      Listener listener)
      throws IOException {
    SegmentEntry copied;
    try {
      copied =
          SegmentMover.copyBytes(
              source.name(),
              device,
              s,
              device,
              path,
              // The copy records the clone's id as written: HDFS cannot correct it in place later.
              SegmentStamp.retag(device.storage(), s.path(), tableId).orElse(null),
              () -> Long.MAX_VALUE,
              n -> listener.copied(s, n));
    } catch (CorruptTableException e) {
      throw new CorruptTableException(e.getMessage() + "; nothing was cloned", e);
    }
    SegmentMover.verify(device, copied);
    return copied;
  }

  /** Removes what a failed clone made: its segments, its folders' owner files, its root. */
  private static void undo(MosaicTable copy, String tableId, Root root) {
    for (Device d : copy.pool().devices()) {
      try {
        if (TableFolders.isPlainId(tableId) && d.isFolder(tableId)) {
          d.deleteTree(tableId); // a new id: only this clone wrote there
        }
      } catch (IOException | RuntimeException e) {
        // what is left is unreferenced; gc of the clone (or a person) removes it
      }
    }
    if (copy.lockFree()) {
      try {
        Storage storage = copy.log().storage();
        String prefix = copy.log().prefix();
        if (root.existed()) {
          for (Storage.FileStatus f : storage.list(prefix)) {
            storage.deleteTree(f.key()); // the folder was empty: all of it is the clone's
          }
        } else {
          storage.deleteTree(prefix);
        }
      } catch (IOException | RuntimeException e) {
        // what is left is a table with no rows; dropping it removes it
      }
    } else if (root.existed()) {
      for (String name : CREATED) {
        deleteTree(copy.root().resolve(name));
      }
    } else {
      deleteTree(copy.root());
    }
  }

  private static long deleteTree(Path dir) {
    try {
      return MosaicTable.deleteTree(dir);
    } catch (java.io.UncheckedIOException e) {
      return 0; // what is left is unreferenced; gc of the clone (or a person) removes it
    }
  }
}
