package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.format.Manifest;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A reader's hold on one manifest version: while it is open, no file that version refers to is
 * deleted (docs/format.md, "Pins, writer locks and gc"). On a lock-free table the version is kept
 * by time instead, for the retention after it stops being the latest, and the pin holds nothing. It
 * is a {@link LockFile} in the table's {@code _pins} directory; the operating system drops the lock
 * when the process dies, even by {@code kill -9}, so a crashed reader never pins files forever, and
 * nothing this JVM does (gc, migrations listing the pins) releases it early.
 */
public final class TablePin implements AutoCloseable {
  private final Manifest manifest;
  private final LockFile lock;

  /** A pin by {@code lock}; none (null) where versions are kept by time (a lock-free table). */
  TablePin(Manifest manifest, LockFile lock) {
    this.manifest = manifest;
    this.lock = lock;
  }

  static TablePin create(Path dir, long version, String id) {
    try {
      return new TablePin(null, LockFile.create(dir, version + "-" + id + ".pin"));
    } catch (IOException e) {
      throw MosaicException.io("cannot pin version " + version + " in " + dir, e);
    }
  }

  TablePin withManifest(Manifest m) {
    return new TablePin(m, lock);
  }

  public Manifest manifest() {
    return manifest;
  }

  public long version() {
    return manifest.version();
  }

  /** Version number of a pin file's name. */
  static long versionOf(Path pinFile) {
    String name = pinFile.getFileName().toString();
    return Long.parseLong(name.substring(0, name.indexOf('-')));
  }

  @Override
  public void close() {
    if (lock != null) {
      lock.close();
    }
  }
}
