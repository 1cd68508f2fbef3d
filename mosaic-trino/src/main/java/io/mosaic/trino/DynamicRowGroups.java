package io.mosaic.trino;

import io.mosaic.scan.Predicate;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.predicate.TupleDomain;
import java.util.function.Supplier;

/**
 * A join's dynamic filter as core's narrowing predicate ({@link
 * io.mosaic.scan.ScanRequest#narrowing}): the filter's current predicate, translated again only
 * when it has changed (core asks before every row group). A filter that turns out empty ("none") is
 * left to Trino's filter operator: only min/max tests translate.
 */
final class DynamicRowGroups implements Supplier<Predicate> {
  private final DynamicFilter filter;
  private TupleDomain<?> last;
  private Predicate translated = Predicate.ALL;

  DynamicRowGroups(DynamicFilter filter) {
    this.filter = filter;
  }

  @Override
  public synchronized Predicate get() {
    TupleDomain<?> current = filter.getCurrentPredicate();
    if (!current.equals(last)) {
      translated = RowGroupPredicates.of(current.transformKeys(MosaicColumnHandle.class::cast));
      last = current;
    }
    return translated;
  }
}
