package io.mosaic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The file system's two refusals a person fixes outside Mosaic are named in the message, whatever
 * operation met them: a folder that is read-only, and a file system with no space left.
 */
class MosaicExceptionTest {
  @Test
  void noSpaceLeftIsADeviceFullNotAnUnexplainedFailure() {
    // As FileChannel and FileOutputStream report ENOSPC, wrapped as the owner record wraps it.
    MosaicException e =
        MosaicException.io(
            "cannot check or record the owner of /pool/hdd/t on device 'hdd'",
            new UncheckedIOException(new IOException("No space left on device")));
    assertThat(e.kind()).isEqualTo(MosaicException.Kind.DEVICE_FULL);
    assertThat(e.getMessage())
        .startsWith("cannot check or record the owner of /pool/hdd/t on device 'hdd'")
        .contains("has no space left", "free space");
  }

  @Test
  void aReadOnlyFolderSaysReadOnly() {
    for (IOException cause :
        List.of(
            new AccessDeniedException("/t/_writers/w1"),
            new FileSystemException("/t/_gc.lock", null, "Read-only file system"),
            new FileSystemException("/t/_pins/2", null, "Operation not permitted"))) {
      MosaicException e = MosaicException.io("cannot register a writer in table t", cause);
      assertThat(e.kind()).isEqualTo(MosaicException.Kind.IO);
      assertThat(e.getMessage())
          .contains(cause instanceof FileSystemException f ? f.getFile() : "")
          .contains("is read-only or not writable", "make it writable");
    }
  }

  @Test
  void otherFailuresKeepTheirMessage() {
    assertThat(MosaicException.io("cannot read x", new IOException("boom")).getMessage())
        .isEqualTo("cannot read x");
  }
}
