package io.mosaic.table;

import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import java.io.Serializable;
import java.util.List;

/**
 * What one writer task produced, not yet visible to readers: its row groups (row counts) and its
 * segments numbered from row group 0. The driver commits the results of all tasks at once ({@link
 * MosaicTable#append}); results of a failed job are never committed and gc removes them.
 */
public record WriteResult(
    String writerId, TableSchema schema, List<Long> rowGroups, List<SegmentEntry> segments)
    implements Serializable {
  public WriteResult {
    rowGroups = List.copyOf(rowGroups);
    segments = List.copyOf(segments);
  }

  public long rowCount() {
    return rowGroups.stream().mapToLong(Long::longValue).sum();
  }
}
