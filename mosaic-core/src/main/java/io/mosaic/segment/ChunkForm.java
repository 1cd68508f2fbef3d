package io.mosaic.segment;

/**
 * The forms a decoded chunk may take besides a vector of its column's Arrow type, for engines that
 * read them: {@code dictionaryIds}, a chunk stored wholly dictionary-encoded as int32 ids plus the
 * dictionary's values ({@link DecodedChunk}); {@code unscaledDecimals}, a decimal stored as int64
 * (precision 10 to 18) as a {@code BigIntVector} of its unscaled values, which is how Spark holds
 * such decimals, instead of Arrow's 16-byte decimals: half the bytes to write and read per value.
 */
public record ChunkForm(boolean dictionaryIds, boolean unscaledDecimals)
    implements java.io.Serializable {
  /** Every chunk as a vector of its column's own Arrow type. */
  public static final ChunkForm PLAIN = new ChunkForm(false, false);
}
