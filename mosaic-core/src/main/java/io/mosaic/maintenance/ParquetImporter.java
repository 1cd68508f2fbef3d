package io.mosaic.maintenance;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableSchema;
import io.mosaic.segment.SegmentReader;
import io.mosaic.segment.SegmentWriter;
import io.mosaic.table.CrashPoints;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableWriter;
import io.mosaic.table.WriteResult;
import io.mosaic.table.WriterLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * {@code mosaic import}: brings existing Parquet files (e.g. written by Spark) into a table. Each
 * input row group becomes a table row group; each column chunk is copied byte for byte into the
 * column's segment when it already has the segment's type and the target device's codec (paper
 * Section 3.2: Mosaic "extricates column chunks out of existing Parquet files"), and is re-encoded
 * otherwise. All files land in one commit.
 */
public final class ParquetImporter {
  /** Progress, for a person at a terminal. */
  public interface Listener {
    default void column(Path file, String column, boolean copied, long bytes) {}
  }

  /** What an import did. */
  public record Summary(Manifest manifest, long rows, int copiedChunks, int reencodedChunks) {}

  private final MosaicTable table;

  public ParquetImporter(MosaicTable table) {
    this.table = table;
  }

  /** The table schema a Parquet file maps to, or a clear error (nested or unsupported column). */
  public static TableSchema schemaOf(Path file) throws IOException {
    try (ParquetFileReader reader = open(file)) {
      return schemaOf(file, reader.getFooter().getFileMetaData().getSchema());
    }
  }

  private static TableSchema schemaOf(Path file, MessageType schema) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (Type field : schema.getFields()) {
      if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
        throw MosaicException.unsupported(
            file
                + ": column '"
                + field.getName()
                + "' is nested or repeated ("
                + field
                + "); Mosaic stores flat columns only: "
                + ColumnType.SUPPORTED);
      }
      PrimitiveType p = field.asPrimitiveType();
      try {
        columns.add(
            new ColumnSpec(
                p.getName(), ColumnType.fromParquet(p), p.isRepetition(Type.Repetition.OPTIONAL)));
      } catch (MosaicException e) {
        throw new MosaicException(e.kind(), file + ": " + e.getMessage(), e);
      }
    }
    return new TableSchema(columns);
  }

  private static ParquetFileReader open(Path file) throws IOException {
    try {
      return ParquetFileReader.open(
          new LocalInputFile(file),
          SegmentReader.readOptions().usePageChecksumVerification(true).build());
    } catch (RuntimeException e) {
      // parquet-java names the file by its reader object (LocalInputFile@55322aab), not its path.
      String why = String.valueOf(e.getMessage()).replaceAll("\\S*LocalInputFile@\\w+\\s*", "");
      throw MosaicException.invalid(
          file
              + " is not a Parquet file ("
              + why.strip()
              + "); give Parquet files, or a directory of *.parquet files");
    }
  }

  public Summary importFiles(List<Path> files, Listener listener) throws IOException {
    Manifest base = table.latest();
    List<WriteResult> results = new ArrayList<>();
    int copied = 0;
    int reencoded = 0;
    long rows = 0;
    try (WriterLock lock = new WriterLock(table, "i");
        BufferAllocator alloc = new RootAllocator()) {
      int n = 0;
      for (Path file : files) {
        List<SegmentEntry> segments = new ArrayList<>();
        List<Long> rowGroups = new ArrayList<>();
        // Where the file's row groups land if no other commit comes first (SegmentStamp)
        int first =
            base.rowGroups().size() + results.stream().mapToInt(r -> r.rowGroups().size()).sum();
        try (ParquetFileReader reader = open(file)) {
          MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
          checkSchema(file, schemaOf(file, fileSchema), base.schema());
          List<BlockMetaData> blocks = reader.getRowGroups();
          blocks.forEach(b -> rowGroups.add(b.getRowCount()));
          for (ColumnSpec column : base.schema().columns()) {
            if (blocks.isEmpty()) {
              break;
            }
            lock.renew(); // a lock-free table's lease: its files are garbage once it expires
            Device device = TableWriter.placementOf(table, base, column.name());
            String path = TableWriter.segmentPath(base, column.name(), lock.id(), n++);
            int index = fileSchema.getFieldIndex(column.name());
            ColumnDescriptor descriptor = fileSchema.getColumns().get(index);
            boolean copy = copyable(blocks, index, descriptor, column, device);
            table.claimFolder(base.tableId(), device);
            try (SegmentWriter writer =
                new SegmentWriter(
                    column, base.tableId(), first, device, path, device.spec().codec())) {
              if (copy) {
                copy(file, reader, blocks, index, writer);
              } else {
                reencode(file, fileSchema, descriptor, column, blocks.size(), writer, alloc);
              }
              SegmentEntry entry = writer.finish();
              segments.add(entry);
              listener.column(file, column.name(), copy, entry.fileBytes());
            }
            CrashPoints.reached("import-column");
            if (copy) {
              copied += blocks.size();
            } else {
              reencoded += blocks.size();
            }
          }
        } catch (IOException | RuntimeException e) {
          if (e instanceof IllegalArgumentException || e instanceof MosaicException) {
            throw e; // keeps its kind
          }
          throw new IOException("cannot import " + file + ": " + e.getMessage(), e);
        }
        WriteResult result = new WriteResult(lock.id(), base.schema(), rowGroups, segments);
        rows += result.rowCount();
        results.add(result);
      }
      Manifest committed = table.append(results);
      return new Summary(committed, rows, copied, reencoded);
    }
  }

  private static void checkSchema(Path file, TableSchema fileSchema, TableSchema tableSchema) {
    for (ColumnSpec want : tableSchema.columns()) {
      ColumnSpec have;
      try {
        have = fileSchema.column(want.name());
      } catch (MosaicException e) {
        throw new MosaicException(
            MosaicException.Kind.INVALID_ARGUMENT,
            "schema mismatch importing " + file + ": it has no column '" + want.name() + "'",
            e);
      }
      if (!have.type().equals(want.type()) || (have.nullable() && !want.nullable())) {
        throw MosaicException.invalid(
            "schema mismatch importing "
                + file
                + ": column '"
                + want.name()
                + "' is "
                + have.type()
                + (have.nullable() ? "" : " not null")
                + " there and "
                + want.type()
                + (want.nullable() ? "" : " not null")
                + " in the table");
      }
    }
    if (fileSchema.columns().size() != tableSchema.columns().size()) {
      throw MosaicException.invalid(
          "schema mismatch importing "
              + file
              + ": it has columns "
              + fileSchema.names()
              + ", the table has "
              + tableSchema.names());
    }
  }

  /** A chunk copies as-is when its Parquet type and codec are what the segment would have. */
  private static boolean copyable(
      List<BlockMetaData> blocks,
      int index,
      ColumnDescriptor descriptor,
      ColumnSpec column,
      Device device) {
    Type segmentType = column.type().parquetType(column.name(), column.nullable());
    if (!descriptor.getPrimitiveType().equals(segmentType)) {
      return false;
    }
    for (BlockMetaData block : blocks) {
      ColumnChunkMetaData chunk = block.getColumns().get(index);
      if (chunk.getCodec() != device.spec().codec().parquetCodec()) {
        return false;
      }
    }
    return true;
  }

  private static void copy(
      Path file,
      ParquetFileReader reader,
      List<BlockMetaData> blocks,
      int index,
      SegmentWriter writer)
      throws IOException {
    try (SeekableInputStream in = new LocalInputFile(file).newStream()) {
      for (BlockMetaData block : blocks) {
        ColumnChunkMetaData chunk = block.getColumns().get(index);
        writer.copyRowGroup(
            in,
            chunk,
            reader.readColumnIndex(chunk),
            reader.readOffsetIndex(chunk),
            block.getRowCount());
      }
    }
  }

  private static void reencode(
      Path file,
      MessageType fileSchema,
      ColumnDescriptor descriptor,
      ColumnSpec column,
      int blocks,
      SegmentWriter writer,
      BufferAllocator alloc)
      throws IOException {
    try (ParquetFileReader reader = open(file)) {
      reader.setRequestedSchema(
          new MessageType(fileSchema.getName(), fileSchema.getType(column.name())));
      for (int b = 0; b < blocks; b++) {
        PageReadStore pages = reader.readRowGroup(b);
        try (FieldVector vector = SegmentReader.decode(pages, descriptor, column, alloc)) {
          writer.write(vector, 0, vector.getValueCount());
          writer.endRowGroup(vector.getValueCount());
        }
      }
    }
  }
}
