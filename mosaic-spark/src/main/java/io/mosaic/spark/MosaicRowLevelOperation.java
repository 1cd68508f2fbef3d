package io.mosaic.spark;

import io.mosaic.format.DeletedRows;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.MetadataColumn;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DeltaBatchWrite;
import org.apache.spark.sql.connector.write.DeltaWrite;
import org.apache.spark.sql.connector.write.DeltaWriteBuilder;
import org.apache.spark.sql.connector.write.DeltaWriter;
import org.apache.spark.sql.connector.write.DeltaWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsDelta;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * DELETE, UPDATE and MERGE INTO as Spark's delta-based row-level operation: the scan reads the
 * table's rows with their row id ({@value #ROW_ID}), tasks collect the deleted ids into deletion
 * vectors and write the inserted rows (an UPDATE's new values among them) as segments, and the
 * driver commits both as one version on the version the scan read (docs/spark.md, "Row-level
 * changes"). A concurrent change to the same rows makes it a CONFLICT, never a lost change.
 */
final class MosaicRowLevelOperation implements SupportsDelta {
  /** The hidden column naming a row, core's {@code DeletedRows.rowId}. */
  static final String ROW_ID = "_row_id";

  static final MetadataColumn ROW_ID_COLUMN =
      new MetadataColumn() {
        @Override
        public String name() {
          return ROW_ID;
        }

        @Override
        public DataType dataType() {
          return DataTypes.LongType;
        }

        @Override
        public boolean isNullable() {
          return false;
        }
      };

  private final MosaicSparkTable table;
  private final Command command;

  MosaicRowLevelOperation(MosaicSparkTable table, Command command) {
    this.table = table;
    this.command = command;
  }

  @Override
  public Command command() {
    return command;
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    return table.newScanBuilder(options);
  }

  @Override
  public NamedReference[] rowId() {
    return new NamedReference[] {Expressions.column(ROW_ID)};
  }

  @Override
  public NamedReference[] requiredMetadataAttributes() {
    return rowId();
  }

  /** Deletion vectors need no in-place update: an UPDATE deletes the old row, inserts the new. */
  @Override
  public boolean representUpdateAsDeleteAndInsert() {
    return true;
  }

  @Override
  public DeltaWriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    // The version every scan of this table object reads, so the row ids name its rows.
    Manifest base = table.readVersion();
    MosaicOptions options = table.options();
    TableSchema schema = base.schema();
    String operation = command.name().toLowerCase(Locale.ROOT);
    DeltaWrite write =
        new DeltaWrite() {
          @Override
          public DeltaBatchWrite toBatch() {
            return new DeltaBatchWrite() {
              @Override
              public DeltaWriterFactory createBatchWriterFactory(PhysicalWriteInfo physical) {
                return new Factory(options, schema);
              }

              @Override
              public void commit(WriterCommitMessage[] messages) {
                DeletedRows.Collector deleted = new DeletedRows.Collector();
                List<WriteResult> written = new ArrayList<>();
                for (WriterCommitMessage m : messages) {
                  Changed c = (Changed) m;
                  deleted.addAll(c.deleted());
                  written.add(c.written());
                }
                Map<Integer, DeletedRows> vectors = deleted.deletions();
                MosaicTable.open(options.location(), options.pool())
                    .changeRows(operation, base.version(), vectors, written);
              }

              @Override
              public void abort(WriterCommitMessage[] messages) {
                // Nothing was committed; the tasks' segments are unreferenced and gc removes them.
              }
            };
          }
        };
    return new DeltaWriteBuilder() {
      @Override
      public DeltaWrite build() {
        return write;
      }
    };
  }

  /** A task's rows deleted (row group to base64 Roaring bitmap) and segments written. */
  record Changed(HashMap<Integer, String> deleted, WriteResult written)
      implements WriterCommitMessage {}

  private static final class Factory implements DeltaWriterFactory {
    private final MosaicDataWriterFactory inserts;

    Factory(MosaicOptions options, TableSchema schema) {
      this.inserts = new MosaicDataWriterFactory(options, schema);
    }

    @Override
    public DeltaWriter<InternalRow> createWriter(int partitionId, long taskId) {
      DataWriter<InternalRow> rows = inserts.createWriter(partitionId, taskId);
      DeletedRows.Collector deleted = new DeletedRows.Collector();
      return new DeltaWriter<>() {
        @Override
        public void delete(InternalRow metadata, InternalRow id) {
          deleted.add(id.getLong(0));
        }

        @Override
        public void update(InternalRow metadata, InternalRow id, InternalRow row) {
          throw new UnsupportedOperationException(
              "updates arrive as a delete and an insert (representUpdateAsDeleteAndInsert)");
        }

        @Override
        public void insert(InternalRow row) throws IOException {
          rows.write(row);
        }

        @Override
        public WriterCommitMessage commit() throws IOException {
          WriteResult written = ((MosaicDataWriterFactory.Committed) rows.commit()).result();
          return new Changed(deleted.encoded(), written);
        }

        @Override
        public void abort() throws IOException {
          rows.abort();
        }

        @Override
        public void close() throws IOException {
          rows.close();
        }
      };
    }
  }
}
