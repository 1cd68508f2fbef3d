package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;

import com.google.inject.Inject;
import io.mosaic.format.Manifest;
import io.mosaic.scan.ScanPlan;
import io.mosaic.scan.SplitTarget;
import io.mosaic.table.MosaicTable;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.FixedSplitSource;
import java.util.List;

/**
 * Has core plan the scan of the handle's table version ({@link ScanPlan}: row-group ranges of about
 * {@code mosaic.target-split-size} compressed bytes of the columns the query reads, after skipping
 * row groups by statistics) and hands its splits to Trino. Each split's scan records what it read
 * under the plan's scan id, which the trace merges into one record with Trino's query id (paper
 * Section 3.4).
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
    ScanPlan plan =
        call(
            () ->
                ScanPlan.of(
                    table,
                    manifest,
                    handle.projection() != null ? handle.projection() : manifest.schema().names(),
                    RowGroupPredicates.of(handle.constraint()),
                    session.getQueryId(),
                    SplitTarget.fixed(storage.config().getTargetSplitSize().toBytes())));
    List<ConnectorSplit> splits =
        plan.splits().stream()
            .<ConnectorSplit>map(
                s -> new MosaicSplit(s.fromRowGroup(), s.toRowGroup(), s.bytes(), plan.scanId()))
            .toList();
    return new FixedSplitSource(splits);
  }
}
