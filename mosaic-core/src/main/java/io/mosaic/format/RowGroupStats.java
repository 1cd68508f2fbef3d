package io.mosaic.format;

import java.io.Serializable;

/**
 * Statistics of one column in one row group, for skipping row groups a predicate rules out and for
 * the engines' cost-based optimizers. {@code min} and {@code max} are null when unknown (all values
 * null, or too long to keep) and otherwise typed as {@link ValueCodec} says: Long, Double, Boolean,
 * BigDecimal, String or byte[].
 *
 * @param distinct the row group's {@link DistinctSketch} in its manifest form (base64), or null
 *     when unknown (written before sketches existed, or a chunk copied as is by import: ANALYZE
 *     adds it)
 * @param dataBytes for strings and binaries, the total length of the non-null values as stored,
 *     uncompressed and unencoded; -1 when unknown or for other types
 */
public record RowGroupStats(Object min, Object max, long nulls, String distinct, long dataBytes)
    implements Serializable {

  public RowGroupStats(Object min, Object max, long nulls) {
    this(min, max, nulls, null, -1);
  }

  /** These statistics with a sketch and data size (from the writer or ANALYZE). */
  public RowGroupStats withValues(String distinct, long dataBytes) {
    return new RowGroupStats(min, max, nulls, distinct, dataBytes);
  }

  public boolean hasDistinct() {
    return distinct != null;
  }
}
