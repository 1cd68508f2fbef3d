package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;

import com.google.inject.Inject;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.FixedSplitSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a table scan into row-group ranges of about {@code mosaic.target-split-size} compressed
 * bytes of the columns the query reads, after skipping row groups by statistics, and records the
 * scan once in the table's trace with Trino's query id (paper Section 3.4).
 */
final class MosaicSplitManager implements ConnectorSplitManager {
  private final MosaicStorage storage;

  @Inject
  MosaicSplitManager(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public ConnectorSplitSource getSplits(
      ConnectorTransactionHandle transaction,
      ConnectorSession session,
      ConnectorTableHandle tableHandle,
      DynamicFilter dynamicFilter,
      Constraint constraint) {
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    if (handle.constraint().isNone()) {
      return new FixedSplitSource(List.of());
    }
    MosaicTable table = storage.open(handle.name());
    Manifest manifest = call(() -> table.version(handle.version()));
    List<String> columns =
        handle.projection() != null ? handle.projection() : manifest.schema().names();
    Predicate predicate = RowGroupPredicates.of(handle.constraint());
    List<Integer> groups =
        new RowGroupFilter(table.name(), manifest, predicate)
            .select(0, manifest.rowGroups().size());
    long target = storage.config().getTargetSplitSize().toBytes();
    List<ConnectorSplit> splits = new ArrayList<>();
    Map<String, Long> planned = new LinkedHashMap<>();
    int start = -1;
    int last = -1;
    long size = 0;
    for (int g : groups) {
      if (start >= 0 && (g != last + 1 || size >= target)) {
        splits.add(new MosaicSplit(start, last + 1, size));
        start = -1;
        size = 0;
      }
      if (start < 0) {
        start = g;
      }
      last = g;
      for (String c : columns) {
        SegmentEntry s = manifest.segmentFor(c, g);
        long bytes = s.compressedBytes() / s.rowGroupCount();
        size += bytes;
        planned.merge(s.device(), bytes, Long::sum);
      }
    }
    if (start >= 0) {
      splits.add(new MosaicSplit(start, last + 1, size));
    }
    if (!columns.isEmpty()) {
      // A scan that only counts rows reads no column and is answered from the manifest.
      new TraceLog(table.root())
          .append(
              new TraceRecord(
                  session.getQueryId(), table.name(), columns, groups, planned, 0, Instant.now()));
    }
    return new FixedSplitSource(splits);
  }
}
