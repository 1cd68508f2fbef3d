package io.mosaic.table;

import io.mosaic.storage.LocalStorage;
import io.mosaic.storage.Storage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The lock-free commit protocol on local files. */
class LocalVersionLogTest extends VersionLogContract {
  @TempDir Path dir;
  private int n;

  @Override
  protected Storage storage() {
    return new LocalStorage(dir.resolve("s" + n++));
  }

  @Override
  protected String backend() {
    return "local";
  }
}
