package io.mosaic.maintenance;

import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.SegmentReader;
import io.mosaic.storage.Storage;
import io.mosaic.table.CommitGate;
import io.mosaic.table.LockFile;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.Retention;
import io.mosaic.table.RetentionGc;
import io.mosaic.table.TableFolders;
import io.mosaic.table.TableNotFoundException;
import io.mosaic.table.VersionLog;
import io.mosaic.table.WriterLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Removes what no reader can need: versions other than the latest and the pinned ones, and segment
 * files no kept version refers to (left by migrations, failed jobs or crashes). A file is only
 * removed when its writer is gone (its lock released) and it is older than a grace period, so a
 * task's output survives until its job commits.
 *
 * <p>gc deletes only what it can prove is its own (docs/format.md, "Devices, owners and what gc
 * refuses"): it refuses to run when a kept version names a device the pool does not have or a
 * segment path that is not a plain path in the table's folder, when the table id is not a UUID,
 * when a device's directory is not the one the pool loaded (its marker), or when this table root
 * does not own the table's folders (a copied root); and it deletes a file only if it is strictly
 * inside {@code <device root>/<table id>/} once symlinks are followed.
 */
public final class GarbageCollector {
  /** What a collection removed. */
  public record Report(int manifests, int files, Map<String, Long> bytesFreed) {
    public long totalBytes() {
      return bytesFreed.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * The least age of a hidden file gc deletes: a backend's temporary file of an atomic create (an
   * owner file's) names no writer, and is written and renamed within moments; one left longer was
   * left by a process that died.
   */
  static final Duration LEFTOVER_AGE = Duration.ofHours(1);

  private final MosaicTable table;

  public GarbageCollector(MosaicTable table) {
    this.table = table;
  }

  /** Collects; files younger than {@code grace} are kept even when unreferenced. */
  public Report collect(Duration grace) {
    if (table.lockFree()) {
      return collectByRetention(grace);
    }
    try (CommitGate.Hold hold = CommitGate.exclusive(table.root())) {
      Manifest latest = table.latest();
      String tableId = latest.tableId();
      TableFolders.requirePlainId(table, latest, "gc");
      Set<FileCheck> filesChecked = new HashSet<>();
      checkKept(keptBefore(latest, "gc"), "gc", filesChecked);
      for (Device device : table.pool().devices()) {
        device.checkIdentity();
        TableFolders.checkOwner(table, tableId, device);
      }
      Live live = retireVersions(latest, "gc");
      checkKept(live.manifests(), "gc", filesChecked);
      Report report = deleteUnreferenced(tableId, live.files(), grace, live.retired());
      deleteStaleWriterLocks();
      LockFile.deleteTemporaryDebris(table.root().resolve(MosaicTable.PINS));
      LockFile.deleteTemporaryDebris(table.root().resolve(MosaicTable.WRITERS));
      return report;
    }
  }

  /**
   * Deletes {@code segments} now (a migration's old files) unless a version a reader may still open
   * refers to them. Old versions no reader has pinned are retired first, as in {@link #collect}: a
   * reader that read the latest version before the migration committed and pins it afterwards then
   * finds it gone and pins the new one, instead of reading deleted files.
   */
  void retire(Collection<SegmentEntry> segments) {
    if (table.lockFree()) {
      return; // kept by time: the next gc after the retention deletes them (collectByRetention)
    }
    try (CommitGate.Hold hold = CommitGate.exclusive(table.root())) {
      Manifest latest = table.latest();
      String tableId = latest.tableId();
      TableFolders.requirePlainId(table, latest, "deleting the old segments");
      Set<FileCheck> filesChecked = new HashSet<>();
      checkKept(
          keptBefore(latest, "deleting the old segments"),
          "deleting the old segments",
          filesChecked);
      Set<String> checked = new HashSet<>();
      for (SegmentEntry s : segments) {
        if (table.pool().devices().stream().anyMatch(d -> d.id().equals(s.device()))
            && checked.add(s.device())) {
          Device device = table.pool().device(s.device());
          device.checkIdentity();
          TableFolders.checkOwner(table, tableId, device);
        }
      }
      Live live = retireVersions(latest, "deleting the old segments");
      checkKept(live.manifests(), "deleting the old segments", filesChecked);
      Set<String> keep = live.files();
      for (SegmentEntry s : segments) {
        if (!keep.contains(key(s.device(), s.path())) && checked.contains(s.device())) {
          Device device = table.pool().device(s.device());
          try {
            if (TableFolders.deletable(device, tableId, s.path())
                && device.storage().delete(s.path())) {
              device.release(s.fileBytes());
            }
          } catch (IOException e) {
            // left for the next gc
          }
        }
      }
    }
  }

  /**
   * Drops the table: its segment folder on every device, each folder's bytes released from the
   * device's accounting ({@link Device#release}, as {@link #collect} and {@link #retire} do), then
   * its root, all under the exclusive hold, so no commit lands meanwhile. As for any gc deletion,
   * every device's directory must still be the one the pool loaded (its marker), and a folder whose
   * owner file names another root that is still this table is left alone: this root is then a copy
   * of that table (docs/format.md, "Devices, owners and what gc refuses"), and the segments are the
   * original's. A folder whose owner is gone refuses the drop before anything is deleted (this root
   * may be a copy of a moved table). A table whose manifests cannot be read loses only its root.
   */
  public void drop() {
    if (table.lockFree()) {
      dropLockFree();
      return;
    }
    Path root = table.root();
    try (CommitGate.Hold hold = CommitGate.exclusive(root)) {
      String tableId = MosaicTable.idOf(root).orElse(null);
      if (TableFolders.isPlainId(tableId)) {
        List<Device> folders = new ArrayList<>();
        try {
          for (Device d : table.pool().devices()) {
            if (d.isFolder(tableId)) {
              d.checkIdentity(); // before deleting anything anywhere
              folders.add(d);
            }
          }
          List<Device> owned =
              folders.stream().filter(d -> TableFolders.dropsFolder(table, tableId, d)).toList();
          for (Device d : owned) {
            d.deleteTree(tableId); // its bytes released from the device's accounting
          }
        } catch (IOException e) {
          throw new UncheckedIOException(
              "cannot drop table " + table.name() + ": " + e.getMessage(), e);
        }
      }
      MosaicTable.deleteTree(root);
    }
  }

  /**
   * gc of a lock-free table ({@link RetentionGc}, docs/format.md "Commits without POSIX locks"): no
   * hold on the table; versions retire by time, and a segment goes when no version inside the
   * retention names it and its writer's lease expired (or, without a lease, it is older than {@code
   * grace}). The same refusals as on local files come first.
   */
  private Report collectByRetention(Duration grace) {
    Manifest latest = table.latest();
    String tableId = latest.tableId();
    TableFolders.requirePlainId(table, latest, "gc");
    checkKept(List.of(latest), "gc", new HashSet<>());
    for (Device device : table.pool().devices()) {
      device.checkIdentity();
      TableFolders.checkOwner(table, tableId, device);
    }
    VersionLog log = table.log();
    Retention r = log.retention();
    Retention retention = new Retention(r.versions(), r.tombstones(), grace, r.lease(), r.skew());
    Map<String, Long> freed = new HashMap<>();
    RetentionGc.DataFiles files =
        new RetentionGc.DataFiles() {
          @Override
          public List<RetentionGc.DataFile> list() throws IOException {
            List<RetentionGc.DataFile> all = new ArrayList<>();
            for (Device device : table.pool().devices()) {
              if (!device.isFolder(tableId)) {
                continue;
              }
              for (Storage.FileStatus f : device.files(tableId)) {
                if (!f.key().equals(tableId + "/" + TableFolders.OWNER)) {
                  all.add(
                      new RetentionGc.DataFile(
                          key(device.id(), f.key()),
                          WriterLock.idOf(f.name()),
                          f.modifiedMillis(),
                          f.name().startsWith(".")));
                }
              }
            }
            return all;
          }

          @Override
          public boolean delete(RetentionGc.DataFile file) throws IOException {
            int split = file.id().indexOf('\0');
            Device device = table.pool().device(file.id().substring(0, split));
            String relative = file.id().substring(split + 1);
            if (!TableFolders.deletable(device, tableId, relative)) {
              return false;
            }
            long size = device.deleteFile(relative);
            if (size >= 0) {
              freed.merge(device.id(), size, Long::sum);
            }
            return size >= 0;
          }
        };
    try {
      RetentionGc.Report report =
          new RetentionGc(
                  log,
                  retention,
                  content -> {
                    Set<String> ids = new HashSet<>();
                    addFiles(ids, List.of(ManifestFile.decode(content, "a kept manifest")));
                    return ids;
                  },
                  files,
                  log.clock())
              .collect();
      return new Report(report.retired(), report.files(), freed);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "gc of table " + table.name() + " stopped: " + e.getMessage(), e);
    }
  }

  /** Drops a lock-free table: its owned segment folders, then every file under its location. */
  private void dropLockFree() {
    String tableId = table.latest().tableId();
    try {
      if (TableFolders.isPlainId(tableId)) {
        List<Device> folders = new ArrayList<>();
        for (Device d : table.pool().devices()) {
          if (d.isFolder(tableId)) {
            d.checkIdentity();
            folders.add(d);
          }
        }
        for (Device d : folders) {
          if (TableFolders.dropsFolder(table, tableId, d)) {
            d.deleteTree(tableId);
          }
        }
      }
      table.log().storage().deleteTree(table.log().prefix());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot drop table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  /** The latest version and the versions pinned now: what a retirement will keep at least. */
  private List<Manifest> keptBefore(Manifest latest, String action) {
    List<Manifest> kept = new ArrayList<>(List.of(latest));
    for (long v : table.pinnedVersions()) {
      if (v != latest.version()) {
        Manifest m = pinned(v, action);
        if (m != null) {
          kept.add(m);
        }
      }
    }
    return kept;
  }

  /**
   * The manifest of pinned version {@code v}, or null when no reader can be reading it (it never
   * existed, or it is damaged). Any other failure to read it (an I/O error) stops gc before it
   * deletes a file: the reader may hold that version, and its files must stay.
   */
  private Manifest pinned(long v, String action) {
    try {
      return table.version(v);
    } catch (TableNotFoundException | CorruptTableException e) {
      return null;
    } catch (RuntimeException e) {
      throw new UncheckedIOException(
          action
              + " of table "
              + table.name()
              + " stopped before deleting any file: cannot read version v"
              + v
              + ", which a reader has pinned ("
              + e.getMessage()
              + "); its files are kept. Fix the metadata device's error and run gc again",
          e instanceof UncheckedIOException u ? u.getCause() : new IOException(e));
    }
  }

  /**
   * Refuses to delete anything when a kept version names a device the pool does not have (a device
   * renamed or removed from devices.toml: its files would look like nobody's) or a segment path
   * that is not a plain path in the table's folder (it would not match the file gc finds there).
   */
  private void checkKept(List<Manifest> kept, String action, Set<FileCheck> filesChecked) {
    Set<String> ids = new HashSet<>();
    table.pool().devices().forEach(d -> ids.add(d.id()));
    for (Manifest m : kept) {
      for (SegmentEntry s : m.segments()) {
        if (!ids.contains(s.device())) {
          throw new CorruptTableException(
              action
                  + " of table "
                  + table.name()
                  + " refused: version v"
                  + m.version()
                  + ", which is kept, stores column "
                  + s.column()
                  + " on device '"
                  + s.device()
                  + "', which "
                  + table.pool().configFile()
                  + " does not define (it defines: "
                  + String.join(", ", ids.stream().sorted().toList())
                  + "). Was the device renamed or removed? Give it its id back (a device cannot"
                  + " be renamed), or add it again; nothing was deleted");
        }
        if (!TableFolders.isCanonical(m.tableId(), s.path())) {
          throw new CorruptTableException(
              action
                  + " of table "
                  + table.name()
                  + " refused: version v"
                  + m.version()
                  + ", which is kept, names the segment path '"
                  + s.path()
                  + "' (column "
                  + s.column()
                  + ", device '"
                  + s.device()
                  + "'), which is not a plain path inside the table's folder ("
                  + m.tableId()
                  + "/...); the manifest is damaged or was not written by Mosaic, and nothing"
                  + " was deleted");
        }
        // Kept versions share most segments, and a run checks its kept versions twice (before
        // and after retiring): read each footer once for what the check compares it with.
        if (filesChecked.add(FileCheck.of(m, s))) {
          checkFile(m, s, action);
        }
      }
    }
  }

  /**
   * All that {@link SegmentReader#checkFooter} compares a segment's file with: the entry, and of
   * its manifest the table id, the column's spec and the rows of the segment's row groups.
   */
  private record FileCheck(
      String tableId, ColumnSpec column, List<Long> rows, SegmentEntry segment) {
    static FileCheck of(Manifest m, SegmentEntry s) {
      int from = s.firstRowGroup();
      int to = from + s.rowGroupCount();
      List<Long> rows =
          from >= 0 && to <= m.rowGroups().size() ? m.rowGroups().subList(from, to) : m.rowGroups();
      return new FileCheck(
          m.tableId(),
          m.schema().columns().stream()
              .filter(c -> c.name().equals(s.column()))
              .findFirst()
              .orElse(null),
          rows,
          s);
    }
  }

  /**
   * Refuses to delete anything when a segment a kept version names is not on its device as named
   * (missing, another size, or a file whose footer is not what the manifest says of it): a manifest
   * that misnames a segment's device or path would otherwise make gc take the real file, wherever
   * it lies, for garbage, and correcting the manifest could no longer recover the table.
   */
  private void checkFile(Manifest m, SegmentEntry s, String action) {
    Device device = table.pool().device(s.device());
    String file = device.where(s.path());
    String problem;
    try {
      SegmentReader.checkFooter(table.name(), m, device, s);
      return;
    } catch (NoSuchFileException e) {
      List<String> elsewhere = new ArrayList<>();
      for (Device d : table.pool().devices()) {
        if (!d.id().equals(s.device()) && isFile(d, s.path())) {
          elsewhere.add("'" + d.id() + "'");
        }
      }
      problem =
          "which is not there"
              + (elsewhere.isEmpty()
                  ? ""
                  : " (a file of that path is on device " + String.join(", ", elsewhere) + ")");
    } catch (CorruptTableException e) {
      problem = "which is not the file the manifest describes: " + e.getMessage();
    } catch (IOException | RuntimeException e) {
      problem = "which cannot be read: " + e.getMessage();
    }
    throw new CorruptTableException(
        action
            + " of table "
            + table.name()
            + " refused: version v"
            + m.version()
            + ", which is kept, names segment "
            + s.path()
            + " of column "
            + s.column()
            + " (row groups "
            + s.firstRowGroup()
            + " to "
            + (s.firstRowGroup() + s.rowGroupCount() - 1)
            + ") on device '"
            + s.device()
            + "' as "
            + file
            + ", "
            + problem
            + ". Nothing was deleted: correct the manifest, or roll back to a version whose"
            + " segments are all in place (mosaic rollback --to <version>), then run gc again");
  }

  private static boolean isFile(Device device, String key) {
    try {
      return device.storage().stat(key).map(f -> !f.folder()).orElse(false);
    } catch (IOException e) {
      return false;
    }
  }

  /** What survives a retirement: the latest version and the pinned ones, and their files. */
  private record Live(List<Manifest> manifests, Set<String> files, int retired) {}

  /**
   * Deletes the manifests of versions older than the latest that no reader has pinned; must run
   * under the exclusive {@link CommitGate} hold, so that no newer version appears meanwhile.
   *
   * <p>Readers pin first and then check that their version still exists (docs/format.md), so a pin
   * taken while the manifests are being deleted either sees its version gone (and pins the latest)
   * or is seen by the second look at the pins below, whose versions' files are kept from the
   * manifests read before deleting them.
   */
  private Live retireVersions(Manifest latest, String action) {
    Set<Long> pinnedBefore = table.pinnedVersions();
    Map<Long, Manifest> retired = new LinkedHashMap<>();
    for (long v : table.versions()) {
      if (v < latest.version() && !pinnedBefore.contains(v)) {
        try {
          retired.put(v, table.version(v));
        } catch (TableNotFoundException e) {
          // retired meanwhile
        } catch (RuntimeException e) {
          retired.put(v, null); // unreadable old version: nothing of it can be read either
        }
      }
    }
    int manifests = 0;
    for (Map.Entry<Long, Manifest> r : retired.entrySet()) {
      Path file = table.manifestFile(r.getKey());
      try {
        if (r.getValue() == null ? moveAside(file) : Files.deleteIfExists(file)) {
          manifests++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete " + file, e);
      }
    }
    List<Manifest> live = new ArrayList<>(List.of(latest));
    Set<Long> pinnedNow = new HashSet<>(pinnedBefore);
    pinnedNow.addAll(table.pinnedVersions());
    for (long v : pinnedNow) {
      Manifest m = retired.get(v);
      if (m == null && v != latest.version()) {
        m = pinned(v, action);
      }
      if (m != null) {
        live.add(m);
      }
    }
    Set<String> keep = new HashSet<>();
    addFiles(keep, live);
    return new Live(live, keep, manifests);
  }

  /**
   * Moves an old manifest gc cannot read (damaged: a rollback left it behind, or a directory) to
   * {@code _manifests/_damaged/}, for a person to look at, instead of deleting it.
   */
  private static boolean moveAside(Path file) throws IOException {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    Path dir = file.resolveSibling(MosaicTable.DAMAGED);
    Files.createDirectories(dir);
    Path target = dir.resolve(file.getFileName());
    for (int n = 1; Files.exists(target, LinkOption.NOFOLLOW_LINKS); n++) {
      target = dir.resolve(file.getFileName() + "." + n);
    }
    Files.move(file, target);
    return true;
  }

  private static void addFiles(Set<String> keep, List<Manifest> manifests) {
    for (Manifest m : manifests) {
      for (SegmentEntry s : m.segments()) {
        keep.add(key(s.device(), s.path()));
      }
    }
  }

  private static String key(String device, String path) {
    return device + "\0" + path;
  }

  private Report deleteUnreferenced(
      String tableId, Set<String> keep, Duration grace, int manifests) {
    Map<String, Long> freed = new HashMap<>();
    int deleted = 0;
    Instant cutoff = Instant.now().minus(grace);
    Instant leftoverCutoff =
        Instant.now().minus(LEFTOVER_AGE.compareTo(grace) > 0 ? LEFTOVER_AGE : grace);
    Map<String, Boolean> writerAlive = new HashMap<>();
    for (Device device : table.pool().devices()) {
      List<Storage.FileStatus> files;
      try {
        if (!device.isFolder(tableId)) {
          continue; // absent, or a link out of the device: nothing of this table's to delete
        }
        files = device.files(tableId);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + device.where(tableId), e);
      }
      for (Storage.FileStatus f : files) {
        String relative = f.key();
        if (keep.contains(key(device.id(), relative))
            || relative.equals(tableId + "/" + TableFolders.OWNER)) {
          continue;
        }
        if (f.name().startsWith(".")
            && Instant.ofEpochMilli(f.modifiedMillis()).isAfter(leftoverCutoff)) {
          continue; // a backend's temporary file, maybe being written (see LEFTOVER_AGE)
        }
        String writer = WriterLock.idOf(f.name());
        boolean alive =
            writerAlive.computeIfAbsent(
                writer,
                w ->
                    MosaicTable.isLocked(
                        table.root().resolve(MosaicTable.WRITERS).resolve(w + ".lock")));
        try {
          if (alive
              || Instant.ofEpochMilli(f.modifiedMillis()).isAfter(cutoff)
              || !TableFolders.deletable(device, tableId, relative)) {
            continue;
          }
          long size = device.deleteFile(relative);
          if (size >= 0) {
            freed.merge(device.id(), size, Long::sum);
            deleted++;
          }
        } catch (IOException e) {
          // left for the next gc
        }
      }
    }
    return new Report(manifests, deleted, freed);
  }

  private void deleteStaleWriterLocks() {
    Path dir = table.root().resolve(MosaicTable.WRITERS);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().endsWith(".lock") && !MosaicTable.isLocked(f)) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      // harmless: stale lock files only
    }
  }
}
