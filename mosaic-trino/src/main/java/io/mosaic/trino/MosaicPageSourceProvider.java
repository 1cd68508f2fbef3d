package io.mosaic.trino;

import static io.mosaic.trino.MosaicStorage.call;

import com.google.inject.Inject;
import io.mosaic.format.Manifest;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
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
import java.util.ArrayList;
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
      Predicate predicate = RowGroupPredicates.of(handle.constraint());
      if (cols.isEmpty()) {
        Manifest m = pin.manifest();
        List<Long> counts = new ArrayList<>();
        for (int g :
            new RowGroupFilter(table.name(), m, predicate)
                .select(s.fromRowGroup(), s.toRowGroup())) {
          counts.add(m.rowGroups().get(g));
        }
        return new MosaicPageSource(pin, null, cols, counts);
      }
      ScanRequest request =
          ScanRequest.of(cols.stream().map(MosaicColumnHandle::name).toList())
              .where(predicate)
              .rowGroups(s.fromRowGroup(), s.toRowGroup())
              .queryId(session.getQueryId())
              .buffer(storage.config().getScanBufferMemory().toBytes())
              .recorded(false);
      Scan scan = call(() -> storage.retriever().scan(table, pin, request));
      return new MosaicPageSource(pin, scan, cols, List.of());
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }
}
