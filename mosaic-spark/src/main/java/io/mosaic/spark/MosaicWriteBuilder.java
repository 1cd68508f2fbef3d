package io.mosaic.spark;

import io.mosaic.MosaicException;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.scan.RowGroupFilter;
import io.mosaic.scan.RowMatcher;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NullOrdering;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.SupportsOverwriteV2;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Writes (DESIGN section 6): every task writes its own segments, and the driver commits all tasks'
 * results in one new table version; an aborted job commits nothing (its files go with gc). {@code
 * mode("overwrite")} truncates: the new version holds only the job's rows. An overwrite by a
 * condition ({@code writeTo(t).overwrite(condition)}, {@code INSERT INTO t REPLACE WHERE}) deletes
 * the rows the condition matches in the version the write started from and appends the job's rows,
 * in one version (docs/spark.md, "Overwrite by a condition").
 */
final class MosaicWriteBuilder implements WriteBuilder, SupportsOverwriteV2 {
  private final MosaicOptions options;
  private final StructType schema;
  private final Map<String, String> writeOptions;
  // The version Spark loaded the table at (its scans read it), or null if it did not exist then.
  private final Manifest loaded;
  private boolean truncate;
  private SparkFilters.Condition condition;

  MosaicWriteBuilder(
      MosaicOptions options,
      StructType schema,
      CaseInsensitiveStringMap writeOptions,
      Manifest loaded) {
    this.options = options;
    this.schema = schema;
    this.writeOptions = writeOptions;
    this.loaded = loaded;
  }

  @Override
  public WriteBuilder truncate() {
    truncate = true;
    condition = null;
    return this;
  }

  /**
   * Whether Mosaic applies the condition exactly; when it cannot, an UNSUPPORTED {@link
   * MosaicException} naming the predicate and why, instead of {@code false}: Spark's own error for
   * {@code false} only says the table "does not support overwrite by expression".
   */
  @Override
  public boolean canOverwrite(Predicate[] predicates) {
    SparkFilters.Condition c = SparkFilters.exact(options.tableName(), predicates);
    if (loaded != null) {
      try {
        RowGroupFilter.bind(options.tableName(), loaded, c.predicate());
      } catch (MosaicException e) {
        throw MosaicException.unsupported(
            "cannot overwrite table "
                + options.tableName()
                + " where "
                + c.predicate()
                + ": "
                + e.getMessage());
      }
    }
    return true;
  }

  @Override
  public WriteBuilder overwrite(Predicate[] predicates) {
    SparkFilters.Condition c = SparkFilters.exact(options.tableName(), predicates);
    if (!c.never() && c.predicate().terms().isEmpty()) {
      return truncate(); // every row matches (Spark's AlwaysTrue)
    }
    truncate = false;
    condition = c;
    return this;
  }

  @Override
  public Write build() {
    MosaicTable table;
    if (MosaicTable.exists(options.location(), options.pool())) {
      table = MosaicTable.open(options.location(), options.pool());
      new MosaicSparkConf(writeOptions, table.latest().properties())
          .checkWriteToExisting(table.location());
    } else {
      table =
          MosaicTable.create(
              options.location(),
              options.pool(),
              SparkTypes.fromSpark(schema),
              MosaicSparkConf.newTable(writeOptions).creationProperties(options.devices()));
    }
    // Batches take the table's schema: a NOT NULL column of the query may fill a nullable one.
    TableSchema tableSchema = table.latest().schema();
    boolean overwrite = truncate;
    SparkFilters.Condition where = condition;
    // The version a replace-where's condition is matched in: the one Spark's scans of the table
    // read (an INSERT INTO t REPLACE WHERE ... SELECT ... FROM t reads it too).
    long base = loaded != null ? loaded.version() : table.latest().version();
    String sortedBy = table.latest().properties().get(TableProperties.SORTED_BY);
    SortOrder[] order =
        sortedBy == null
            ? new SortOrder[0]
            : new SortOrder[] {
              Expressions.sort(
                  Expressions.column(sortedBy), SortDirection.ASCENDING, NullOrdering.NULLS_FIRST)
            };
    // A table sorted_by a column has Spark range-partition and sort the rows by it before the
    // tasks write them, so its row groups hold ranges of it too, not only its pages (core's
    // writers sort each row group: docs/format.md, "Sort order on write").
    return new RequiresDistributionAndOrdering() {
      @Override
      public Distribution requiredDistribution() {
        return order.length == 0 ? Distributions.unspecified() : Distributions.ordered(order);
      }

      @Override
      public SortOrder[] requiredOrdering() {
        return order;
      }

      @Override
      public BatchWrite toBatch() {
        return new BatchWrite() {
          @Override
          public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
            return new MosaicDataWriterFactory(options, tableSchema);
          }

          @Override
          public void commit(WriterCommitMessage[] messages) {
            List<WriteResult> results = new ArrayList<>();
            for (WriterCommitMessage m : messages) {
              results.add(((MosaicDataWriterFactory.Committed) m).result());
            }
            if (overwrite) {
              table.overwrite(results);
            } else if (where != null) {
              replaceWhere(table, base, where, results);
            } else {
              table.append(results);
            }
          }

          @Override
          public void abort(WriterCommitMessage[] messages) {
            // Nothing was committed; the tasks' segments are unreferenced and gc removes them.
          }
        };
      }
    };
  }

  /** One version: the base's rows {@code where} matches deleted, {@code results} appended. */
  private static void replaceWhere(
      MosaicTable table, long base, SparkFilters.Condition where, List<WriteResult> results) {
    try {
      if (where.never()) {
        // Nothing matches (a comparison with NULL, or false): only the rows are appended, still
        // as the one replace-where version the statement makes.
        table.changeRows(MosaicTable.REPLACE_WHERE, base, Map.of(), results);
      } else {
        table.replaceWhere(new RowMatcher(table, where.predicate()), base, results);
      }
    } catch (IOException e) {
      throw SparkErrors.io("overwrite of table " + table.name() + " where " + where.predicate(), e);
    }
  }
}
