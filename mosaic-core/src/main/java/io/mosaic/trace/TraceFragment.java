package io.mosaic.trace;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one split of a planned engine scan read ({@code io.mosaic.scan.ScanPlan}): the splits of one
 * scan run on any JVMs of the engine, each appends its fragment when it finishes, and {@link
 * TraceLog#read} merges the fragments of one {@code scanId} into the scan's one {@link
 * TraceRecord}. A split is known by its row groups {@code [fromRowGroup, toRowGroup)}: an engine
 * may run one split twice (a retried or speculative task, a plan executed again), and the scan
 * still read it once.
 */
public record TraceFragment(
    String scanId,
    int fromRowGroup,
    int toRowGroup,
    String queryId,
    String table,
    List<String> columns,
    List<Integer> rowGroups,
    Map<String, Long> bytesPerDevice,
    Instant start,
    Instant end) {

  public TraceFragment {
    columns = List.copyOf(columns);
    rowGroups = List.copyOf(rowGroups);
    bytesPerDevice = Map.copyOf(bytesPerDevice);
  }

  public long bytes() {
    return bytesPerDevice.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * One scan's record from its splits' fragments: the row groups and bytes they read, its columns,
   * and its time from the first split's start to the last one's end, which is the scan's wall time
   * the cost model predicts (paper Eq. 3), not the sum of its splits' times. Of several runs of one
   * split, the one that read most counts (a failed attempt stops early).
   */
  static TraceRecord merge(List<TraceFragment> all) {
    Map<Integer, TraceFragment> bySplit = new LinkedHashMap<>();
    for (TraceFragment f : all) {
      bySplit.merge(f.fromRowGroup(), f, (a, b) -> b.bytes() > a.bytes() ? b : a);
    }
    List<TraceFragment> fragments = new ArrayList<>(bySplit.values());
    TraceFragment first = fragments.get(0);
    Set<String> columns = new LinkedHashSet<>();
    Set<Integer> groups = new TreeSet<>();
    Map<String, Long> bytes = new LinkedHashMap<>();
    Instant start = first.start();
    Instant end = first.end();
    for (TraceFragment f : fragments) {
      columns.addAll(f.columns());
      groups.addAll(f.rowGroups());
      f.bytesPerDevice().forEach((d, b) -> bytes.merge(d, b, Long::sum));
      start = f.start().isBefore(start) ? f.start() : start;
      end = f.end().isAfter(end) ? f.end() : end;
    }
    return new TraceRecord(
        first.queryId(),
        first.table(),
        new ArrayList<>(columns),
        new ArrayList<>(groups),
        bytes,
        Math.max(0, Duration.between(start, end).toMillis()),
        end);
  }
}
