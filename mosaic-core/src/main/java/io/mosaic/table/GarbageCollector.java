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
    Manifest latest = table.latest();
    Set<Long> pinnedBefore = table.pinnedVersions();
    Map<Long, Manifest> retired = new LinkedHashMap<>();
    for (long v : table.versions()) {
      if (v != latest.version() && !pinnedBefore.contains(v)) {
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
    // A reader may have pinned a version while we were deleting its manifest: keep its files.
    Set<String> keep = new HashSet<>();
    addFiles(keep, List.of(latest));
    List<Manifest> pinned = new ArrayList<>();
    Set<Long> pinnedNow = new HashSet<>(pinnedBefore);
    pinnedNow.addAll(table.pinnedVersions());
    for (long v : pinnedNow) {
      Manifest m = retired.get(v);
      if (m == null && v != latest.version()) {
        try {
          m = table.version(v);
        } catch (RuntimeException e) {
          continue;
        }
      }
      if (m != null) {
        pinned.add(m);
      }
    }
    addFiles(keep, pinned);
    return deleteUnreferenced(latest.tableId(), keep, grace, manifests);
  }

  /** Deletes {@code segments} now unless the latest or a pinned version still refers to them. */
  public void retire(Collection<SegmentEntry> segments) {
    Manifest latest = table.latest();
    Set<String> keep = new HashSet<>();
    List<Manifest> live = new ArrayList<>(List.of(latest));
    for (long v : table.pinnedVersions()) {
      try {
        live.add(table.version(v));
      } catch (RuntimeException e) {
        // a retired version cannot be read by anyone
      }
    }
    addFiles(keep, live);
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
    deleteStaleWriterLocks();
    return new Report(manifests, deleted, freed);
  }

  private void deleteStaleWriterLocks() {
    Path dir = table.root().resolve(MosaicTable.WRITERS);
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (!MosaicTable.isLocked(f)) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      // harmless: stale lock files only
    }
  }
}
