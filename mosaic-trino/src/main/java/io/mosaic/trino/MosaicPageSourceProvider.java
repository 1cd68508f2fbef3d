package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;

import com.google.inject.Inject;
import io.mosaic.scan.Scan;
import io.mosaic.scan.ScanRequest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorPageSourceProvider;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.DynamicFilter;
import java.util.List;

/** Opens a split on a worker: pins the query's table version and starts the retriever's scan. */
final class MosaicPageSourceProvider implements ConnectorPageSourceProvider {
  private final MosaicStorage storage;

  @Inject
  MosaicPageSourceProvider(MosaicStorage storage) {
    this.storage = storage;
  }

  @Override
  public ConnectorPageSource createPageSource(
      ConnectorTransactionHandle transaction,
      ConnectorSession session,
      ConnectorSplit split,
      ConnectorTableHandle tableHandle,
      List<ColumnHandle> columns,
      DynamicFilter dynamicFilter) {
    MosaicSplit s = (MosaicSplit) split;
    MosaicTableHandle handle = (MosaicTableHandle) tableHandle;
    MosaicTable table = storage.open(handle.name());
    TablePin pin = call(() -> table.pin(handle.version()));
    try {
      List<MosaicColumnHandle> cols = columns.stream().map(MosaicColumnHandle.class::cast).toList();
      // The plan's request for the split (ScanPlan#request, made by the coordinator: the query's
      // constraint, the split's row groups, and the plan's scan id, so core records this split as
      // a fragment of the query's one trace record), with the columns in the page's channel order
      // and this session's reading choices.
      ScanRequest planned =
          s.request()
              .project(
                  cols.stream()
                      .filter(c -> !c.equals(MosaicColumnHandle.ROW_ID))
                      .map(MosaicColumnHandle::name)
                      .toList())
              .buffer(storage.config().getScanBufferMemory().toBytes())
              .pagePruning(MosaicSessionProperties.pagePruningEnabled(session))
              .sharing(MosaicSessionProperties.sharingPolicy(session));
      // Before each row group is read, its statistics are tested against the join's dynamic
      // filter as it stands then: row groups the build side rules out are never read.
      ScanRequest request =
          dynamicFilter.getColumnsCovered().isEmpty()
              ? planned
              : planned.narrowing(new DynamicRowGroups(dynamicFilter));
      // Chunk mode: core reads and checks the chunks; the page source decodes them lazily.
      Scan scan = call(() -> storage.retriever().chunks(table, pin, request));
      return new MosaicPageSource(pin, scan, cols);
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }
}
