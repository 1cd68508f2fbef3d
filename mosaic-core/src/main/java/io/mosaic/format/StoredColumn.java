package io.mosaic.format;

import io.mosaic.device.Codec;

/**
 * The part of a column kept on one device with one codec: what the engines' placement views show
 * (Spark's {@code placement} procedure, Trino's {@code $placement} table). A column has more than
 * one when its row groups span devices, e.g. after a migration stopped half way.
 *
 * @param compressedBytes what a scan of this part reads (sum of its chunks' compressed sizes)
 */
public record StoredColumn(
    String column,
    String device,
    Codec codec,
    int segments,
    long compressedBytes,
    long uncompressedBytes) {

  static StoredColumn of(SegmentEntry s) {
    return new StoredColumn(
        s.column(), s.device(), s.codec(), 1, s.compressedBytes(), s.uncompressedBytes());
  }

  /** This part and {@code other}, of the same column, device and codec. */
  StoredColumn plus(StoredColumn other) {
    return new StoredColumn(
        column,
        device,
        codec,
        segments + other.segments,
        compressedBytes + other.compressedBytes,
        uncompressedBytes + other.uncompressedBytes);
  }
}
