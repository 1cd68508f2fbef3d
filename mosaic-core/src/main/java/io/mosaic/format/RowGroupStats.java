package io.mosaic.format;

import java.io.Serializable;

/**
 * Statistics of one column in one row group, for skipping row groups a predicate rules out. {@code
 * min} and {@code max} are null when unknown (all values null, or too long to keep) and otherwise
 * typed as {@link ValueCodec} says: Long, Double, Boolean, BigDecimal, String or byte[].
 */
public record RowGroupStats(Object min, Object max, long nulls) implements Serializable {}
