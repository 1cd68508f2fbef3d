package io.mosaic.scan;

import io.mosaic.MosaicException;

/**
 * How many bytes of the requested columns one split of a {@link ScanPlan} aims at: {@code
 * min(maxBytes, max(minBytes, total / splits))} for a scan of {@code total} bytes. A split is cut
 * after the row group that reaches the target, so it may exceed it by at most one row group. A plan
 * with fewer than {@code minSplits} splits then halves its largest splits at row-group boundaries
 * until it has that many or every split is one row group (the unit a split cannot go below).
 */
public record SplitTarget(long maxBytes, long minBytes, int splits, int minSplits) {
  /** Largest split a scan spread over the cores aims at. */
  public static final long SPLIT_BYTES = 128L << 20;

  /** Smallest: below this a split's fixed costs outweigh what it reads. */
  static final long MIN_SPLIT_BYTES = 4L << 20;

  // Row groups cannot be divided, and a table appended by several tasks has row groups of unequal
  // sizes (TPC-H lineitem SF 1: 1 M and 0.45 M rows in turn). One split per core, as Spark's file
  // source plans, then left a core idle for a third of a scan; several per core let the engine's
  // scheduler even the load out.
  public static final int SPLITS_PER_CORE = 4;

  public SplitTarget {
    if (maxBytes < 1 || minBytes < 1 || minBytes > maxBytes || splits < 1 || minSplits < 1) {
      throw MosaicException.invalid(
          "a split target needs 1 <= minBytes <= maxBytes and at least one split, not min "
              + minBytes
              + ", max "
              + maxBytes
              + ", "
              + splits
              + " splits, at least "
              + minSplits);
    }
  }

  public SplitTarget(long maxBytes, long minBytes, int splits) {
    this(maxBytes, minBytes, splits, 1);
  }

  /** Splits of about {@code bytes} each, whatever the scan's size (Trino's target split size). */
  public static SplitTarget fixed(long bytes) {
    return new SplitTarget(bytes, bytes, 1);
  }

  /**
   * Splits of at most about {@code bytes} each, and at least {@code minSplits} of them where the
   * scan has that many row groups: Trino's target split size over its cluster's driver slots, so a
   * table smaller than {@code bytes} per slot still gives every driver work.
   */
  public static SplitTarget fixed(long bytes, int minSplits) {
    return new SplitTarget(bytes, bytes, 1, minSplits);
  }

  /**
   * {@value #SPLITS_PER_CORE} splits per core of {@code cores}, each between {@value
   * #MIN_SPLIT_BYTES} and {@value #SPLIT_BYTES} bytes (Spark, over its default parallelism).
   */
  public static SplitTarget perCore(int cores) {
    return new SplitTarget(SPLIT_BYTES, MIN_SPLIT_BYTES, SPLITS_PER_CORE * Math.max(1, cores));
  }

  /** The target for a scan of {@code totalBytes}. */
  long bytesFor(long totalBytes) {
    return Math.min(maxBytes, Math.max(minBytes, totalBytes / splits));
  }
}
