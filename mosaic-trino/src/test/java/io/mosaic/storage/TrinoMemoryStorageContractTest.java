package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.trino.storage.TrinoStorage;
import io.trino.filesystem.Location;
import io.trino.filesystem.memory.MemoryFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.DirectoryNotEmptyException;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link TrinoStorage} on Trino's in-memory file system, a blob store with an atomic {@code
 * createExclusive} and whole-object replaces: the backend shape S3 with conditional writes has.
 */
class TrinoMemoryStorageContractTest extends StorageContract {
  private final MemoryFileSystem fs = new MemoryFileSystem();

  @Override
  Storage newStorage() throws IOException {
    return TrinoStorage.open(fs, Location.of("memory:///root"));
  }

  @Override
  Storage secondClient(URI root) throws IOException {
    return TrinoStorage.open(fs, Location.of(root.toString()));
  }

  @Override
  StorageCapabilities expectedCapabilities() {
    return new StorageCapabilities(true, false, false, false, false, false);
  }

  /**
   * A blob store has no empty folders: a folder is there while a file is below it, and goes with
   * its last file.
   */
  @Override
  @Test
  @DisplayName("deleteFilesAndEmptyFolders: a folder goes with its last file on a blob store")
  void deleteFilesAndEmptyFolders() throws IOException {
    write("d/sub/x", text("x"));
    assertThatThrownBy(() -> storage.delete("d/sub"))
        .isInstanceOf(DirectoryNotEmptyException.class);
    assertThat(storage.delete("d/sub/x")).isTrue();
    assertThat(storage.stat("d/sub/x")).isEmpty();
    assertThat(storage.delete("d/sub/x")).isFalse();
    assertThat(storage.stat("d/sub")).isEmpty();
    assertThat(storage.delete("d/sub")).isFalse();
    assertThat(storage.list("d")).isEmpty();
  }

  /**
   * The contract's check, with the replaces kept going until the reader has read many times: in
   * memory the contract's 30 replaces end before a reader thread starts.
   */
  @Override
  @Test
  @DisplayName("replaceIsAtomicForReaders: with replaces overlapping 200 reads")
  void replaceIsAtomicForReaders() throws Exception {
    byte[] a = new byte[200_000];
    byte[] b = new byte[200_000];
    Arrays.fill(a, (byte) 'a');
    Arrays.fill(b, (byte) 'b');
    storage.replace("hint", a);
    AtomicBoolean done = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<?> reader =
          pool.submit(
              () -> {
                while (!done.get()) {
                  byte[] got = read(storage, "hint");
                  assertThat(Arrays.equals(got, a) || Arrays.equals(got, b))
                      .as("a reader sees the old or the new file whole")
                      .isTrue();
                  reads.incrementAndGet();
                }
                return null;
              });
      for (int i = 0; i < 30 || reads.get() < 200; i++) {
        storage.replace("hint", i % 2 == 0 ? b : a);
        if (reader.isDone()) {
          break;
        }
      }
      done.set(true);
      reader.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
    assertThat(reads.get()).isGreaterThanOrEqualTo(200);
    assertThat(storage.list("")).extracting(Storage.FileStatus::name).containsExactly("hint");
  }
}
