package io.mosaic.table;

import io.mosaic.storage.Storage;
import io.mosaic.storage.Storages;
import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The lock-free commit protocol on HDFS (a MiniDFSCluster). */
class HdfsVersionLogTest extends VersionLogContract {
  @TempDir static Path dir;
  private static MiniDFSCluster cluster;
  private int n;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Override
  protected Storage storage() throws Exception {
    return Storages.open(
        URI.create(
            "hdfs://localhost:"
                + cluster.getNameNodePort()
                + "/contract-"
                + System.nanoTime()
                + "-"
                + n++));
  }

  @Override
  protected java.util.Map<String, Long> backendCounts(Storage storage) {
    java.util.Map<String, Long> counts = new java.util.TreeMap<>();
    org.apache.hadoop.fs.StorageStatistics stats =
        org.apache.hadoop.fs.GlobalStorageStatistics.INSTANCE.get("DFSOpsCountStatistics");
    if (stats != null) {
      stats
          .getLongStatistics()
          .forEachRemaining(
              s -> {
                if (s.getValue() != 0) {
                  counts.put(s.getName(), s.getValue());
                }
              });
    }
    return counts;
  }

  @Override
  protected String backend() {
    return "hdfs";
  }
}
