package io.mosaic.scan;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Drives a chunk-mode scan as Trino's page source (mosaic-trino's MosaicPageSource) does: the
 * engine asks {@link #isFinished}, waits on {@link #isBlocked} when it is not done, and otherwise
 * asks for the next row group, which never parks its thread.
 */
record PageSourceDriver(Scan scan) {
  /** MosaicPageSource#isBlocked between row groups. */
  CompletableFuture<?> isBlocked() {
    return scan.hasNext() ? scan.ready() : CompletableFuture.completedFuture(null);
  }

  /** The row-group step of MosaicPageSource#getNextSourcePage: null when blocked or finished. */
  RowGroupChunks next() {
    return scan.ready().isDone() ? scan.nextChunks() : null;
  }

  /** MosaicPageSource#isFinished between row groups. */
  boolean isFinished() {
    return !scan.hasNext();
  }

  /** The engine's loop over the scan, to its end: each row group goes to {@code each}. */
  void drain(Consumer<RowGroupChunks> each) throws Exception {
    while (!isFinished()) {
      RowGroupChunks g = next();
      if (g != null) {
        each.accept(g);
      } else if (!isFinished()) {
        isBlocked().get(60, TimeUnit.SECONDS);
      }
    }
  }
}
