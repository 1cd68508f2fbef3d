package io.mosaic.cooperative;

/**
 * One column chunk as a device stores it: segment files are immutable, so the file and offset name
 * the same bytes for every scan of every version that lists them.
 *
 * @param column the table column the chunk holds (scans overlap by columns, Section 6.1)
 * @param device the device holding the file (its reader threads load the chunk)
 * @param file the segment file
 * @param offset where the chunk starts in the file
 * @param bytes its length
 */
public record ChunkRef(String column, String device, String file, long offset, long bytes) {
  public ChunkRef {
    if (bytes < 0 || offset < 0) {
      throw new IllegalArgumentException("chunk at " + offset + " of " + bytes + " bytes");
    }
  }
}
