package io.mosaic.trino;

import io.airlift.slice.Slice;
import io.mosaic.format.DeletedRows;
import io.mosaic.table.WriteResult;
import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.MergePage;
import io.trino.spi.type.BigintType;
import java.io.Serializable;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One task's share of a DELETE, UPDATE or MERGE (the SPI's delete-row-and-insert-row paradigm):
 * deleted rows are collected by their row id into deletion vectors, inserted rows (an UPDATE's new
 * values among them) are written as segments by a page sink. The coordinator commits all tasks'
 * fragments in one version ({@code MosaicMetadata#finishMerge}).
 */
final class MosaicMergeSink implements ConnectorMergeSink {
  /** What a task hands the coordinator: the rows it deleted, and the segments it wrote. */
  record Fragment(HashMap<Integer, String> deleted, WriteResult written) implements Serializable {}

  private final int dataColumns;
  private final Supplier<MosaicPageSink> inserts;
  private final DeletedRows.Collector deleted = new DeletedRows.Collector();
  private MosaicPageSink sink;

  MosaicMergeSink(int dataColumns, Supplier<MosaicPageSink> inserts) {
    this.dataColumns = dataColumns;
    this.inserts = inserts;
  }

  /** The SPI's {@link MergePage} splits the page into the deleted rows and the inserted ones. */
  @Override
  public void storeMergedRows(Page page) {
    MergePage merge = MergePage.createDeleteAndInsertPages(page, dataColumns);
    merge
        .getDeletionsPage()
        .ifPresent(
            deletions -> {
              // The row id is the deletions page's last block (MosaicColumnHandle#ROW_ID).
              Block rowIds = deletions.getBlock(deletions.getChannelCount() - 1);
              for (int p = 0; p < deletions.getPositionCount(); p++) {
                deleted.add(BigintType.BIGINT.getLong(rowIds, p));
              }
            });
    merge
        .getInsertionsPage()
        .ifPresent(
            insertions -> {
              if (sink == null) {
                sink = inserts.get();
              }
              sink.appendPage(insertions);
            });
  }

  @Override
  public CompletableFuture<Collection<Slice>> finish() {
    WriteResult written = null;
    if (sink != null) {
      Collection<Slice> slices = sink.finish().join();
      written = CoreObjects.decode(slices.iterator().next());
    }
    Fragment fragment = new Fragment(deleted.encoded(), written);
    return CompletableFuture.completedFuture(
        List.of(io.airlift.slice.Slices.wrappedBuffer(CoreObjects.bytes(fragment))));
  }

  @Override
  public void abort() {
    if (sink != null) {
      sink.abort();
    }
  }

  static Fragment decode(Slice fragment) {
    return CoreObjects.read(fragment.getBytes(), Fragment.class, "merge fragment");
  }
}
