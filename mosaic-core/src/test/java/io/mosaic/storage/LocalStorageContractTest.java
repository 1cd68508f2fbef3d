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
  Storage secondClient(java.net.URI root) throws java.io.IOException {
    return Storages.open(root, new Configuration());
  }

  @Override
  StorageCapabilities expectedCapabilities() {
    return LocalStorage.CAPABILITIES;
  }
}
