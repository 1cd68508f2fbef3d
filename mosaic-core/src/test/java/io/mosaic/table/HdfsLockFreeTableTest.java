package io.mosaic.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock-free protocol for a table whose metadata and segments are all on HDFS: the table is
 * named by its {@code hdfs://} URI, and its devices are HDFS folders with storage policies.
 */
class HdfsLockFreeTableTest extends LockFreeTableContract {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  @TempDir Path dir;

  private String nn() {
    return HDFS.uri().toString().replaceAll("/$", "");
  }

  @Override
  DevicePool pool() throws IOException {
    // A pool of its own per table: the cluster is shared.
    String toml = HDFS.policyDevicesToml("pool-" + System.nanoTime());
    Path file = dir.resolve("devices.toml");
    Files.writeString(file, toml);
    return DevicePool.load(file, HDFS.conf());
  }

  @Override
  Storage tableStorage(String name) throws IOException {
    return HDFS.storage("/tables-" + System.nanoTime() + "/" + name);
  }

  @Override
  MosaicTable reopen(MosaicTable table, DevicePool pool) {
    assertThat(table.location()).startsWith("hdfs://");
    return MosaicTable.open(table.location(), pool);
  }

  /**
   * The metadata operations a commit and a scan cost on HDFS, printed for docs/distributed-storage
   * .md, and bounded: a scan lists no directory for its version.
   */
  @Test
  void aCommitAndAScanCostAFewNameNodeOperations() throws IOException {
    DevicePool pool = pool();
    MosaicTable table =
        MosaicTable.create(nn() + "/tables-" + System.nanoTime() + "/ops", pool, SCHEMA, Map.of());
    Map<String, Long> commit = MiniHdfs.operationsOf(() -> table.commit("noop", m -> m));
    Map<String, Long> latest = MiniHdfs.operationsOf(table::latest);
    System.out.println(
        "HDFS operations of a commit: " + commit + "; of finding the latest: " + latest);
    assertThat(latest.keySet()).noneMatch(op -> op.contains("list"));
    // Publishing is one exclusive create: a temporary file renamed without replace.
    assertThat(commit).containsEntry("op_create", 1L).containsEntry("op_rename", 1L);
    assertThat(commit.keySet()).noneMatch(op -> op.contains("list"));
    assertThat(table.latest().version()).isEqualTo(2);
  }
}
