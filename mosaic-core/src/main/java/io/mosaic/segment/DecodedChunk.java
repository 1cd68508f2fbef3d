package io.mosaic.segment;

import org.apache.arrow.vector.FieldVector;

/**
 * One decoded column chunk: its values, or, when {@code dictionary} is not null, int32 ids into
 * {@code dictionary}'s values (chunks stored wholly dictionary-encoded, decoded so only where the
 * reader asked for it). The caller owns both vectors.
 */
public record DecodedChunk(FieldVector vector, FieldVector dictionary) {}
