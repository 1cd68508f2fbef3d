package io.mosaic.spark;

import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriteResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.arrow.ArrowWriter;

/** Task-side writers: rows go into Arrow batches (Spark's own ArrowWriter), then into segments. */
final class MosaicDataWriterFactory implements DataWriterFactory {
  static final int BATCH = 8192;

  /** A task's uncommitted output, sent to the driver. */
  record Committed(WriteResult result) implements WriterCommitMessage {}

  private final MosaicOptions options;
  private final TableSchema schema;

  MosaicDataWriterFactory(MosaicOptions options, TableSchema schema) {
    this.options = options;
    this.schema = schema;
  }

  @Override
  public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
    MosaicTable table = MosaicTable.open(options.location(), options.pool());
    BufferAllocator alloc = new RootAllocator();
    SparkArrowBatch batch = new SparkArrowBatch(schema, alloc);
    ArrowWriter arrow = ArrowWriter.create(batch.spark());
    TableWriter writer = table.newWriter();
    return new DataWriter<>() {
      private int rows;

      @Override
      public void write(InternalRow row) throws IOException {
        arrow.write(row);
        if (++rows == BATCH) {
          flush();
        }
      }

      private void flush() throws IOException {
        if (rows > 0) {
          arrow.finish();
          writer.write(batch.table());
          arrow.reset();
          rows = 0;
        }
      }

      @Override
      public WriterCommitMessage commit() throws IOException {
        flush();
        return new Committed(writer.finish());
      }

      @Override
      public void abort() throws IOException {
        writer.close();
      }

      @Override
      public void close() {
        try {
          writer.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          batch.close();
          alloc.close();
        }
      }
    };
  }
}
