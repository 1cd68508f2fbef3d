package io.mosaic.trino;

import io.mosaic.MosaicException;
import io.mosaic.scan.Scan;
import io.mosaic.table.TablePin;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Reads one split: the retriever delivers a row group of the requested columns as Arrow vectors
 * (devices read in parallel, DESIGN section 5), which become Trino blocks, handed out in pages of
 * at most {@value #MAX_PAGE_ROWS} rows.
 */
final class MosaicPageSource implements ConnectorPageSource {
  static final int MAX_PAGE_ROWS = 8192;

  private final TablePin pin;
  private final Scan scan;
  private final List<MosaicColumnHandle> columns;
  private Page current;
  private int offset;
  private long completedBytes;
  private long completedPositions;
  private long readNanos;
  private boolean closed;

  /** A scan of {@code columns}; with none (count(*)), pages of each row group's row count. */
  MosaicPageSource(TablePin pin, Scan scan, List<MosaicColumnHandle> columns) {
    this.pin = pin;
    this.scan = scan;
    this.columns = columns;
  }

  @Override
  public SourcePage getNextSourcePage() {
    if (current == null || offset == current.getPositionCount()) {
      current = nextRowGroup();
      offset = 0;
      if (current == null) {
        return null;
      }
    }
    int n = Math.min(MAX_PAGE_ROWS, current.getPositionCount() - offset);
    Page page = current.getRegion(offset, n);
    offset += n;
    completedPositions += n;
    return SourcePage.create(page);
  }

  private Page nextRowGroup() {
    long start = System.nanoTime();
    try {
      if (!scan.hasNext()) {
        return null;
      }
      VectorSchemaRoot root = scan.next();
      Block[] blocks = new Block[columns.size()];
      for (int i = 0; i < blocks.length; i++) {
        blocks[i] = ArrowToBlocks.block(root.getVector(i), columns.get(i).type());
      }
      Page page = new Page(root.getRowCount(), blocks);
      completedBytes += page.getSizeInBytes();
      return page;
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    } finally {
      readNanos += System.nanoTime() - start;
    }
  }

  @Override
  public boolean isFinished() {
    if (closed) {
      return true;
    }
    boolean pending = current != null && offset < current.getPositionCount();
    if (pending) {
      return false;
    }
    return !scan.hasNext();
  }

  @Override
  public long getCompletedBytes() {
    return completedBytes;
  }

  @Override
  public java.util.OptionalLong getCompletedPositions() {
    return java.util.OptionalLong.of(completedPositions);
  }

  @Override
  public long getReadTimeNanos() {
    return readNanos;
  }

  @Override
  public long getMemoryUsage() {
    return current == null ? 0 : current.getRetainedSizeInBytes();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    current = null;
    try {
      scan.close();
    } finally {
      pin.close();
    }
  }
}
