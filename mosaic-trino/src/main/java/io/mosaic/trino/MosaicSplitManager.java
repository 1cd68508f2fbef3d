package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;

import com.google.inject.Inject;
import io.mosaic.format.Manifest;
import io.mosaic.scan.ScanPlan;
import io.mosaic.scan.SplitTarget;
import io.mosaic.table.MosaicTable;
import io.trino.spi.NodeManager;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitManager;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.FixedSplitSource;
import io.trino.spi.predicate.TupleDomain;
import java.util.List;

/**
 * Has core plan the scan of the handle's table version ({@link ScanPlan}: row-group ranges of about
 * {@code mosaic.target-split-size} compressed bytes of the columns the query reads, at least one
 * per driver slot of the cluster, after skipping row groups by statistics, including those of the
 * join's dynamic filter, which {@link MosaicSplitSource} waits for) and hands its splits to Trino.
 * Each split's scan records what it read under the plan's scan id, which the trace merges into one
 * record with Trino's query id (paper Section 3.4).
 */
final class MosaicSplitManager implements ConnectorSplitManager {
  private final MosaicStorage storage;
  private final NodeManager nodes;

  @Inject
  MosaicSplitManager(MosaicStorage storage, NodeManager nodes) {
    this.storage = storage;
    this.nodes = nodes;
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
    return new MosaicSplitSource(
        handle.constraint(),
        dynamicFilter,
        MosaicSessionProperties.dynamicFilteringWaitTimeout(session),
        effective -> plan(session, handle, effective));
  }

  private List<ConnectorSplit> plan(
      ConnectorSession session,
      MosaicTableHandle handle,
      TupleDomain<MosaicColumnHandle> constraint) {
    MosaicTable table = storage.open(handle.name());
    Manifest manifest = call(() -> table.version(handle.version()));
    long target = storage.config().getTargetSplitSize().toBytes();
    ScanPlan plan =
        call(
            () ->
                ScanPlan.of(
                    table,
                    manifest,
                    handle.projection() != null ? handle.projection() : manifest.schema().names(),
                    RowGroupPredicates.of(constraint),
                    session.getQueryId(),
                    SplitTarget.fixed(target, driverSlots())));
    double minWeight = storage.config().getMinimumAssignedSplitWeight();
    return plan.splits().stream()
        .<ConnectorSplit>map(
            s ->
                MosaicSplit.of(
                    plan.request(s),
                    s.bytes(),
                    // As Hive weighs its splits: bytes over the target, clamped to [min, 1].
                    SplitWeight.fromProportion(
                        Math.min(1.0, Math.max(minWeight, (double) s.bytes() / target))),
                    s.hosts()))
        .toList();
  }

  /**
   * The cluster's driver slots: its worker nodes (the coordinator too where it schedules work)
   * times this node's cores, which is how many leaf splits Trino runs at once on a node by default
   * (task.concurrency and the task executor's threads follow the cores). Without the minimum a
   * table smaller than the target split size per slot left most drivers idle.
   */
  private int driverSlots() {
    int workers = Math.max(1, nodes.getWorkerNodes().size());
    return workers * Runtime.getRuntime().availableProcessors();
  }
}
