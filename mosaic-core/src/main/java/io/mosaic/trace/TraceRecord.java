package io.mosaic.trace;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One table scan as executed (paper Section 3.4, Figure 3b): which columns it read, which row
 * groups, the bytes read from each device and how long it took. Placement works on these.
 */
public record TraceRecord(
    String queryId,
    String table,
    List<String> columns,
    List<Integer> rowGroups,
    Map<String, Long> bytesPerDevice,
    long elapsedMillis,
    Instant at) {

  public TraceRecord {
    columns = List.copyOf(columns);
    rowGroups = List.copyOf(rowGroups);
    bytesPerDevice = Map.copyOf(bytesPerDevice);
  }

  public long bytes() {
    return bytesPerDevice.values().stream().mapToLong(Long::longValue).sum();
  }
}
