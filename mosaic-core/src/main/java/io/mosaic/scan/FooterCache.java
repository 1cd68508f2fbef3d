package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.device.DeviceReadChannel;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.DeviceInputFile;
import io.mosaic.segment.SegmentReader;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;

/**
 * Parquet footers of segments, read once: segment files never change after they are written (their
 * names are unique), so a footer stays valid as long as the file exists. Keeps the chunk-offset
 * lookups off the data devices on later scans.
 */
final class FooterCache {
  private static final int MAX_ENTRIES = 10_000;

  /** A footer as read, with the file's size, and the last manifest it was checked against. */
  private static final class Footer {
    final ParquetMetadata footer;
    final long fileSize;
    volatile Checked checked;

    Footer(ParquetMetadata footer, long fileSize) {
      this.footer = footer;
      this.fileSize = fileSize;
    }
  }

  /**
   * The manifest (not kept alive by the cache) and segment, by identity, a footer last passed
   * {@link Manifest#checkSegmentFooter} for: every scan of that manifest reuses the check.
   */
  private record Checked(WeakReference<Manifest> manifest, SegmentEntry segment) {}

  private final Map<String, Footer> footers =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Footer> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /**
   * The segment's footer if it is cached, else null; never reads. A cached footer is checked
   * against {@code manifest} (once per manifest) like a footer just read.
   *
   * @throws CorruptTableException if the segment does not match the manifest
   */
  ParquetMetadata cached(String table, Manifest manifest, Device device, SegmentEntry segment) {
    Footer entry;
    synchronized (footers) {
      entry = footers.get(key(device, segment));
    }
    return entry == null ? null : checked(entry, table, manifest, device, segment);
  }

  /**
   * The segment's footer, read from its device the first time, and checked against {@code manifest}
   * before use: a segment that is not what the manifest says (another column's file, a row count or
   * type the manifest does not give, ...) is refused rather than read.
   *
   * @throws CorruptTableException if the footer cannot be read or does not match the manifest
   */
  ParquetMetadata footer(String table, Manifest manifest, Device device, SegmentEntry segment) {
    ParquetMetadata cached = cached(table, manifest, device, segment);
    if (cached != null) {
      return cached;
    }
    String file = device.where(segment.path());
    Footer entry;
    try {
      long size;
      // names a vanished device clearly
      try (DeviceReadChannel ch = device.openForRead(segment.path(), segment.fileBytes())) {
        size = ch.size();
      }
      InputFile in = DeviceInputFile.direct(device, segment.path(), segment.fileBytes());
      try (ParquetFileReader reader =
          ParquetFileReader.open(
              in,
              SegmentReader.readOptions()
                  .withMetadataFilter(ParquetMetadataConverter.NO_FILTER)
                  .build())) {
        entry = new Footer(reader.getFooter(), size);
      }
    } catch (IOException | RuntimeException e) {
      boolean missing = !exists(device, segment);
      throw new CorruptTableException(
          segment.describe(file, table)
              + " (listed in manifest v"
              + manifest.version()
              + ") "
              + (missing
                  ? "is missing"
                      + (device.present() ? "" : " (the device directory itself is gone)")
                  : "has an unreadable footer: " + e.getMessage()),
          e);
    }
    synchronized (footers) {
      footers.put(key(device, segment), entry);
    }
    return checked(entry, table, manifest, device, segment);
  }

  private static ParquetMetadata checked(
      Footer entry, String table, Manifest manifest, Device device, SegmentEntry segment) {
    Checked last = entry.checked;
    if (last == null || last.segment() != segment || last.manifest().get() != manifest) {
      manifest.checkSegmentFooter(
          table, segment, device.where(segment.path()), entry.fileSize, entry.footer);
      entry.checked = new Checked(new WeakReference<>(manifest), segment);
    }
    return entry.footer;
  }

  private static boolean exists(Device device, SegmentEntry segment) {
    try {
      return device.storage().stat(segment.path()).isPresent();
    } catch (IOException | RuntimeException e) {
      return true; // unknown: the error then gives the read's own cause
    }
  }

  // By device id and key: a key names one file of a device, whatever storage holds it.
  private static String key(Device device, SegmentEntry segment) {
    return device.id() + "/" + segment.path();
  }
}
