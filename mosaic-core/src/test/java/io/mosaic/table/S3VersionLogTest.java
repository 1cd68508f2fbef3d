package io.mosaic.table;

import io.mosaic.storage.SeaweedS3;
import io.mosaic.storage.Storage;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock-free commit protocol on S3 through S3A ({@link SeaweedS3}). */
class S3VersionLogTest extends VersionLogContract {
  @RegisterExtension static final SeaweedS3 S3 = SeaweedS3.shared();
  private int n;

  @Override
  protected Storage storage() throws Exception {
    return S3.storage("versionlog-" + System.nanoTime() + "-" + n++);
  }

  /** The requests of the storage's own S3A client, by kind. */
  @Override
  protected Map<String, Long> backendCounts(Storage storage) {
    return SeaweedS3.requests(storage);
  }

  @Override
  protected int commitsPerWriter() {
    return 10;
  }

  @Override
  protected String backend() {
    return "s3";
  }
}
