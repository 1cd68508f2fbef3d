package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.format.Manifest;
import io.mosaic.scan.ColumnPredicate;
import io.mosaic.scan.Predicate;
import io.mosaic.scan.RowGroupFilter;
import io.mosaic.table.MosaicTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Column pruning and filter pushdown: filters Mosaic understands skip row groups by their
 * statistics; every filter also stays with Spark, since skipping is not row-exact.
 */
final class MosaicScanBuilder
    implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
  private final MosaicOptions options;
  private final MosaicTable table;
  private final Manifest manifest;

  /** {@code false} leaves every filter to Spark (to compare, or to rule skipping out). */
  private final boolean pushdown;

  private StructType required;
  private final List<ColumnPredicate> terms = new ArrayList<>();
  private Filter[] pushed = new Filter[0];

  /** Builds scans of {@code manifest}, the version the table was loaded at. */
  // The read's sharing policy (option, session conf or table property); null: the executor's.
  private final SharingPolicy sharing;

  MosaicScanBuilder(
      MosaicOptions options,
      MosaicTable table,
      Manifest manifest,
      boolean pushdown,
      SharingPolicy sharing) {
    this.sharing = sharing;
    this.options = options;
    this.table = table;
    this.manifest = manifest;
    this.pushdown = pushdown;
    this.required = SparkTypes.toSpark(manifest.schema());
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    this.required = requiredSchema;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    List<Filter> used = new ArrayList<>();
    for (Filter f : pushdown ? filters : new Filter[0]) {
      List<ColumnPredicate> converted = SparkFilters.convert(f);
      if (converted.isEmpty()) {
        continue;
      }
      try {
        // A predicate the table cannot evaluate (e.g. on a binary column) is simply not pushed.
        RowGroupFilter.bind(table.name(), manifest, new Predicate(converted));
        terms.addAll(converted);
        used.add(f);
      } catch (IllegalArgumentException | MosaicException e) {
        // left to Spark
      }
    }
    pushed = used.toArray(new Filter[0]);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed;
  }

  @Override
  public Scan build() {
    return new MosaicScan(options, table, manifest, required, new Predicate(terms), sharing);
  }
}
