package io.mosaic.table;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.LocalStorage;
import io.mosaic.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The lock-free protocol for tables on local files (the four-device test pool). */
class LocalLockFreeTableTest extends LockFreeTableContract {
  @TempDir Path dir;

  @Override
  DevicePool pool() {
    return TestPool.fourDevices(dir);
  }

  @Override
  Storage tableStorage(String name) throws IOException {
    return new LocalStorage(Files.createDirectories(dir.resolve("tables").resolve(name)));
  }

  @Override
  MosaicTable reopen(MosaicTable table, DevicePool pool) {
    // A path opens a table with the local protocol: the lock-free one is opened by its log.
    return MosaicTable.open(table.log(), pool);
  }
}
