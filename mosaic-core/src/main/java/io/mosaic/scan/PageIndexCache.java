package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.ChunkInputFile;
import io.mosaic.segment.DeviceInputFile;
import io.mosaic.segment.SegmentReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The column indexes and offset indexes of segments (Parquet's page index, which the segment writer
 * writes for every chunk), read once per segment file and kept, as {@link FooterCache} keeps
 * footers and for the same reason: segment files never change. Bounded by the pages they describe.
 */
final class PageIndexCache {
  // About 100 bytes per page kept (offsets, sizes, min/max): at most some tens of MiB.
  private static final long MAX_PAGES = 500_000;

  /**
   * One chunk's page index, with the Parquet type its min/max values are encoded in; either index
   * may be null when the file has none.
   */
  record PageIndex(PrimitiveType type, ColumnIndex columnIndex, OffsetIndex offsetIndex) {
    int pages() {
      return offsetIndex == null ? 1 : offsetIndex.getPageCount();
    }
  }

  private record Segment(List<PageIndex> groups, long pages) {}

  private long pages;
  private final Map<String, Segment> entries =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Segment> eldest) {
          if (pages > MAX_PAGES && size() > 1) {
            pages -= eldest.getValue().pages();
            return true;
          }
          return false;
        }
      };

  /**
   * The page index of the segment's chunk of table row group {@code group}; the whole segment's
   * indexes are read (from the end of its file) the first time any of them is asked for.
   *
   * @param footer the segment's footer, already checked against {@code manifest}
   * @throws CorruptTableException if the indexes cannot be read
   */
  PageIndex get(
      String table,
      Manifest manifest,
      Device device,
      SegmentEntry segment,
      ParquetMetadata footer,
      int group) {
    String key = device.id() + "/" + segment.path();
    Segment entry;
    synchronized (entries) {
      entry = entries.get(key);
    }
    if (entry == null) {
      entry = read(table, manifest, device, segment, footer);
      synchronized (entries) {
        if (entries.putIfAbsent(key, entry) == null) {
          pages += entry.pages();
        }
      }
    }
    return entry.groups().get(group - segment.firstRowGroup());
  }

  private static Segment read(
      String table,
      Manifest manifest,
      Device device,
      SegmentEntry segment,
      ParquetMetadata footer) {
    String file = device.where(segment.path());
    List<PageIndex> groups = new ArrayList<>();
    long pages = 0;
    // Every chunk's indexes lie together before the footer: read them in one request, since
    // parquet-java parses an index with a read per field, a GET each on an object store.
    long from = Long.MAX_VALUE;
    long to = -1;
    for (BlockMetaData block : footer.getBlocks()) {
      ColumnChunkMetaData chunk = block.getColumns().get(0);
      for (IndexReference ref :
          new IndexReference[] {chunk.getColumnIndexReference(), chunk.getOffsetIndexReference()}) {
        if (ref != null) {
          from = Math.min(from, ref.getOffset());
          to = Math.max(to, ref.getOffset() + ref.getLength());
        }
      }
    }
    try {
      byte[] indexes = new byte[from < to ? Math.toIntExact(to - from) : 0];
      if (indexes.length > 0) {
        DeviceInputFile source =
            DeviceInputFile.direct(device, segment.path(), segment.fileBytes());
        try (SeekableInputStream stream = source.newStream()) {
          stream.seek(from);
          stream.readFully(indexes);
        }
      }
      InputFile in = new ChunkInputFile(segment.fileBytes(), from, indexes);
      try (ParquetFileReader reader =
          ParquetFileReader.open(in, footer, SegmentReader.readOptions().build(), in.newStream())) {
        for (BlockMetaData block : footer.getBlocks()) {
          var chunk = block.getColumns().get(0);
          PageIndex index =
              new PageIndex(
                  chunk.getPrimitiveType(),
                  reader.readColumnIndex(chunk),
                  reader.readOffsetIndex(chunk));
          groups.add(index);
          pages += index.pages();
        }
      }
    } catch (IOException | RuntimeException e) {
      throw new CorruptTableException(
          segment.describe(file, table)
              + " (listed in manifest v"
              + manifest.version()
              + ") has an unreadable page index: "
              + e.getMessage(),
          e);
    }
    return new Segment(List.copyOf(groups), pages);
  }
}
