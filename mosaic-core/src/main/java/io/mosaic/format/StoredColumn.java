package io.mosaic.format;

import io.mosaic.config.Codec;

/**
 * The part of a column kept on one device with one codec: what the engines' placement views show
 * (Spark's {@code placement} procedure, Trino's {@code $placement} table). A column has more than
 * one when its row groups span devices, e.g. after a migration stopped half way.
 *
 * @param compressedBytes what a scan of this part reads (sum of its chunks' compressed sizes)
 * @param rowGroups the row groups of this part as slices {@code from:to} (row groups {@code from}
 *     to {@code to - 1}), comma-separated where it is not contiguous: a column whose row ranges
 *     were placed apart (docs/row-ranges.md) shows which rows each device holds
 */
public record StoredColumn(
    String column,
    String device,
    Codec codec,
    int segments,
    long compressedBytes,
    long uncompressedBytes,
    String rowGroups) {

  static StoredColumn of(SegmentEntry s) {
    return new StoredColumn(
        s.column(),
        s.device(),
        s.codec(),
        1,
        s.compressedBytes(),
        s.uncompressedBytes(),
        s.firstRowGroup() + ":" + (s.firstRowGroup() + s.rowGroupCount()));
  }

  /** This part and {@code other}, of the same column, device and codec, following it in rows. */
  StoredColumn plus(StoredColumn other) {
    String ranges = rowGroups + "," + other.rowGroups;
    int cut = rowGroups.lastIndexOf(':');
    int next = other.rowGroups.indexOf(':');
    if (rowGroups.substring(cut + 1).equals(other.rowGroups.substring(0, next))) {
      ranges = rowGroups.substring(0, cut) + other.rowGroups.substring(next); // adjacent: one slice
    }
    return new StoredColumn(
        column,
        device,
        codec,
        segments + other.segments,
        compressedBytes + other.compressedBytes,
        uncompressedBytes + other.uncompressedBytes,
        ranges);
  }
}
