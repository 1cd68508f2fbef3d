package io.mosaic.scan;

import java.util.List;

/**
 * What an engine asks for: columns, the row groups {@code [fromRowGroup, toRowGroup)} (a split;
 * {@code toRowGroup = -1} means to the end), a predicate for row-group skipping, the query id for
 * the trace, and how many bytes of raw column chunks may be prefetched.
 */
public record ScanRequest(
    List<String> columns,
    Predicate predicate,
    int fromRowGroup,
    int toRowGroup,
    String queryId,
    long bufferBytes) {

  public static final long DEFAULT_BUFFER_BYTES = 256L << 20;

  public ScanRequest {
    columns = List.copyOf(columns);
    if (bufferBytes <= 0) {
      throw new IllegalArgumentException("the scan buffer must be positive, not " + bufferBytes);
    }
  }

  public static ScanRequest of(List<String> columns) {
    return new ScanRequest(columns, Predicate.ALL, 0, -1, null, DEFAULT_BUFFER_BYTES);
  }

  public ScanRequest where(Predicate p) {
    return new ScanRequest(columns, p, fromRowGroup, toRowGroup, queryId, bufferBytes);
  }

  public ScanRequest rowGroups(int from, int to) {
    return new ScanRequest(columns, predicate, from, to, queryId, bufferBytes);
  }

  public ScanRequest queryId(String id) {
    return new ScanRequest(columns, predicate, fromRowGroup, toRowGroup, id, bufferBytes);
  }

  public ScanRequest buffer(long bytes) {
    return new ScanRequest(columns, predicate, fromRowGroup, toRowGroup, queryId, bytes);
  }
}
