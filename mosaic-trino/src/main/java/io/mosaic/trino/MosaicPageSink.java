package io.mosaic.trino;

import static io.mosaic.trino.MosaicErrorCode.MOSAIC_IO_ERROR;

import io.airlift.slice.Slice;
import io.mosaic.MosaicException;
import io.mosaic.table.TableWriter;
import io.trino.spi.Page;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ConnectorPageSink;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One writer task: pages become Arrow batches, core's table writer cuts them into row groups of
 * segments on the placement's devices; {@link #finish} hands the uncommitted result to the
 * coordinator, which commits every task's result at once.
 */
final class MosaicPageSink implements ConnectorPageSink {
  private final TableWriter writer;
  private final List<MosaicColumnHandle> columns;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot root;
  private long bytes;

  MosaicPageSink(
      TableWriter writer,
      MosaicWriteHandle handle,
      VectorSchemaRoot root,
      BufferAllocator allocator) {
    this.writer = writer;
    this.columns = handle.columns();
    this.root = root;
    this.allocator = allocator;
  }

  static MosaicPageSink open(
      TableWriter writer,
      MosaicWriteHandle handle,
      org.apache.arrow.vector.types.pojo.Schema schema) {
    BufferAllocator allocator = new RootAllocator();
    return new MosaicPageSink(
        writer, handle, VectorSchemaRoot.create(schema, allocator), allocator);
  }

  @Override
  public CompletableFuture<?> appendPage(Page page) {
    if (page.getPositionCount() == 0) {
      return NOT_BLOCKED;
    }
    PageToArrow.fill(root, page, columns);
    try {
      writer.write(root);
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot write segments: " + e.getMessage(), e);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    }
    bytes += page.getSizeInBytes();
    return NOT_BLOCKED;
  }

  @Override
  public long getCompletedBytes() {
    return bytes;
  }

  @Override
  public CompletableFuture<Collection<Slice>> finish() {
    try (TableWriter finished = writer) {
      return CompletableFuture.completedFuture(List.of(CoreObjects.encode(finished.finish())));
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot finish segments: " + e.getMessage(), e);
    } catch (MosaicException e) {
      throw MosaicErrors.toTrino(e);
    } finally {
      release();
    }
  }

  @Override
  public void abort() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new TrinoException(MOSAIC_IO_ERROR, "cannot remove aborted segments: " + e, e);
    } finally {
      release();
    }
  }

  private void release() {
    root.close();
    allocator.close();
  }
}
