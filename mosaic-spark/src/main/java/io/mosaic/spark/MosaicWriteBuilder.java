package io.mosaic.spark;

import io.mosaic.format.TableProperties;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NullOrdering;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Writes (DESIGN section 6): every task writes its own segments, and the driver commits all tasks'
 * results in one new table version; an aborted job commits nothing (its files go with gc). {@code
 * mode("overwrite")} truncates: the new version holds only the job's rows.
 */
final class MosaicWriteBuilder implements WriteBuilder, SupportsTruncate {
  private final MosaicOptions options;
  private final StructType schema;
  private final Map<String, String> writeOptions;
  private boolean truncate;

  MosaicWriteBuilder(
      MosaicOptions options, StructType schema, CaseInsensitiveStringMap writeOptions) {
    this.options = options;
    this.schema = schema;
    this.writeOptions = writeOptions;
  }

  @Override
  public WriteBuilder truncate() {
    truncate = true;
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
}
