package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.trino.storage.TrinoStorage;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TrinoStorage} on Trino's local file system, which has no exclusive create and replaces by
 * rewriting in place: the contract's tests of those two are replaced by ones of what it does
 * instead.
 */
class TrinoLocalStorageContractTest extends StorageContract {
  @TempDir Path dir;

  @Override
  Storage newStorage() throws IOException {
    return TrinoStorage.open(new LocalFileSystem(dir), Location.of("local:///root"));
  }

  @Override
  Storage secondClient(URI root) throws IOException {
    return TrinoStorage.open(new LocalFileSystem(dir), Location.of(root.toString()));
  }

  @Override
  StorageCapabilities expectedCapabilities() {
    return new StorageCapabilities(false, false, false, false, false, false);
  }

  private void assertRefusesExclusiveCreate() throws IOException {
    assertThatThrownBy(() -> storage.createExclusive("v/1", text("one")))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageContaining("local:///root/")
        .hasMessageContaining("cannot create a file exclusively and atomically");
    assertThat(storage.stat("v/1")).isEmpty();
    assertThat(storage.list("")).as("the probe left nothing").isEmpty();
  }

  @Override
  @Test
  @DisplayName("createExclusivePublishesOnce: refused, Trino's local file system has none")
  void createExclusivePublishesOnce() throws IOException {
    assertRefusesExclusiveCreate();
  }

  @Override
  @Test
  @DisplayName("createExclusiveRaceHasExactlyOneWholeWinner: refused, nothing to race")
  void createExclusiveRaceHasExactlyOneWholeWinner() throws IOException {
    assertRefusesExclusiveCreate();
  }

  /**
   * Trino's local {@code createOrOverwrite} truncates and rewrites in place, so a concurrent reader
   * can see a torn file (the class comment says so); what holds is the replace itself.
   */
  @Override
  @Test
  @DisplayName("replaceIsAtomicForReaders: not atomic here; each replace leaves the new file whole")
  void replaceIsAtomicForReaders() throws IOException {
    byte[] a = bytes(200_000, 7);
    byte[] b = bytes(100_000, 8);
    storage.replace("hint", a);
    assertThat(read(storage, "hint")).isEqualTo(a);
    storage.replace("hint", b);
    assertThat(read(storage, "hint")).as("shorter: truncated, not overlaid").isEqualTo(b);
    assertThat(storage.list("")).extracting(Storage.FileStatus::name).containsExactly("hint");
    assertThat(storage.capabilities().renameNoReplace()).isFalse();
  }

  @Test
  void walkAndDeleteTreeTakeOneCallEach() throws IOException {
    write("t/a", text("a"));
    write("t/s/b", text("b"));
    write("t/s/u/c", text("c"));
    assertThat(storage.walk("t"))
        .extracting(Storage.FileStatus::key)
        .containsExactlyInAnyOrder("t/a", "t/s/b", "t/s/u/c");
    assertThat(storage.walk("missing")).isEmpty();
    assertThat(storage.deleteTree("t/s")).isTrue();
    assertThat(storage.walk("t")).extracting(Storage.FileStatus::key).containsExactly("t/a");
    assertThat(storage.deleteTree("t/s")).isFalse();
    assertThat(storage.deleteTree("t/a")).as("a file").isTrue();
    assertThat(storage.list("t")).isEmpty();
  }
}
