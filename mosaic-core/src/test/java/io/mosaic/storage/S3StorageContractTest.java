package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The storage contract on S3 through Hadoop's S3A, against a SeaweedFS server: exclusive create is
 * a conditional PUT, and what S3 lacks (rename, locks, append, placement) is declared absent.
 */
class S3StorageContractTest extends StorageContract {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();

  @Override
  Storage newStorage() throws IOException {
    return S3.storage("contract/" + UUID.randomUUID());
  }

  @Override
  Storage secondClient(URI root) throws IOException {
    return Storages.open(root, S3.conf());
  }

  @Override
  StorageCapabilities expectedCapabilities() {
    return new StorageCapabilities(true, false, false, false, false, false);
  }

  @Test
  void requestsPerCall() throws IOException {
    write("seg", bytes(1000, 4));
    Map<String, Map<String, Long>> made = new java.util.LinkedHashMap<>();
    made.put(
        "createExclusive",
        SeaweedS3.requestsOf(storage, () -> storage.createExclusive("v/1", text("1"))));
    made.put(
        "createExclusive lost",
        SeaweedS3.requestsOf(
            storage,
            () -> {
              try {
                storage.createExclusive("v/1", text("again"));
              } catch (java.nio.file.FileAlreadyExistsException expected) {
                // the race's loser
              }
            }));
    made.put("replace", SeaweedS3.requestsOf(storage, () -> storage.replace("hint", text("1"))));
    made.put("open+read", SeaweedS3.requestsOf(storage, () -> read(storage, "seg")));
    made.put("stat missing", SeaweedS3.requestsOf(storage, () -> storage.stat("v/9")));
    made.put("list", SeaweedS3.requestsOf(storage, () -> storage.list("v")));
    System.err.println("S3 requests per call: " + made);
    // One conditional PUT, no probe before it: a commit's publish is a single request.
    assertThat(made.get("createExclusive")).containsExactly(Map.entry("object_put_request", 1L));
    assertThat(made.get("createExclusive lost")).containsOnlyKeys("object_put_request");
    assertThat(made.get("replace")).containsExactly(Map.entry("object_put_request", 1L));
    // One HEAD for the length, which the open reuses; the bytes come with GETs.
    assertThat(made.get("open+read")).containsEntry("object_metadata_request", 1L);
    assertThat(made.get("open+read")).doesNotContainKeys("object_put_request");
  }
}
