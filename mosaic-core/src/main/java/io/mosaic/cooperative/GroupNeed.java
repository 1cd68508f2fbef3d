package io.mosaic.cooperative;

import java.util.List;

/**
 * A logical chunk a scan needs (the paper's chunk, Section 6.1): one row group of a table, with the
 * column chunks of the scan's columns. Scans of the same table share a row group's chunks whatever
 * columns they read; a row group is delivered once all of a scan's chunks are loaded.
 *
 * @param table the table's identity (row groups of one table are numbered alike in every version)
 * @param group the row group's number in the table
 * @param chunks the scan's column chunks of that row group, each on its device
 */
public record GroupNeed(String table, int group, List<ChunkRef> chunks) {
  public GroupNeed {
    chunks = List.copyOf(chunks);
  }

  public long bytes() {
    return chunks.stream().mapToLong(ChunkRef::bytes).sum();
  }

  /** The logical chunk's identity, shared by every scan of the table. */
  GroupKey key() {
    return new GroupKey(table, group);
  }

  record GroupKey(String table, int group) {}
}
