package io.mosaic.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The storage contract on HDFS (a MiniHdfs), and what only HDFS has: placement and quotas. */
class HadoopStorageContractTest extends StorageContract {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  /** Small blocks, so a file of a few hundred KiB has several blocks to place. */
  static final long SMALL_BLOCK = 64 * 1024;

  @Override
  Storage newStorage() throws IOException {
    return HDFS.storage("contract/" + UUID.randomUUID());
  }

  @Override
  Storage secondClient(java.net.URI root) throws java.io.IOException {
    return Storages.open(root, HDFS.conf());
  }

  @Override
  StorageCapabilities expectedCapabilities() {
    return new StorageCapabilities(true, true, false, true, true, false);
  }

  private Storage smallBlocks() throws IOException {
    Configuration conf = HDFS.conf();
    conf.setLong("dfs.blocksize", SMALL_BLOCK);
    return Storages.open(storage.root(), conf);
  }

  private org.apache.hadoop.fs.Path hadoopPath(String key) {
    return new org.apache.hadoop.fs.Path(storage.root().resolve(key));
  }

  @Test
  void placementPutsEveryBlockOnThePolicysType() throws IOException {
    Map<String, String> typeOf = Map.of("ALL_SSD", "SSD", "HOT", "DISK", "COLD", "ARCHIVE");
    try (Storage small = smallBlocks()) {
      for (Map.Entry<String, String> e : typeOf.entrySet()) {
        String folder = e.getKey().toLowerCase(java.util.Locale.ROOT);
        small.setPlacement(folder, e.getKey());
        try (OutputStream out = small.create(folder + "/segment")) {
          out.write(bytes((int) (SMALL_BLOCK * 9 / 2), 7));
        }
        small.createExclusive(folder + "/v1", bytes((int) (SMALL_BLOCK * 2), 8));
        for (String file : List.of(folder + "/segment", folder + "/v1")) {
          List<List<String>> blocks = small.blockStorageTypes(file);
          assertThat(blocks).as(file).hasSizeGreaterThanOrEqualTo(2);
          assertThat(blocks).as(file).allSatisfy(b -> assertThat(b).containsOnly(e.getValue()));
          assertThat(small.hosts(file)).as(file).isNotEmpty();
          // Every block, in file order, covering the file, each with the hosts of its replicas.
          List<Storage.BlockHosts> located = small.blockHosts(file);
          assertThat(located).as(file).hasSameSizeAs(blocks);
          long next = 0;
          for (Storage.BlockHosts b : located) {
            assertThat(b.offset()).as(file).isEqualTo(next);
            assertThat(b.hosts()).as(file).isNotEmpty();
            next += b.length();
          }
          assertThat(next).as(file).isEqualTo(small.stat(file).orElseThrow().length());
          assertThat(located.get(0).hosts()).as(file).isEqualTo(small.hosts(file));
        }
      }
    }
  }

  @Test
  void blockHostsOfAMissingFileIsNoSuchFile() {
    assertThatThrownBy(() -> storage.blockHosts("none"))
        .isInstanceOf(java.nio.file.NoSuchFileException.class);
  }

  @Test
  void anUnknownPolicyIsNamedWithTheValidOnes() {
    assertThatThrownBy(() -> storage.setPlacement("x", "ALL_FLASH"))
        .isInstanceOfSatisfying(
            MosaicException.class,
            e -> assertThat(e.kind()).isEqualTo(MosaicException.Kind.INVALID_ARGUMENT))
        .hasMessageContaining("'ALL_FLASH'")
        .hasMessageContaining(storage.root().toString())
        .hasMessageContaining("ALL_SSD")
        .hasMessageContaining("COLD");
  }

  @Test
  void quotaIsTheSpaceOrStorageTypeQuota() throws IOException {
    assertThat(storage.quota("missing")).isEmpty();
    write("plain/f", text("x"));
    assertThat(storage.quota("plain")).isEmpty();

    write("space/f", text("x"));
    HDFS.fileSystem().setQuota(hadoopPath("space"), HdfsConstants.QUOTA_DONT_SET, 10L << 20);
    assertThat(storage.quota("space")).contains(10L << 20);

    storage.setPlacement("fast", "ALL_SSD");
    HDFS.fileSystem().setQuotaByStorageType(hadoopPath("fast"), StorageType.SSD, 5L << 20);
    HDFS.fileSystem().setQuotaByStorageType(hadoopPath("fast"), StorageType.DISK, 1L << 20);
    assertThat(storage.quota("fast")).as("DISK's quota does not bind ALL_SSD").contains(5L << 20);
  }

  @Test
  void aFullQuotaReadsAsAFullDevice() throws IOException {
    try (Storage small = smallBlocks()) {
      small.setPlacement("full", "HOT");
      HDFS.fileSystem().setQuota(hadoopPath("full"), HdfsConstants.QUOTA_DONT_SET, SMALL_BLOCK * 2);
      IOException failure = null;
      try (OutputStream out = small.create("full/segment")) {
        out.write(bytes((int) (SMALL_BLOCK * 4), 9));
      } catch (IOException e) {
        failure = e;
      }
      assertThat(failure).as("writing past the quota").isNotNull();
      MosaicException reported = MosaicException.io("writing a segment", failure);
      assertThat(reported.kind()).isEqualTo(MosaicException.Kind.DEVICE_FULL);
      assertThat(reported).hasMessageContaining(storage.root().resolve("full/segment").toString());
    }
  }

  @Test
  void metadataOperationsPerCall() throws IOException {
    write("seg", bytes(1000, 4));
    Map<String, Map<String, Long>> ops = new java.util.LinkedHashMap<>();
    ops.put(
        "createExclusive", MiniHdfs.operationsOf(() -> storage.createExclusive("v/1", text("1"))));
    ops.put("create+close", MiniHdfs.operationsOf(() -> write("v/2", text("2"))));
    ops.put("replace", MiniHdfs.operationsOf(() -> storage.replace("hint", text("1"))));
    ops.put("open+read", MiniHdfs.operationsOf(() -> read(storage, "seg")));
    ops.put("stat", MiniHdfs.operationsOf(() -> storage.stat("v/9")));
    ops.put("list", MiniHdfs.operationsOf(() -> storage.list("v")));
    ops.put("delete", MiniHdfs.operationsOf(() -> storage.delete("v/2")));
    System.err.println("NameNode operations per call: " + ops);
    // The publish of a version: a create of the temporary file, its completion, one rename.
    assertThat(ops.get("createExclusive")).containsEntry("op_rename", 1L);
    assertThat(ops.get("createExclusive").values().stream().mapToLong(Long::longValue).sum())
        .isLessThanOrEqualTo(3);
    assertThat(ops.get("stat")).containsOnlyKeys("op_get_file_status");
  }
}
