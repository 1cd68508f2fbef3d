package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
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

  @Test
  void localFilesHaveNoHosts() throws IOException {
    // No locality on local files: engines' splits there prefer no host.
    storage.createExclusive("f", new byte[] {1, 2, 3});
    assertThat(storage.blockHosts("f")).isEmpty();
    assertThat(storage.hosts("f")).isEmpty();
  }
}
