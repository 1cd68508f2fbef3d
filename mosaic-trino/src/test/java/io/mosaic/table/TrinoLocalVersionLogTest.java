package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import io.mosaic.storage.Storage;
import io.mosaic.trino.storage.TrinoStorage;
import io.trino.filesystem.Location;
import io.trino.filesystem.local.LocalFileSystem;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock-free protocol cannot run on Trino's local file system, which has no exclusive create
 * ({@link VersionLogContract} needs it in every test): a table there is refused with the fix named,
 * and nothing is published.
 */
class TrinoLocalVersionLogTest {
  @TempDir Path dir;

  @Test
  void aTableIsRefusedClearlyAndNothingIsPublished() throws Exception {
    Storage storage = TrinoStorage.open(new LocalFileSystem(dir), Location.of("local:///s"));
    VersionLog log =
        new VersionLog(storage, "t", "t", VersionLogContract.RETENTION, new ShiftedClock());
    assertThatThrownBy(() -> log.create(VersionLogContract.lines(List.of())))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageContaining("cannot create a file exclusively and atomically")
        .hasMessageContaining("S3 with conditional writes");
    assertThat(storage.walk("")).isEmpty();
  }
}
