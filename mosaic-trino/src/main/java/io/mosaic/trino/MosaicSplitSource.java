package io.mosaic.trino;

import io.airlift.units.Duration;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.predicate.TupleDomain;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The splits of one table scan, planned once the join's dynamic filter is known: while the filter
 * may still narrow ({@link DynamicFilter#isAwaitable()}) and the wait timeout has not passed, it
 * hands Trino empty batches that complete when the filter narrows or the time is up (as Iceberg's
 * split source does); then core plans the scan with the filter's current predicate ANDed into the
 * table handle's constraint, so row groups the build side rules out get no split.
 */
final class MosaicSplitSource implements ConnectorSplitSource {
  private static final ConnectorSplitBatch EMPTY = new ConnectorSplitBatch(List.of(), false);

  private final TupleDomain<MosaicColumnHandle> constraint;
  private final DynamicFilter dynamicFilter;
  private final long waitNanos;
  private final long start = System.nanoTime();
  private final Function<TupleDomain<MosaicColumnHandle>, List<ConnectorSplit>> planner;
  // Null until planned; then the splits not yet handed out.
  private List<ConnectorSplit> remaining;
  private int next;

  /**
   * @param planner plans the scan under a constraint (the handle's and the dynamic filter's)
   */
  MosaicSplitSource(
      TupleDomain<MosaicColumnHandle> constraint,
      DynamicFilter dynamicFilter,
      Duration waitTimeout,
      Function<TupleDomain<MosaicColumnHandle>, List<ConnectorSplit>> planner) {
    this.constraint = constraint;
    this.dynamicFilter = dynamicFilter;
    this.waitNanos = waitTimeout.roundTo(TimeUnit.NANOSECONDS);
    this.planner = planner;
  }

  @Override
  public CompletableFuture<ConnectorSplitBatch> getNextBatch(int maxSize) {
    if (remaining == null) {
      long left = waitNanos - (System.nanoTime() - start);
      if (dynamicFilter.isAwaitable() && left > 0) {
        // Trino asks again when this completes: at once when the filter narrows or completes.
        return dynamicFilter
            .isBlocked()
            .thenApply(ignored -> EMPTY)
            .completeOnTimeout(EMPTY, left, TimeUnit.NANOSECONDS);
      }
      TupleDomain<MosaicColumnHandle> effective =
          constraint.intersect(
              dynamicFilter.getCurrentPredicate().transformKeys(MosaicColumnHandle.class::cast));
      remaining = effective.isNone() ? List.of() : planner.apply(effective);
    }
    int end = Math.min(remaining.size(), next + Math.max(1, maxSize));
    List<ConnectorSplit> batch = remaining.subList(next, end);
    next = end;
    return CompletableFuture.completedFuture(new ConnectorSplitBatch(batch, isFinished()));
  }

  @Override
  public boolean isFinished() {
    return remaining != null && next >= remaining.size();
  }

  @Override
  public void close() {}
}
