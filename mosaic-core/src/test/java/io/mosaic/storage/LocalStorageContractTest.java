package io.mosaic.storage;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;

class LocalStorageContractTest extends StorageContract {
  @TempDir Path dir;

  @Override
  Storage newStorage() {
    return new LocalStorage(dir.resolve("root"));
  }

  @Override
  Configuration conf() {
    return new Configuration();
  }

  @Override
  StorageCapabilities expectedCapabilities() {
    return LocalStorage.CAPABILITIES;
  }
}
