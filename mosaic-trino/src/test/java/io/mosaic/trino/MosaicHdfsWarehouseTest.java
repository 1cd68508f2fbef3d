package io.mosaic.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import io.mosaic.table.MosaicTable;
import io.trino.testing.DistributedQueryRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A catalog whose schemas and tables are on HDFS ({@code mosaic.metadata-directory} an {@code
 * hdfs://} URI, docs/distributed-storage.md): every node reaches a table by its location, and
 * commits take the lock-free protocol.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MosaicHdfsWarehouseTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();
  @RegisterExtension static final HdfsTrinoCluster TRINO = new HdfsTrinoCluster(HDFS);

  private DistributedQueryRunner runner;
  private String metadata;
  private DevicePool pool;

  @BeforeAll
  void start() throws Exception {
    // The module's shared Trino cluster (HdfsTrinoCluster), in a schema of this class's own.
    runner = TRINO.runner();
    pool = DevicePool.load(TRINO.devices(), HDFS.conf());
    metadata = TRINO.metadataDirectory();
  }

  @Test
  void schemasAndTablesLiveOnHdfs() throws Exception {
    runner.execute("CREATE SCHEMA mosaic.w");
    assertThat(HDFS.fileSystem().exists(new org.apache.hadoop.fs.Path(metadata + "/w"))).isTrue();
    runner.execute(
        "CREATE TABLE mosaic.w.t WITH (default_device = 'hot', row_group_rows = 1000)"
            + " AS SELECT x AS id, 'n' || CAST(x AS VARCHAR) AS name"
            + " FROM UNNEST(sequence(0, 4999)) AS t(x)");
    runner.execute(
        "INSERT INTO mosaic.w.t SELECT x, 'm' FROM UNNEST(sequence(5000, 5999)) AS t(x)");
    assertThat(runner.execute("SHOW TABLES FROM mosaic.w").getOnlyColumnAsSet())
        .containsExactly("t");
    assertThat(
            runner
                .execute("SELECT count(*), sum(id), count_if(name = 'm') FROM mosaic.w.t")
                .getMaterializedRows()
                .get(0)
                .getFields())
        .containsExactly(6000L, 17997000L, 1000L);

    // The table is the lock-free one at its URI: versions 1 (create) .. 3 (insert).
    MosaicTable table = MosaicTable.open(metadata + "/w/t", pool);
    assertThat(table.lockFree()).isTrue();
    assertThat(table.latest().version()).isEqualTo(3);
    assertThat(HDFS.blockTypes("/mosaic/hot").values())
        .isNotEmpty()
        .allSatisfy(types -> assertThat(types).containsOnly(MiniHdfs.POLICY_DEVICES.get("hot")));

    assertThatThrownBy(() -> runner.execute("ALTER TABLE mosaic.w.t RENAME TO mosaic.w.u"))
        .hasMessageContaining("cannot rename table 'w.t'")
        .hasMessageContaining("CREATE TABLE ... AS SELECT");
    assertThatThrownBy(() -> runner.execute("DROP SCHEMA mosaic.w"))
        .hasMessageContaining("Cannot drop non-empty schema");
    runner.execute("DROP TABLE mosaic.w.t");
    runner.execute("DROP SCHEMA mosaic.w");
    assertThat(runner.execute("SHOW SCHEMAS FROM mosaic").getOnlyColumnAsSet()).doesNotContain("w");
    assertThat(HDFS.fileSystem().exists(new org.apache.hadoop.fs.Path(metadata + "/w"))).isFalse();
  }
}
