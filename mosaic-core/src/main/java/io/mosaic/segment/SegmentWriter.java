package io.mosaic.segment;

import io.mosaic.MosaicException;
import io.mosaic.config.Codec;
import io.mosaic.device.Device;
import io.mosaic.format.CharValues;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.RowGroupStats;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.SegmentStamp;
import io.mosaic.format.TableSchema;
import io.mosaic.format.ValueCodec;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

/**
 * Writes one column, row group by row group, into a single-column Parquet file on a device (a
 * segment, paper Section 3.2), compressed with the device's codec. parquet-java does the encoding,
 * compression, statistics and page checksums; this class feeds it values from Arrow vectors and
 * cuts row groups exactly where the table's row groups end.
 */
public final class SegmentWriter implements AutoCloseable {
  static final int PAGE_SIZE = 1 << 20;

  private final ColumnSpec column;
  private final String tableId;
  private final int firstRowGroup;
  private final List<Long> groupRows = new ArrayList<>();
  private final Device device;
  private final String relativePath;
  private final Codec codec;
  private final MessageType schema;
  private final ColumnDescriptor descriptor;
  private final ParquetProperties properties;
  private final CodecFactory codecs;
  private final DeviceOutputFile output;
  private final ParquetFileWriter file;
  private ColumnChunkPageWriteStore pages;
  private ColumnWriteStore store;
  private ColumnWriter writer;
  private long rowsInGroup;
  private boolean done;
  // Per row group, the checksum of its column chunk and where the chunk ends in the file: each
  // chunk is written whole between two marks of the stream (no padding, indexes at the end).
  private final List<String> chunkChecksums = new ArrayList<>();
  private final List<Long> chunkEnds = new ArrayList<>();
  // Per row group, the sketch and data size of the values written (null for a copied chunk, whose
  // values this writer never sees: ANALYZE adds them).
  private final ValueStats values;
  private final List<ValueStats.Done> valueStats = new ArrayList<>();

  /**
   * @param tableId the table's id, recorded in the file ({@link SegmentStamp})
   * @param firstRowGroup the table row group the segment will start at, as far as the writer knows:
   *     a task's output is renumbered when committed, and the commit corrects the file then
   */
  public SegmentWriter(
      ColumnSpec column,
      String tableId,
      int firstRowGroup,
      Device device,
      String relativePath,
      Codec codec)
      throws IOException {
    this.column = column;
    this.tableId = tableId;
    this.firstRowGroup = firstRowGroup;
    this.device = device;
    this.relativePath = relativePath;
    this.codec = codec;
    this.schema = TableSchema.segmentSchema(column);
    this.descriptor = schema.getColumns().get(0);
    this.values = new ValueStats(column);
    this.properties =
        ParquetProperties.builder()
            .withPageSize(PAGE_SIZE)
            .withPageWriteChecksumEnabled(true)
            .build();
    this.codecs = new CodecFactory(new Configuration(false), PAGE_SIZE);
    this.output = new DeviceOutputFile(device, relativePath);
    this.file =
        new ParquetFileWriter(
            output,
            schema,
            ParquetFileWriter.Mode.CREATE,
            Long.MAX_VALUE,
            0,
            ParquetProperties.DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH,
            ParquetProperties.DEFAULT_STATISTICS_TRUNCATE_LENGTH,
            true);
    file.start();
    output.stream().mark(); // the magic bytes belong to no chunk
    startGroup();
  }

  private void chunkWritten() {
    chunkChecksums.add(output.stream().mark());
    chunkEnds.add(output.stream().position());
  }

  private void startGroup() {
    pages =
        new ColumnChunkPageWriteStore(
            codecs.getCompressor(codec.parquetCodec()),
            schema,
            HeapByteBufferAllocator.getInstance(),
            ParquetProperties.DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH,
            true);
    store = properties.newColumnWriteStore(schema, pages, pages);
    writer = store.getColumnWriter(descriptor);
    rowsInGroup = 0;
  }

  /** Appends rows {@code [from, from + count)} of {@code vector} to the current row group. */
  public void write(FieldVector vector, int from, int count) {
    int def = column.nullable() ? 1 : 0;
    for (int i = from; i < from + count; i++) {
      if (vector.isNull(i)) {
        if (!column.nullable()) {
          throw MosaicException.invalid(
              "column '" + column.name() + "' is NOT NULL, but the batch has a null in row " + i);
        }
        writer.writeNull(0, 0);
      } else {
        writeValue(vector, i, def);
      }
      store.endRecord();
    }
    values.add(vector, from, count);
    rowsInGroup += count;
  }

  private void writeValue(FieldVector vector, int i, int def) {
    switch (column.type().kind()) {
      case BOOLEAN -> writer.write(((BitVector) vector).get(i) != 0, 0, def);
      case INT8 -> writer.write((int) ((TinyIntVector) vector).get(i), 0, def);
      case INT16 -> writer.write((int) ((SmallIntVector) vector).get(i), 0, def);
      case INT32 -> writer.write(((IntVector) vector).get(i), 0, def);
      case DATE -> writer.write(((DateDayVector) vector).get(i), 0, def);
      case INT64 -> writer.write(((BigIntVector) vector).get(i), 0, def);
      case TIMESTAMP, TIMESTAMP_TZ ->
          writer.write(((TimeStampMicroTZVector) vector).get(i), 0, def);
      case TIME -> writer.write(((TimeMicroVector) vector).get(i), 0, def);
      case UUID ->
          writer.write(
              Binary.fromConstantByteArray(((FixedSizeBinaryVector) vector).get(i)), 0, def);
      case FLOAT -> writer.write(((Float4Vector) vector).get(i), 0, def);
      case DOUBLE -> writer.write(((Float8Vector) vector).get(i), 0, def);
      case DECIMAL -> writeDecimal((DecimalVector) vector, i, def);
      case STRING ->
          writer.write(Binary.fromConstantByteArray(((VarCharVector) vector).get(i)), 0, def);
      case CHAR ->
          writer.write(
              Binary.fromConstantByteArray(
                  CharValues.stored(column, ((VarCharVector) vector).get(i))),
              0,
              def);
      case BINARY ->
          writer.write(Binary.fromConstantByteArray(((VarBinaryVector) vector).get(i)), 0, def);
    }
  }

  private void writeDecimal(DecimalVector vector, int i, int def) {
    int precision = column.type().precision();
    if (precision <= 18) {
      // Arrow keeps 128-bit little-endian two's complement; up to 18 digits the low 64 bits are it.
      long unscaled = vector.getDataBuffer().getLong((long) i * DecimalVector.TYPE_WIDTH);
      if (precision <= 9) {
        writer.write((int) unscaled, 0, def);
      } else {
        writer.write(unscaled, 0, def);
      }
      return;
    }
    BigDecimal value = vector.getObject(i);
    byte[] twos = value.unscaledValue().toByteArray();
    byte[] fixed = new byte[ColumnType.decimalBytes(precision)];
    byte pad = (byte) (value.signum() < 0 ? 0xff : 0);
    int lead = fixed.length - twos.length;
    for (int b = 0; b < fixed.length; b++) {
      fixed[b] = b < lead ? pad : twos[b - lead];
    }
    writer.write(Binary.fromConstantByteArray(fixed), 0, def);
  }

  /** Closes the current row group, which must hold {@code expectedRows} rows. */
  public void endRowGroup(long expectedRows) throws IOException {
    if (rowsInGroup != expectedRows) {
      throw new IllegalStateException(
          "column "
              + column.name()
              + " has "
              + rowsInGroup
              + " rows in a row group of "
              + expectedRows);
    }
    file.startBlock(rowsInGroup);
    store.flush();
    pages.flushToFileWriter(file);
    file.endBlock();
    groupRows.add(rowsInGroup);
    chunkWritten();
    valueStats.add(values.endRowGroup());
    store.close();
    pages.close();
    startGroup();
  }

  /**
   * Appends a whole row group copied byte for byte from another Parquet file's column chunk (for
   * import, when the chunk already has this segment's type and codec): no decoding, no
   * re-compression, and its pages, statistics and indexes stay as they were.
   */
  public void copyRowGroup(
      SeekableInputStream from,
      ColumnChunkMetaData chunk,
      ColumnIndex columnIndex,
      OffsetIndex offsetIndex,
      long rows)
      throws IOException {
    if (rowsInGroup != 0) {
      throw new IllegalStateException("a copied row group must start a new row group");
    }
    file.startBlock(rows);
    file.appendColumnChunk(descriptor, from, chunk, null, columnIndex, offsetIndex);
    file.endBlock();
    groupRows.add(rows);
    chunkWritten();
    valueStats.add(null);
  }

  /** Finishes the file (footer, fsync) and describes it, numbered from row group 0. */
  public SegmentEntry finish() throws IOException {
    store.close();
    pages.close();
    // A storage that cannot overwrite in place keeps no guess the commit could not correct.
    boolean correctable = device.storage().capabilities().inPlaceWrite();
    file.end(
        SegmentStamp.of(tableId, column.name(), correctable ? firstRowGroup : null, groupRows));
    codecs.release();
    done = true;
    List<RowGroupStats> stats = new ArrayList<>();
    long compressed = 0;
    long uncompressed = 0;
    List<BlockMetaData> blocks = file.getFooter().getBlocks();
    for (int k = 0; k < blocks.size(); k++) {
      ColumnChunkMetaData chunk = blocks.get(k).getColumns().get(0);
      long start = k == 0 ? ParquetFileWriter.MAGIC.length : chunkEnds.get(k - 1);
      if (chunk.getStartingPos() != start
          || chunk.getStartingPos() + chunk.getTotalSize() != chunkEnds.get(k)) {
        throw new IllegalStateException(
            "segment "
                + relativePath
                + ": row group "
                + k
                + "'s chunk spans "
                + chunk.getStartingPos()
                + "-"
                + (chunk.getStartingPos() + chunk.getTotalSize())
                + ", not what was checksummed ("
                + start
                + "-"
                + chunkEnds.get(k)
                + ")");
      }
      compressed += chunk.getTotalSize();
      uncompressed += chunk.getTotalUncompressedSize();
      RowGroupStats footer = ValueCodec.fromParquet(column.type(), chunk.getStatistics());
      ValueStats.Done done = valueStats.get(k);
      stats.add(done == null ? footer : done.addTo(footer));
    }
    return new SegmentEntry(
        column.name(),
        device.id(),
        relativePath,
        codec,
        0,
        stats.size(),
        output.stream().position(),
        compressed,
        uncompressed,
        output.stream().checksum(),
        stats,
        chunkChecksums);
  }

  /** Gives up: the partial file is deleted (a crash leaves it for gc instead). */
  @Override
  public void close() throws IOException {
    if (!done) {
      done = true;
      file.abort();
      codecs.release();
      if (output.stream() != null) {
        output.stream().close();
        device.deleteFile(relativePath);
      }
    }
  }
}
