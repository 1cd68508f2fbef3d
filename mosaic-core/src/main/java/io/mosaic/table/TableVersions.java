package io.mosaic.table;

import static io.mosaic.table.MosaicTable.MANIFESTS;

import io.mosaic.config.MetadataFiles;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The versions of a table, one manifest file each in its {@code _manifests} directory: listing
 * them, reading one, and publishing the next one atomically and create-if-absent (docs/format.md).
 */
final class TableVersions {
  /**
   * Largest manifest file read: a manifest takes about 100 bytes per row group and column (their
   * statistics), so this holds about 600,000 of them; a larger file is damaged or not a manifest.
   */
  static final long MAX_MANIFEST_BYTES = 64L << 20;

  /**
   * Run by {@link #latest} between listing the versions and reading the newest: lets a test retire
   * that version there (LatestVersionRaceTest). Null outside tests.
   */
  static volatile Runnable afterListing;

  private static final Pattern MANIFEST_NAME = Pattern.compile("v(\\d{20})\\.json");

  private final Path root;

  TableVersions(Path root) {
    this.root = root;
  }

  private String name() {
    return root.getFileName().toString();
  }

  /**
   * Whether a table exists at {@code root}: its {@code _manifests} directory holds a version. A
   * directory whose creation was interrupted before the first version was published (only temporary
   * files, or nothing) is no table; {@link MosaicTable#create} makes one there.
   */
  static boolean exists(Path root) {
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

  List<Long> versions() {
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

  Manifest latest() {
    List<Long> versions = versions();
    while (true) {
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
      Runnable hook = afterListing;
      if (hook != null) {
        hook.run();
      }
      long last = versions.get(versions.size() - 1);
      try {
        return version(last);
      } catch (CorruptTableException e) {
        throw new CorruptTableException(e.getMessage() + "; " + lastGood(versions), e);
      } catch (TableNotFoundException e) {
        // gc and migrations retire only versions older than the newest (the newest is never
        // deleted), so the newest listed being gone means a newer one was published and it was
        // retired after the listing: list again. Versions only grow, so this ends; with nothing
        // newer the version is really missing (removed by hand, or the table dropped).
        versions = newerThan(last, e);
      }
    }
  }

  /** The versions listed now if one is newer than {@code last}; else {@code missing} is thrown. */
  private List<Long> newerThan(long last, TableNotFoundException missing) {
    List<Long> again;
    try {
      again = versions();
    } catch (UncheckedIOException e) {
      throw missing; // the manifests directory is gone with the table
    }
    if (again.isEmpty() || again.get(again.size() - 1) <= last) {
      throw missing;
    }
    return again;
  }

  /** Names the newest readable version before the newest one, and how to roll back to it. */
  private String lastGood(List<Long> versions) {
    for (int i = versions.size() - 2; i >= 0; i--) {
      long v = versions.get(i);
      try {
        version(v);
        return "the last good version is v"
            + v
            + ": roll back to it (docs/format.md), which publishes its content as v"
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

  Manifest version(long version) {
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
    // Decoded and checked once per content of the file (ManifestCache): the file is still read on
    // every call, so a removed, replaced or damaged version is seen as before.
    byte[] content = bytes;
    Manifest m = ManifestCache.SHARED.get(file, content, () -> ManifestFile.decode(content, where));
    if (m.version() != version) {
      throw new CorruptTableException(file + " holds version " + m.version() + ", not " + version);
    }
    return m;
  }

  Path manifestFile(long version) {
    return root.resolve(MANIFESTS).resolve(String.format(Locale.ROOT, "v%020d.json", version));
  }

  /**
   * The table id of the table at {@code root}, from its newest readable manifest; empty when none
   * can be read.
   */
  static java.util.Optional<String> idOf(Path root) {
    TableVersions other = new TableVersions(root.toAbsolutePath().normalize());
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
   * Writes the manifest, then links it to its version's name: fails if that name exists, or if a
   * version as new or newer exists. Callers hold the {@link CommitGate} shared (the first version
   * of a new table excepted), so no gc pass runs between that check and the link.
   */
  boolean publish(Manifest next) {
    // A version number is never used twice. gc deletes the versions older than the newest, so a
    // commit built on a base read before others committed and gc ran (v5, while v7 is the newest
    // and v6 was retired) would recreate the retired name v6 if only the name were checked: the
    // commit is acknowledged as v6 but the newest version, v7, lacks its rows; and a reader that
    // read v6 as the latest before it was retired, then pinned it and checked that it still
    // exists (MosaicTable.pin), gets the new v6, whose segments from v5 gc may have deleted (a
    // column migrated away meanwhile). The newest version is never deleted, so seeing one at
    // least as new as next is a lost race: the caller rebases onto the latest and retries.
    List<Long> published = versions();
    if (!published.isEmpty() && published.get(published.size() - 1) >= next.version()) {
      return false;
    }
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

  void removeStaleTemporaryManifests() {
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
