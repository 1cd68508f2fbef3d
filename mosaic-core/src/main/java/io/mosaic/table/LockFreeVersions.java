package io.mosaic.table;

import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.ManifestFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The versions of a table kept by a {@link VersionLog}, as manifests: what {@link TableVersions} is
 * for a table on local files, on a storage without POSIX locks (docs/format.md, "Commits without
 * POSIX locks").
 */
final class LockFreeVersions {
  private final VersionLog log;
  private final String location;
  private final String name;

  LockFreeVersions(VersionLog log, String location, String name) {
    this.log = log;
    this.location = location;
    this.name = name;
  }

  VersionLog log() {
    return log;
  }

  /** Where version {@code version}'s manifest is, for messages and the manifest cache. */
  String where(long version) {
    return location + "/" + log.key(version);
  }

  /** Published versions not retired yet (gc lists; this is for history, not for readers). */
  List<Long> versions() {
    List<Long> versions = new ArrayList<>();
    List<Long> listed;
    try {
      listed = log.listed();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot list the versions of table " + name, e);
    }
    for (long v : listed) {
      try {
        if (log.read(v).isPresent()) {
          versions.add(v);
        }
      } catch (TableNotFoundException e) {
        // a tombstone deleted since the listing
      }
    }
    return versions;
  }

  Manifest latest() {
    return decode(log.latest());
  }

  Manifest version(long version) {
    byte[] content =
        log.read(version)
            .orElseThrow(
                () ->
                    new TableNotFoundException(
                        "version "
                            + version
                            + " of table "
                            + name
                            + " was retired: it stopped being the latest longer ago than the"
                            + " retention ("
                            + log.retention().versions()
                            + "), and gc removed it; read the latest version"));
    return decode(new VersionLog.Version(version, content, 0));
  }

  /** A version's manifest, decoded once per content (see {@link ManifestCache}). */
  Manifest decode(VersionLog.Version v) {
    String where = "manifest v" + v.number() + " of table " + name + " (" + where(v.number()) + ")";
    Manifest m =
        ManifestCache.SHARED.get(
            where(v.number()), v.content(), () -> ManifestFile.decode(v.content(), where));
    if (m.version() != v.number()) {
      throw new CorruptTableException(where + " holds version " + m.version());
    }
    return m;
  }

  static byte[] encode(Manifest m) {
    try {
      return ManifestFile.encode(m);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot encode manifest v" + m.version(), e);
    }
  }
}
