package io.mosaic.format;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import java.io.Serializable;
import java.util.List;

/**
 * A segment in the manifest: one column's data for row groups {@code [firstRowGroup, firstRowGroup
 * + rowGroupCount)}, stored as one single-column Parquet file on one device.
 *
 * @param path relative to the device's root
 * @param fileBytes size of the whole Parquet file
 * @param compressedBytes sum of the column chunks' compressed sizes (what a scan reads)
 * @param uncompressedBytes sum of the column chunks' uncompressed sizes
 * @param checksum {@code crc32c:<hex>} of the whole file
 * @param stats one entry per row group of the segment
 * @param chunkChecksums {@code crc32c:<hex>} of each row group's column chunk, checked by scans on
 *     the bytes they read (empty for segments written before chunks were checksummed)
 */
public record SegmentEntry(
    String column,
    String device,
    String path,
    Codec codec,
    int firstRowGroup,
    int rowGroupCount,
    long fileBytes,
    long compressedBytes,
    long uncompressedBytes,
    String checksum,
    List<RowGroupStats> stats,
    List<String> chunkChecksums)
    implements Serializable {

  public SegmentEntry {
    stats = List.copyOf(stats);
    chunkChecksums = List.copyOf(chunkChecksums); // one per row group: Manifest#check
    if (stats.size() != rowGroupCount) {
      throw MosaicException.invalid(
          "segment "
              + path
              + " has "
              + stats.size()
              + " stats for "
              + rowGroupCount
              + " row groups");
    }
  }

  /** The same segment recorded under column name {@code name} (the column was renamed). */
  public SegmentEntry withColumn(String name) {
    return new SegmentEntry(
        name,
        device,
        path,
        codec,
        firstRowGroup,
        rowGroupCount,
        fileBytes,
        compressedBytes,
        uncompressedBytes,
        checksum,
        stats,
        chunkChecksums);
  }

  /** The same segment with other statistics (ANALYZE adds sketches to an old segment's). */
  public SegmentEntry withStats(List<RowGroupStats> newStats) {
    return new SegmentEntry(
        column,
        device,
        path,
        codec,
        firstRowGroup,
        rowGroupCount,
        fileBytes,
        compressedBytes,
        uncompressedBytes,
        checksum,
        newStats,
        chunkChecksums);
  }

  /** The same segment with another whole-file checksum (its file was restamped: SegmentStamp). */
  public SegmentEntry withChecksum(String newChecksum) {
    return new SegmentEntry(
        column,
        device,
        path,
        codec,
        firstRowGroup,
        rowGroupCount,
        fileBytes,
        compressedBytes,
        uncompressedBytes,
        newChecksum,
        stats,
        chunkChecksums);
  }

  /**
   * How errors name this segment: {@code segment <file> of column '<c>' of table <t> on device
   * '<d>'}.
   */
  public String describe(String file, String table) {
    return "segment "
        + file
        + " of column '"
        + column
        + "' of table "
        + table
        + " on device '"
        + device
        + "'";
  }

  boolean covers(int rowGroup) {
    return rowGroup >= firstRowGroup && rowGroup < firstRowGroup + rowGroupCount;
  }

  /** The same segment renumbered to start at {@code first} (when a task's output is committed). */
  public SegmentEntry startingAt(int first) {
    return new SegmentEntry(
        column,
        device,
        path,
        codec,
        first,
        rowGroupCount,
        fileBytes,
        compressedBytes,
        uncompressedBytes,
        checksum,
        stats,
        chunkChecksums);
  }

  /** The recorded checksum of the chunk of table row group {@code rowGroup}, or null if none. */
  public String chunkChecksum(int rowGroup) {
    return chunkChecksums.isEmpty() ? null : chunkChecksums.get(rowGroup - firstRowGroup);
  }
}
