package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;

import com.google.inject.Inject;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorMergeSink;
import io.trino.spi.connector.ConnectorMergeTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.ConnectorPageSink;
import io.trino.spi.connector.ConnectorPageSinkId;
import io.trino.spi.connector.ConnectorPageSinkProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTransactionHandle;

/** Opens a writer task for CREATE TABLE AS and INSERT. */
final class MosaicPageSinkProvider implements ConnectorPageSinkProvider {
  private final MosaicStorage storage;

  @Inject
  MosaicPageSinkProvider(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public ConnectorPageSink createPageSink(
      ConnectorTransactionHandle transaction,
      ConnectorSession session,
      ConnectorOutputTableHandle outputTableHandle,
      ConnectorPageSinkId pageSinkId) {
    return open((MosaicWriteHandle) outputTableHandle);
  }

  @Override
  public ConnectorPageSink createPageSink(
      ConnectorTransactionHandle transaction,
      ConnectorSession session,
      ConnectorInsertTableHandle insertTableHandle,
      ConnectorPageSinkId pageSinkId) {
    return open((MosaicWriteHandle) insertTableHandle);
  }

  @Override
  public ConnectorMergeSink createMergeSink(
      ConnectorTransactionHandle transaction,
      ConnectorSession session,
      ConnectorMergeTableHandle mergeHandle,
      ConnectorPageSinkId pageSinkId) {
    MosaicWriteHandle write = ((MosaicMergeTableHandle) mergeHandle).write();
    return new MosaicMergeSink(write.columns().size(), () -> open(write));
  }

  private MosaicPageSink open(MosaicWriteHandle handle) {
    MosaicTable table = storage.open(handle.name());
    TableWriter writer = call(table::newWriter);
    return MosaicPageSink.open(writer, handle, call(table::latest).schema().arrowSchema());
  }
}
