package io.mosaic.table;

import io.mosaic.device.Device;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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
 */
public final class GarbageCollector {
  /** What a collection removed. */
  public record Report(int manifests, int files, Map<String, Long> bytesFreed) {
    public long totalBytes() {
      return bytesFreed.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final MosaicTable table;

  public GarbageCollector(MosaicTable table) {
    this.table = table;
  }

  /** Collects; files younger than {@code grace} are kept even when unreferenced. */
  public Report collect(Duration grace) {
    try (CommitGate.Hold hold = CommitGate.exclusive(table.root())) {
      Live live = retireVersions();
      Report report =
          deleteUnreferenced(live.latest().tableId(), live.files(), grace, live.retired());
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
  public void retire(Collection<SegmentEntry> segments) {
    try (CommitGate.Hold hold = CommitGate.exclusive(table.root())) {
      Set<String> keep = retireVersions().files();
      for (SegmentEntry s : segments) {
        if (!keep.contains(key(s.device(), s.path()))) {
          Device device = table.pool().device(s.device());
          try {
            if (Files.deleteIfExists(device.resolve(s.path()))) {
              device.release(s.fileBytes());
            }
          } catch (IOException e) {
            // left for the next gc
          }
        }
      }
    }
  }

  /** What survives a retirement: the latest version and the pinned ones, and their files. */
  private record Live(Manifest latest, Set<String> files, int retired) {}

  /**
   * Deletes the manifests of versions older than the latest that no reader has pinned; must run
   * under the exclusive {@link CommitGate} hold, so that no newer version appears meanwhile.
   *
   * <p>Readers pin first and then check that their version still exists (docs/format.md), so a pin
   * taken while the manifests are being deleted either sees its version gone (and pins the latest)
   * or is seen by the second look at the pins below, whose versions' files are kept from the
   * manifests read before deleting them.
   */
  private Live retireVersions() {
    Manifest latest = table.latest();
    Set<Long> pinnedBefore = table.pinnedVersions();
    Map<Long, Manifest> retired = new LinkedHashMap<>();
    for (long v : table.versions()) {
      if (v < latest.version() && !pinnedBefore.contains(v)) {
        try {
          retired.put(v, table.version(v));
        } catch (RuntimeException e) {
          retired.put(v, null); // unreadable old version: nothing of it can be read either
        }
      }
    }
    int manifests = 0;
    for (long v : retired.keySet()) {
      try {
        if (Files.deleteIfExists(table.manifestFile(v))) {
          manifests++;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete " + table.manifestFile(v), e);
      }
    }
    List<Manifest> live = new ArrayList<>(List.of(latest));
    Set<Long> pinnedNow = new HashSet<>(pinnedBefore);
    pinnedNow.addAll(table.pinnedVersions());
    for (long v : pinnedNow) {
      Manifest m = retired.get(v);
      if (m == null && v != latest.version()) {
        try {
          m = table.version(v);
        } catch (RuntimeException e) {
          continue; // never existed or unreadable: no reader can be reading it
        }
      }
      if (m != null) {
        live.add(m);
      }
    }
    Set<String> keep = new HashSet<>();
    addFiles(keep, live);
    return new Live(latest, keep, manifests);
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
    Map<String, Boolean> writerAlive = new HashMap<>();
    for (Device device : table.pool().devices()) {
      Path dir = device.root().resolve(tableId);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(dir)) {
        files = walk.filter(Files::isRegularFile).toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
      for (Path f : files) {
        String relative = device.root().relativize(f).toString();
        if (keep.contains(key(device.id(), relative))) {
          continue;
        }
        String writer = WriterLock.idOf(f);
        boolean alive =
            writerAlive.computeIfAbsent(
                writer,
                w ->
                    MosaicTable.isLocked(
                        table.root().resolve(MosaicTable.WRITERS).resolve(w + ".lock")));
        try {
          if (alive || Files.getLastModifiedTime(f).toInstant().isAfter(cutoff)) {
            continue;
          }
          long size = Files.size(f);
          if (Files.deleteIfExists(f)) {
            device.release(size);
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
