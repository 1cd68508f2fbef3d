package io.mosaic.table;

import io.mosaic.storage.MiniHdfs;
import io.mosaic.storage.Storage;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock-free commit protocol on HDFS ({@link MiniHdfs}). */
class HdfsVersionLogTest extends VersionLogContract {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();
  private int n;

  @Override
  protected Storage storage() throws Exception {
    return HDFS.storage("contract-" + System.nanoTime() + "-" + n++);
  }

  @Override
  protected Map<String, Long> backendCounts(Storage storage) {
    return MiniHdfs.operationCounts();
  }

  @Override
  protected int commitsPerWriter() {
    return 10;
  }

  @Override
  protected String backend() {
    return "hdfs";
  }
}
