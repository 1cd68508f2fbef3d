package io.mosaic.scan;

import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.QueryClock;
import io.mosaic.trace.TraceFragment;
import io.mosaic.trace.TraceLog;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One engine scan of one table version, planned by core: the row groups the predicate's statistics
 * cannot rule out ({@link RowGroupFilter}), cut into splits of contiguous row groups of about the
 * {@link SplitTarget}'s bytes of the projected columns, with the bytes each split and the whole
 * scan plan to read from each device, and the hosts that hold each split's bytes ({@link
 * SplitHosts}). Engines turn splits into their own (Trino's splits, Spark's input partitions) and
 * execute each through {@link #request}: every split's {@link Scan} then appends what it actually
 * read to the trace as a fragment of this plan's {@code scanId}, and the trace reads the fragments
 * back as the scan's one record ({@link TraceLog#read}), whichever JVMs ran them.
 *
 * @param queryId the engine's query id, which the trace record carries
 * @param rowGroups the row groups selected, in order
 * @param rowGroupsSkipped row groups ruled out by statistics
 * @param bytesPerDevice planned bytes per device of the whole scan
 */
public record ScanPlan(
    String scanId,
    String queryId,
    String table,
    long version,
    List<String> columns,
    Predicate predicate,
    List<Integer> rowGroups,
    int rowGroupsSkipped,
    List<Split> splits,
    Map<String, Long> bytesPerDevice) {

  /**
   * Row groups {@code [fromRowGroup, toRowGroup)} and the bytes of the projected columns they hold
   * per device (planned: a segment's compressed bytes shared evenly by its row groups).
   *
   * @param hosts the hosts holding most of those bytes, most first, at most three: an engine's
   *     locality preference (docs/distributed-storage.md, "Locality"); empty on local devices
   */
  public record Split(
      int fromRowGroup, int toRowGroup, Map<String, Long> bytesPerDevice, List<String> hosts)
      implements Serializable {
    public Split {
      bytesPerDevice = Map.copyOf(bytesPerDevice);
      hosts = List.copyOf(hosts);
    }

    public Split(int fromRowGroup, int toRowGroup, Map<String, Long> bytesPerDevice) {
      this(fromRowGroup, toRowGroup, bytesPerDevice, List.of());
    }

    /** This split with {@code newHosts}. */
    public Split withHosts(List<String> newHosts) {
      return new Split(fromRowGroup, toRowGroup, bytesPerDevice, newHosts);
    }

    public long bytes() {
      return bytesPerDevice.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  public ScanPlan {
    columns = List.copyOf(columns);
    rowGroups = List.copyOf(rowGroups);
    splits = List.copyOf(splits);
    bytesPerDevice = Map.copyOf(bytesPerDevice);
  }

  /**
   * Plans a scan of {@code columns} of {@code manifest} (a version of {@code table} the engine has
   * pinned) under {@code predicate}. No columns (count(*)) plans the selected row groups in splits
   * cut only where the selection has gaps: they read nothing, and their scans record nothing.
   */
  public static ScanPlan of(
      MosaicTable table,
      Manifest manifest,
      List<String> columns,
      Predicate predicate,
      String queryId,
      SplitTarget target) {
    columns.forEach(c -> manifest.schema().column(c));
    QueryClock.jvm().scans(queryId, table);
    List<Integer> groups =
        RowGroupFilter.bind(table.name(), manifest, predicate)
            .select(0, manifest.rowGroups().size());
    List<Map<String, Long>> perGroup = new ArrayList<>();
    long total = 0;
    for (int g : groups) {
      Map<String, Long> bytes = bytes(manifest, columns, g);
      perGroup.add(bytes);
      total += bytes.values().stream().mapToLong(Long::longValue).sum();
    }
    long targetBytes = target.bytesFor(total);
    List<Split> splits = new ArrayList<>();
    Map<String, Long> planned = new LinkedHashMap<>();
    Map<String, Long> split = new LinkedHashMap<>();
    int start = -1;
    int last = -1;
    long size = 0;
    for (int i = 0; i < groups.size(); i++) {
      int g = groups.get(i);
      if (start >= 0 && (g != last + 1 || size >= targetBytes)) {
        splits.add(new Split(start, last + 1, split));
        split = new LinkedHashMap<>();
        start = -1;
        size = 0;
      }
      if (start < 0) {
        start = g;
      }
      last = g;
      for (Map.Entry<String, Long> e : perGroup.get(i).entrySet()) {
        size += e.getValue();
        split.merge(e.getKey(), e.getValue(), Long::sum);
        planned.merge(e.getKey(), e.getValue(), Long::sum);
      }
    }
    if (start >= 0) {
      splits.add(new Split(start, last + 1, split));
    }
    if (splits.size() < target.minSplits() && !columns.isEmpty()) {
      splits = divide(splits, groups, perGroup, target.minSplits());
    }
    splits = SplitHosts.locate(table.pool(), manifest, columns, splits);
    return new ScanPlan(
        UUID.randomUUID().toString(),
        queryId,
        table.name(),
        manifest.version(),
        columns,
        predicate,
        groups,
        manifest.rowGroups().size() - groups.size(),
        splits,
        planned);
  }

  /**
   * Halves the largest split of more than one row group, at the row-group boundary nearest its
   * middle byte, until there are {@code minSplits} splits or none can be divided: the engine then
   * has a split for each of its driver slots even for a table smaller than its target split size
   * per slot (Trino). Splits stay contiguous and in order.
   */
  private static List<Split> divide(
      List<Split> splits, List<Integer> groups, List<Map<String, Long>> perGroup, int minSplits) {
    Map<Integer, Map<String, Long>> bytesOf = new HashMap<>();
    for (int i = 0; i < groups.size(); i++) {
      bytesOf.put(groups.get(i), perGroup.get(i));
    }
    List<Split> result = new ArrayList<>(splits);
    while (result.size() < minSplits) {
      int largest = -1;
      for (int i = 0; i < result.size(); i++) {
        Split s = result.get(i);
        if (s.toRowGroup() - s.fromRowGroup() > 1
            && (largest < 0 || s.bytes() > result.get(largest).bytes())) {
          largest = i;
        }
      }
      if (largest < 0) {
        break; // every split is one row group: a row group is the unit
      }
      Split s = result.get(largest);
      long half = s.bytes() / 2;
      long seen = 0;
      int cut = s.fromRowGroup() + 1;
      for (int g = s.fromRowGroup(); g < s.toRowGroup() - 1; g++) {
        long next = seen + sum(bytesOf.get(g));
        // The boundary after g if that is at least as near the middle as the one before it.
        if (Math.abs(next - half) <= Math.abs(seen - half) || g == s.fromRowGroup()) {
          cut = g + 1;
        }
        seen = next;
      }
      result.set(largest, part(s.fromRowGroup(), cut, bytesOf));
      result.add(largest + 1, part(cut, s.toRowGroup(), bytesOf));
    }
    return result;
  }

  private static Split part(int from, int to, Map<Integer, Map<String, Long>> bytesOf) {
    Map<String, Long> perDevice = new LinkedHashMap<>();
    for (int g = from; g < to; g++) {
      bytesOf.get(g).forEach((d, b) -> perDevice.merge(d, b, Long::sum));
    }
    return new Split(from, to, perDevice);
  }

  private static long sum(Map<String, Long> bytes) {
    return bytes.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Bytes row group {@code g} of {@code columns} takes per device (its segment's share). */
  private static Map<String, Long> bytes(Manifest manifest, List<String> columns, int g) {
    Map<String, Long> perDevice = new LinkedHashMap<>();
    for (String c : columns) {
      SegmentEntry s = manifest.segmentFor(c, g);
      perDevice.merge(s.device(), s.compressedBytes() / s.rowGroupCount(), Long::sum);
    }
    return perDevice;
  }

  /** Planned bytes of the whole scan. */
  public long bytes() {
    return bytesPerDevice.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * The request that executes {@code split} (of this plan's version, which the executing JVM pins):
   * its scan appends a {@link TraceFragment} of this plan when it finishes. Engines add their
   * buffer size and chunk forms.
   */
  public ScanRequest request(Split split) {
    return ScanRequest.of(columns)
        .where(predicate)
        .rowGroups(split.fromRowGroup(), split.toRowGroup())
        .queryId(queryId)
        .partOf(scanId);
  }
}
