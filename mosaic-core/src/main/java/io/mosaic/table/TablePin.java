package io.mosaic.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A reader's hold on one manifest version: while it is open, no file that version refers to is
 * deleted (DESIGN section 6). It is a file in the table's {@code _pins} directory locked by this
 * process; the operating system drops the lock when the process dies, even by {@code kill -9}, so a
 * crashed reader never pins files forever.
 */
public final class TablePin implements AutoCloseable {
  private final Manifest manifest;
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  TablePin(Manifest manifest, Path file, FileChannel channel, FileLock lock) {
    this.manifest = manifest;
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  static TablePin create(Path dir, long version, String id) {
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(version + "-" + id + ".pin");
      FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      return new TablePin(null, file, channel, channel.lock());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot pin version " + version + " in " + dir, e);
    }
  }

  TablePin withManifest(Manifest m) {
    return new TablePin(m, file, channel, lock);
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
    try {
      lock.release();
      channel.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
