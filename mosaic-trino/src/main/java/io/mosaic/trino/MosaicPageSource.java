package io.mosaic.trino;

import io.mosaic.MosaicException;
import io.mosaic.format.DeletedRows;
import io.mosaic.scan.RowGroupChunks;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanStats;
import io.mosaic.table.TablePin;
import io.trino.memory.context.AggregatedMemoryContext;
import io.trino.parquet.ParquetReaderOptions;
import io.trino.parquet.reader.ColumnReaderFactory;
import io.trino.parquet.reader.FilteredRowRanges;
import io.trino.plugin.base.metrics.LongCount;
import io.trino.spi.block.Block;
import io.trino.spi.block.LongArrayBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.metrics.Metric;
import io.trino.spi.metrics.Metrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.joda.time.DateTimeZone;

/**
 * Reads one split. Core's scan (in chunk mode) reads each row group's column chunks from their
 * devices in parallel, ahead of this page source within the scan buffer, and checks them (paper
 * Section 3.3); this page source decodes them on the driver thread with trino-parquet's column
 * readers, in pages of at most {@value #MAX_PAGE_ROWS} rows whose columns decode only when the
 * engine touches them ({@link LazySourcePage}). It never parks the driver thread: {@link
 * #isBlocked()} is the future of the next row group's chunks.
 */
final class MosaicPageSource implements ConnectorPageSource {
  static final int MAX_PAGE_ROWS = 8192;

  /** Metric names (per column, {@code <name>:<column>}): batches decoded and batches skipped. */
  static final String DECODED_BATCHES = "mosaic_decoded_batches";

  static final String SKIPPED_BATCHES = "mosaic_skipped_batches";

  /** Column chunks the devices read for this split (connector metric). */
  static final String CHUNKS_READ = "mosaic_chunks_read";

  /** Column chunks this split got from the shared scan buffer, loaded for another scan. */
  static final String CHUNKS_SHARED = "mosaic_chunks_shared";

  /** Bytes the devices read for this split, per device ({@code mosaic_bytes_read:<device>}). */
  static final String BYTES_READ = "mosaic_bytes_read";

  // Timestamps are stored as UTC instants and read as such: no zone conversion.
  private static final ParquetReaderOptions OPTIONS = ParquetReaderOptions.defaultOptions();

  private final TablePin pin;
  private final Scan scan;
  private final List<MosaicColumnHandle> columns;
  private final ColumnReaderFactory factory = new ColumnReaderFactory(DateTimeZone.UTC, OPTIONS);
  private final AggregatedMemoryContext memory =
      AggregatedMemoryContext.newSimpleAggregatedMemoryContext();
  private final long[] decodedBatches;
  private final long[] batches;
  private ChunkColumnReader[] readers;
  // The current row group's deleted rows (null when none), and the row position of each row it
  // emits (null when they are all its rows in order); the row id column needs them too.
  private DeletedRows deleted;
  private int[] rowPositions;
  private int rowGroup;
  private long groupRows;
  private long groupPosition;
  // Counts pages handed out: a page's columns load only while it is the newest one.
  private long batch;
  private LazySourcePage page;
  private long completedBytes;
  private long completedPositions;
  private long readNanos;
  private boolean closed;

  // The channel of the row id column a DELETE, UPDATE or MERGE reads, or -1; the scan reads no
  // chunk for it.
  private final int rowIdChannel;

  /**
   * A scan of {@code columns}; with none (count(*)), pages of each row group's row count. The scan
   * reads the chunks of all columns but the row id column, in their order.
   */
  MosaicPageSource(TablePin pin, Scan scan, List<MosaicColumnHandle> columns) {
    this.pin = pin;
    this.scan = scan;
    this.columns = columns;
    this.rowIdChannel = columns.indexOf(MosaicColumnHandle.ROW_ID);
    this.decodedBatches = new long[columns.size()];
    this.batches = new long[columns.size()];
  }

  @Override
  public CompletableFuture<?> isBlocked() {
    if (closed || groupPosition < groupRows || !scan.hasNext()) {
      return NOT_BLOCKED;
    }
    try {
      return scan.ready();
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
  }

  @Override
  public SourcePage getNextSourcePage() {
    if (closed) {
      return null;
    }
    long start = System.nanoTime();
    try {
      while (groupPosition == groupRows) {
        // Never wait on a device here: the engine asks isBlocked() when this returns null. Once
        // ready() is done nextChunks() does not wait; null from it: a dynamic filter ruled out the
        // remaining row groups as they arrived, and isFinished() now says so.
        RowGroupChunks next = scan.ready().isDone() ? scan.nextChunks() : null;
        if (next == null) {
          return null;
        }
        openRowGroup(next);
      }
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    } finally {
      readNanos += System.nanoTime() - start;
    }
    int n = (int) Math.min(MAX_PAGE_ROWS, groupRows - groupPosition);
    int first = (int) groupPosition;
    groupPosition += n;
    completedPositions += n;
    for (int c = 0; c < readers.length; c++) {
      if (readers[c] != null) {
        readers[c].next(n);
      }
      batches[c]++;
    }
    long id = ++batch;
    page = new LazySourcePage(n, readers.length, channel -> load(id, channel, first, n));
    if (deleted != null) {
      // Deleted rows are decoded with their page and dropped from it (docs/format.md, "Deletion
      // vectors"): the page's columns load lazily, then through these positions.
      int[] live = new int[n];
      int kept = 0;
      if (rowPositions == null) {
        kept = deleted.livePositions(first, n, live); // the row group's rows in order
      } else {
        for (int i = 0; i < n; i++) {
          if (!deleted.contains(rowAt(first + i))) {
            live[kept++] = i;
          }
        }
      }
      if (kept < n) {
        page.selectPositions(live, 0, kept);
      }
    }
    return page;
  }

  /** The position within the row group of the {@code i}-th row this row group emits. */
  private int rowAt(int i) {
    return rowPositions == null ? i : rowPositions[i];
  }

  private void openRowGroup(RowGroupChunks group) {
    completedBytes += group.bytes();
    // Under page pruning only the rows of the row ranges are decoded and emitted, by every column.
    groupRows = group.selectedRows();
    groupPosition = 0;
    rowGroup = group.rowGroup();
    deleted = pin.manifest().deletedRows(rowGroup);
    readers = new ChunkColumnReader[columns.size()];
    rowPositions = null;
    if (groupRows == 0) {
      return;
    }
    if (group.rowRanges() != null && (deleted != null || rowIdChannel >= 0)) {
      rowPositions = new int[(int) groupRows];
      var it = group.rowRanges().iterator();
      for (int i = 0; i < rowPositions.length; i++) {
        rowPositions[i] = (int) it.nextLong();
      }
    }
    Optional<FilteredRowRanges> rows =
        group.rowRanges() == null
            ? Optional.empty()
            : Optional.of(new FilteredRowRanges(group.rowRanges()));
    int chunk = 0;
    for (int c = 0; c < readers.length; c++) {
      if (c != rowIdChannel) {
        readers[c] =
            new ChunkColumnReader(
                group.chunks().get(chunk++), rows, columns.get(c).type(), c, factory, memory);
      }
    }
  }

  private Block load(long id, int channel, int first, int n) {
    if (channel == rowIdChannel) {
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        ids[i] = DeletedRows.rowId(rowGroup, rowAt(first + i));
      }
      decodedBatches[channel]++;
      return new LongArrayBlock(n, Optional.empty(), ids);
    }
    if (id != batch || closed) {
      // Trino's operators load or drop a page before asking for the next one; the readers have
      // moved on, so an older page's columns are gone.
      throw new IllegalStateException(
          "column " + columns.get(channel).name() + " of a page read after the next page");
    }
    long start = System.nanoTime();
    try {
      Block block = readers[channel].read();
      decodedBatches[channel]++;
      return block;
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    } finally {
      readNanos += System.nanoTime() - start;
    }
  }

  @Override
  public boolean isFinished() {
    return closed || (groupPosition == groupRows && !scan.hasNext());
  }

  /** Bytes of raw column chunks handed to this page source (as read from the devices). */
  @Override
  public long getCompletedBytes() {
    return completedBytes;
  }

  @Override
  public OptionalLong getCompletedPositions() {
    return OptionalLong.of(completedPositions);
  }

  @Override
  public long getReadTimeNanos() {
    return readNanos;
  }

  /**
   * What this split holds: raw chunks read ahead and those of the current row group (core's scan
   * buffer), the column readers' buffers, and the decoded blocks of the current page.
   */
  @Override
  public long getMemoryUsage() {
    if (closed) {
      return 0;
    }
    return scan.heldBytes()
        + memory.getBytes()
        + (page == null ? 0 : page.getRetainedSizeInBytes());
  }

  /**
   * Per column, batches decoded and batches skipped because no operator touched them (a filter on
   * another column dropped their rows first).
   */
  @Override
  public Metrics getMetrics() {
    Map<String, Metric<?>> metrics = new LinkedHashMap<>();
    for (int c = 0; c < columns.size(); c++) {
      String name = columns.get(c).name();
      metrics.put(DECODED_BATCHES + ":" + name, new LongCount(decodedBatches[c]));
      metrics.put(SKIPPED_BATCHES + ":" + name, new LongCount(batches[c] - decodedBatches[c]));
    }
    // Cooperative scans (docs/cooperative-scans.md): chunks the devices read for this split, and
    // chunks it got
    // from the node's shared buffer as another scan's load (0 under sharing policy normal).
    ScanStats stats = scan.stats();
    metrics.put(CHUNKS_READ, new LongCount(stats.chunksRead()));
    metrics.put(CHUNKS_SHARED, new LongCount(stats.chunksShared()));
    stats.bytesPerDevice().forEach((d, b) -> metrics.put(BYTES_READ + ":" + d, new LongCount(b)));
    return new Metrics(metrics);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    page = null;
    readers = null;
    try {
      memory.close();
      scan.close();
    } finally {
      pin.close();
    }
  }
}
