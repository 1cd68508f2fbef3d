package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What HDFS itself says about the segment files a split reads, for tests of split locality
 * (docs/distributed-storage.md, "Locality"): the hosts of every block of every file, straight from
 * {@link FileSystem#getFileBlockLocations}, not through Mosaic's storage.
 */
public final class SegmentHosts {
  private SegmentHosts() {}

  /**
   * The hosts of the blocks of the segments of {@code columns} holding row groups {@code [from,
   * to)} of {@code manifest}; segments on local devices have none.
   */
  public static Set<String> of(
      FileSystem fs, DevicePool pool, Manifest manifest, List<String> columns, int from, int to)
      throws IOException {
    Set<String> hosts = new LinkedHashSet<>();
    for (String c : columns) {
      for (int g = from; g < to; g++) {
        SegmentEntry s = manifest.segmentFor(c, g);
        Device device = pool.device(s.device());
        if (device.spec().local()) {
          continue;
        }
        FileStatus status = fs.getFileStatus(new Path(device.storage().root().resolve(s.path())));
        for (BlockLocation b : fs.getFileBlockLocations(status, 0, status.getLen())) {
          hosts.addAll(Arrays.asList(b.getHosts()));
        }
      }
    }
    return hosts;
  }
}
