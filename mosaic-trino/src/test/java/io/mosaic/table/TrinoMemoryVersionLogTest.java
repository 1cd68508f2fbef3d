package io.mosaic.table;

import io.mosaic.storage.Storage;
import io.mosaic.trino.storage.TrinoStorage;
import io.trino.filesystem.Location;
import io.trino.filesystem.memory.MemoryFileSystem;

/**
 * The lock-free commit protocol through {@link TrinoStorage}, on Trino's in-memory file system: the
 * one of Trino's file systems in reach with an atomic exclusive create (the S3 one with conditional
 * writes is the other kind that has it).
 */
class TrinoMemoryVersionLogTest extends VersionLogContract {
  private final MemoryFileSystem fs = new MemoryFileSystem();
  private int n;

  @Override
  protected Storage storage() throws Exception {
    return TrinoStorage.open(fs, Location.of("memory:///s" + n++));
  }

  @Override
  protected String backend() {
    return "trino-memory";
  }
}
