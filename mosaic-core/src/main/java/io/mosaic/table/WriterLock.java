package io.mosaic.table;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.util.UUID;

/**
 * Marks a process that is creating segment files for a table (a task writer, a migration): the
 * files it creates start with its id, and while its {@link LockFile} in {@code _writers} is held,
 * gc leaves them alone. The operating system releases the lock when the process dies, even by
 * SIGKILL.
 */
public final class WriterLock implements AutoCloseable {
  private final String id;
  private final LockFile lock;

  public WriterLock(MosaicTable table, String prefix) {
    this.id = prefix + UUID.randomUUID().toString().replace("-", "");
    try {
      this.lock = LockFile.create(table.root().resolve(MosaicTable.WRITERS), id + ".lock");
    } catch (IOException e) {
      throw MosaicException.io("cannot register a writer in table " + table.name(), e);
    }
  }

  public String id() {
    return id;
  }

  /** The writer id a segment file name starts with ({@code <id>-<n>.parquet}). */
  public static String idOf(String name) {
    int dash = name.indexOf('-');
    return dash < 0 ? name : name.substring(0, dash);
  }

  @Override
  public void close() {
    lock.close();
  }
}
