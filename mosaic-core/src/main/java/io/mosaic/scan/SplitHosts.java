package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.storage.Storage.BlockHosts;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts holding the bytes each split of a plan reads, for engines' locality
 * (docs/distributed-storage.md, "Locality"): for every segment a split reads, the blocks that hold
 * its row groups' bytes, each host ranked by the bytes it holds, at most {@value #MAX_HOSTS}.
 * Segments on local devices have no hosts, and a plan whose pool has only local devices asks
 * nothing. One lookup per segment file per plan (one NameNode call on HDFS), however many splits
 * read the file.
 *
 * <p>Where a row group's bytes lie in its segment is in the Parquet footer, which planning does not
 * read; the plan shares a segment's compressed bytes evenly by its row groups (as {@link ScanPlan}
 * plans bytes), after the file's 4-byte magic, in row-group order as Parquet writes them.
 */
final class SplitHosts {
  /** As many hosts as HDFS keeps replicas of a block by default. */
  static final int MAX_HOSTS = 3;

  private static final long MAGIC_BYTES = 4;

  private final DevicePool pool;
  private final Map<String, List<SegmentEntry>> segments = new HashMap<>();
  private final Map<List<String>, List<BlockHosts>> blocks = new HashMap<>();

  private SplitHosts(DevicePool pool, Manifest manifest, List<String> columns) {
    this.pool = pool;
    for (String c : columns) {
      segments.put(c, manifest.segmentsOf(c));
    }
  }

  /** {@code splits} of {@code columns} of {@code manifest}, each with its hosts. */
  static List<ScanPlan.Split> locate(
      DevicePool pool, Manifest manifest, List<String> columns, List<ScanPlan.Split> splits) {
    if (pool.devices().stream().allMatch(d -> d.spec().local())) {
      return splits;
    }
    SplitHosts hosts = new SplitHosts(pool, manifest, columns);
    return splits.stream().map(s -> s.withHosts(hosts.of(s))).toList();
  }

  private List<String> of(ScanPlan.Split split) {
    Map<String, Long> bytes = new LinkedHashMap<>();
    for (List<SegmentEntry> column : segments.values()) {
      for (SegmentEntry s : column) {
        int from = Math.max(split.fromRowGroup(), s.firstRowGroup());
        int to = Math.min(split.toRowGroup(), s.firstRowGroup() + s.rowGroupCount());
        if (from >= to) {
          continue;
        }
        Device device = pool.device(s.device());
        if (device.spec().local()) {
          continue;
        }
        long share = s.compressedBytes() / s.rowGroupCount();
        long start = MAGIC_BYTES + (from - s.firstRowGroup()) * share;
        long end = MAGIC_BYTES + (to - s.firstRowGroup()) * share;
        add(bytes, blocks(device, s), start, end);
      }
    }
    return rank(bytes);
  }

  private List<BlockHosts> blocks(Device device, SegmentEntry s) {
    return blocks.computeIfAbsent(
        List.of(device.id(), s.path()),
        k -> {
          try {
            return device.storage().blockHosts(s.path());
          } catch (IOException e) {
            throw MosaicException.io(
                "cannot find the hosts of segment " + device.where(s.path()) + " to plan a scan",
                e);
          }
        });
  }

  /** Adds the bytes of {@code [from, to)} each host of {@code blocks} holds to {@code bytes}. */
  static void add(Map<String, Long> bytes, List<BlockHosts> blocks, long from, long to) {
    for (BlockHosts b : blocks) {
      long overlap = b.overlap(from, to);
      if (overlap > 0) {
        for (String host : b.hosts()) {
          bytes.merge(host, overlap, Long::sum);
        }
      }
    }
  }

  /** The hosts holding the most bytes, most first (by name among equals), at most 3. */
  static List<String> rank(Map<String, Long> bytes) {
    List<Map.Entry<String, Long>> entries = new ArrayList<>(bytes.entrySet());
    entries.sort(
        Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()));
    return entries.stream().limit(MAX_HOSTS).map(Map.Entry::getKey).toList();
  }
}
