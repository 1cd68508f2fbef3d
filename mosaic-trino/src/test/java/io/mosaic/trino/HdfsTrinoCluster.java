package io.mosaic.trino;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import io.trino.testing.DistributedQueryRunner;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Trino cluster of this module's HDFS suites: a coordinator and two workers whose {@code
 * mosaic} catalog has a local device and the HDFS devices of {@link MiniHdfs#policyDevicesToml()}
 * (under {@code /mosaic/}), with its metadata directory on HDFS. Starting three nodes takes tens of
 * seconds on a 2-core CI, so, like {@link MiniHdfs#shared()}, the classes of a test JVM share one,
 * started by the first and closed with JUnit's root context. Each class keeps to its own schemas.
 *
 * <pre>{@code
 * @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();
 * @RegisterExtension static final HdfsTrinoCluster TRINO = new HdfsTrinoCluster(HDFS);
 * }</pre>
 */
final class HdfsTrinoCluster implements BeforeAllCallback {
  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(HdfsTrinoCluster.class);

  private final MiniHdfs hdfs;
  private Running running;

  HdfsTrinoCluster(MiniHdfs hdfs) {
    this.hdfs = hdfs;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // HDFS first, whichever of the two extensions JUnit calls first (starting it is idempotent).
    hdfs.beforeAll(context);
    running =
        context
            .getRoot()
            .getStore(SHARED)
            .getOrComputeIfAbsent(Running.class, k -> start(hdfs), Running.class);
  }

  private static Running start(MiniHdfs hdfs) {
    Path dir = Path.of("target", "hdfs-trino", UUID.randomUUID().toString()).toAbsolutePath();
    try {
      Path devices = MosaicHdfsClusterTest.pool(dir, hdfs, "mosaic");
      String metadata = hdfs.uri() + "trino-cluster/metadata";
      DistributedQueryRunner runner =
          MosaicQueryRunner.create(dir, MosaicHdfsClusterTest.catalog(devices, metadata), 2);
      MosaicHdfsClusterTest.writeDeviceModel(DevicePool.load(devices, hdfs.conf()));
      return new Running(runner, devices, metadata);
    } catch (Exception e) {
      throw new IllegalStateException("the Trino cluster on HDFS did not start under " + dir, e);
    }
  }

  DistributedQueryRunner runner() {
    return running.runner();
  }

  /** The catalog's {@code devices.toml}. */
  Path devices() {
    return running.devices();
  }

  /** The catalog's {@code mosaic.metadata-directory}: an {@code hdfs://} URI. */
  String metadataDirectory() {
    return running.metadata();
  }

  private record Running(DistributedQueryRunner runner, Path devices, String metadata)
      implements AutoCloseable {
    @Override
    public void close() {
      runner.close();
    }
  }
}
