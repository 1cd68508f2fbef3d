package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.table.CorruptTableException;
import io.mosaic.table.SegmentEntry;
import io.mosaic.table.SegmentReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;

/**
 * Parquet footers of segments, read once: segment files never change after they are written (their
 * names are unique), so a footer stays valid as long as the file exists. Keeps the chunk-offset
 * lookups off the data devices on later scans.
 */
final class FooterCache {
  private static final int MAX_ENTRIES = 10_000;

  private final Map<String, ParquetMetadata> footers =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ParquetMetadata> eldest) {
          return size() > MAX_ENTRIES;
        }
      };

  /** The segment's footer if it is cached, else null; never reads. */
  ParquetMetadata cached(Device device, SegmentEntry segment) {
    synchronized (footers) {
      return footers.get(key(device, segment));
    }
  }

  /** The segment's footer, read from its device the first time. */
  ParquetMetadata footer(String table, Device device, SegmentEntry segment) {
    ParquetMetadata cached = cached(device, segment);
    if (cached != null) {
      return cached;
    }
    Path file = device.resolve(segment.path());
    ParquetMetadata footer;
    try {
      device.openForRead(file).close(); // names a vanished device directory clearly
      InputFile in = new LocalInputFile(file);
      try (ParquetFileReader reader =
          ParquetFileReader.open(
              in,
              SegmentReader.readOptions()
                  .withMetadataFilter(ParquetMetadataConverter.NO_FILTER)
                  .build())) {
        footer = reader.getFooter();
      }
    } catch (IOException | RuntimeException e) {
      boolean missing = !Files.exists(file);
      throw new CorruptTableException(
          "segment "
              + file
              + " of column '"
              + segment.column()
              + "' of table "
              + table
              + " on device '"
              + device.id()
              + "' "
              + (missing
                  ? "is missing"
                      + (Files.isDirectory(device.root())
                          ? ""
                          : " (the device directory itself is gone)")
                  : "has an unreadable footer: " + e.getMessage()),
          e);
    }
    synchronized (footers) {
      footers.put(key(device, segment), footer);
    }
    return footer;
  }

  private static String key(Device device, SegmentEntry segment) {
    return device.id() + "/" + segment.path();
  }
}
