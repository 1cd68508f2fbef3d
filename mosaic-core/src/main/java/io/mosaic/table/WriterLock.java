package io.mosaic.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Marks a process that is creating segment files for a table (a task writer, a migration): the
 * files it creates start with its id, and while its lock in {@code _writers} is held, gc leaves
 * them alone. The operating system releases the lock when the process dies, even by SIGKILL.
 */
final class WriterLock implements AutoCloseable {
  private final String id;
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  WriterLock(MosaicTable table, String prefix) {
    this.id = prefix + UUID.randomUUID().toString().replace("-", "");
    try {
      Path dir = table.root().resolve(MosaicTable.WRITERS);
      Files.createDirectories(dir);
      this.file = dir.resolve(id + ".lock");
      this.channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      this.lock = channel.lock();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot register a writer in table " + table.name(), e);
    }
  }

  String id() {
    return id;
  }

  /** The writer id a segment file name starts with ({@code <id>-<n>.parquet}). */
  static String idOf(Path segmentFile) {
    String name = segmentFile.getFileName().toString();
    int dash = name.indexOf('-');
    return dash < 0 ? name : name.substring(0, dash);
  }

  @Override
  public void close() {
    if (channel.isOpen()) {
      try {
        lock.release();
        channel.close();
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
