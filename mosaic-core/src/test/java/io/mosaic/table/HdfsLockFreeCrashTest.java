package io.mosaic.table;

import io.mosaic.device.DevicePool;
import io.mosaic.storage.MiniHdfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LockFreeCrashTest} on HDFS ({@link MiniHdfs}): the table at an {@code hdfs://} location,
 * three of its four devices HDFS folders with storage policies and {@code raid} local, so the
 * workload's migrations move HDFS to HDFS, HDFS to local and local to HDFS; the child JVMs are HDFS
 * clients of this JVM's cluster. In CI three named points ({@link #CI_POINTS}) and two random
 * moments; the same properties as there run more.
 */
class HdfsLockFreeCrashTest {
  @RegisterExtension static final MiniHdfs HDFS = MiniHdfs.shared();

  /** The workload's devices: local path, or HDFS folder and policy; codecs as {@link TestPool}. */
  private static final String[][] DEVICES = {
    {"nvme", "ALL_SSD", "zstd"},
    {"ssd", "HOT", "lz4"},
    {"raid", null, "none"},
    {"hdd", "COLD", "zstd"}
  };

  /**
   * The points CI kills at on HDFS, one per state a kill leaves there (a child JVM on MiniDFS costs
   * seconds): a segment file still being written, segments and a claim without a version, and a
   * migrated copy no version names. {@code -Dmosaic.crash.points=kinds} kills at every kind.
   */
  static final Set<String> CI_POINTS =
      Set.of("segment-created", "log-before-publish", "segment-moved");

  @TempDir Path dir;

  @Test
  void killedAtNamedPointsAndAtRandomTheLockFreeTableOnHdfsRecovers() throws Exception {
    List<List<List<Object>>> batches = CrashKills.batches();
    String folder = "/crash-" + System.nanoTime();
    String conf = ChildJvm.hadoopConfOption(HDFS.conf(), dir);
    CrashKills.Target target =
        new CrashKills.Target() {
          @Override
          public List<String> create(String run) throws IOException {
            Path root = Files.createDirectories(dir.resolve(run));
            Path toml = root.resolve("devices.toml");
            Files.writeString(toml, devices(root, folder + "/" + run));
            String location = HDFS.uri().resolve(folder + "/" + run + "/t").toString();
            MosaicTable.create(
                location,
                DevicePool.load(toml, HDFS.conf()),
                CrashWorkload.SCHEMA,
                CrashWorkload.properties());
            return List.of(toml.toString(), location);
          }

          @Override
          public List<String> jvmOptions() {
            return List.of(conf);
          }

          @Override
          public void check(String run, String what) throws IOException {
            ShiftedClock clock = new ShiftedClock();
            VersionLog log =
                new VersionLog(
                    HDFS.storage(folder + "/" + run + "/t"), "", "t", Retention.defaults(), clock);
            LockFreeCrashTest.checkRecovered(
                log,
                clock,
                DevicePool.load(dir.resolve(run).resolve("devices.toml"), HDFS.conf()),
                batches,
                what);
          }
        };
    CrashKills.sweep(target, "MiniDFS", LockFreeCrashTest.POINTS, CI_POINTS, 2);
  }

  private static String devices(Path root, String folder) throws IOException {
    StringBuilder toml = new StringBuilder();
    for (String[] d : DEVICES) {
      toml.append("[[device]]\nid = \"").append(d[0]).append("\"\n");
      if (d[1] == null) {
        Path local = Files.createDirectories(root.resolve("devices").resolve(d[0]));
        toml.append("path = \"").append(local).append("\"\n");
      } else {
        toml.append("uri = \"")
            .append(HDFS.uri().resolve(folder + "/devices/" + d[0]))
            .append("\"\nstorage_policy = \"")
            .append(d[1])
            .append("\"\n");
      }
      toml.append("capacity = \"2 GB\"\nthreads = 2\ncodec = \"")
          .append(d[2])
          .append("\"\ncost_per_gb = \"20 ct\"\n\n");
    }
    return toml.toString();
  }
}
