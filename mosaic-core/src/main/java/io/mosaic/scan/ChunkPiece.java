package io.mosaic.scan;

/**
 * Bytes of a column chunk as read from its segment file: the whole chunk, or under page pruning the
 * dictionary page or a run of adjacent data pages (each with its header).
 *
 * @param offset where the bytes start in the segment file
 * @param bytes the bytes; the engine must not change them
 */
public record ChunkPiece(long offset, byte[] bytes) {}
