package io.mosaic.segment;

import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.format.Checksums;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
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
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Reads row groups of one segment into Arrow vectors, through the device's I/O path. parquet-java
 * decodes pages (and verifies their checksums); this is the simple value-at-a-time path used by
 * migration checks and tests; the scan retriever has its own.
 */
public final class SegmentReader implements AutoCloseable {
  private final String table;
  private final ColumnSpec column;
  private final SegmentEntry segment;
  private final String file;
  private final ParquetFileReader reader;
  private final DeviceInputFile input;

  /**
   * Read options on a Hadoop configuration without Hadoop's default resources: the default one
   * parses Hadoop's XML files for every reader, which was a third of a Spark scan's decoding time
   * (one reader per column chunk). Parquet's own settings keep their built-in defaults.
   */
  public static ParquetReadOptions.Builder readOptions() {
    return ParquetReadOptions.builder(new HadoopParquetConfiguration(false));
  }

  /**
   * Opens a segment of {@code manifest}: its checksum is checked, and its footer against the
   * manifest as a scan checks it ({@link Manifest#checkSegmentFooter}), so a segment the manifest
   * misplaces is refused rather than read.
   */
  public SegmentReader(String table, DevicePool pool, Manifest manifest, SegmentEntry segment)
      throws IOException {
    this(table, pool, manifest.schema().column(segment.column()), segment, manifest);
  }

  /**
   * Checks a segment file's footer against {@code manifest} without reading its data (gc and
   * migration, before they rely on the file being the one named).
   *
   * @throws CorruptTableException if the footer does not match the manifest
   * @throws IOException if the file is missing or not readable as Parquet
   */
  public static void checkFooter(
      String table, Manifest manifest, Device device, SegmentEntry segment) throws IOException {
    DeviceInputFile file = DeviceInputFile.direct(device, segment.path());
    long size = file.getLength();
    try (ParquetFileReader reader = ParquetFileReader.open(file, readOptions().build())) {
      manifest.checkSegmentFooter(table, segment, file.toString(), size, reader.getFooter());
    }
  }

  /** Opens a segment checking only its checksum (benchmarks and tests of the decoder). */
  public SegmentReader(String table, DevicePool pool, ColumnSpec column, SegmentEntry segment)
      throws IOException {
    this(table, pool, column, segment, null);
  }

  private SegmentReader(
      String table, DevicePool pool, ColumnSpec column, SegmentEntry segment, Manifest manifest)
      throws IOException {
    this.table = table;
    this.column = column;
    this.segment = segment;
    Device device = pool.device(segment.device());
    this.file = device.where(segment.path());
    String which =
        "segment "
            + file
            + " of column '"
            + column.name()
            + "' on device '"
            + device.id()
            + "' of table "
            + table;
    try {
      // This reader serves whole-segment work (migration, table dumps): the file is read whole
      // anyway, so its recorded checksum is checked first, and data that fails it is never
      // re-encoded and committed under a new checksum (docs/format.md, "Checked before use").
      String actual = Checksums.ofFile(device, segment.path());
      if (!actual.equals(segment.checksum())) {
        throw new CorruptTableException(
            which
                + " fails its checksum: "
                + actual
                + ", the manifest records "
                + segment.checksum()
                + " (damaged, or another file put in its place)");
      }
      this.input = DeviceInputFile.throttled(device, segment.path());
      this.reader =
          ParquetFileReader.open(input, readOptions().usePageChecksumVerification(true).build());
    } catch (CorruptTableException e) {
      throw e;
    } catch (NoSuchFileException e) {
      throw new CorruptTableException(
          "segment of column '"
              + column.name()
              + "' of table "
              + table
              + " is missing: "
              + file
              + " on device '"
              + device.id()
              + "'"
              + (device.present() ? "" : " (the device directory itself is gone)"),
          e);
    } catch (IOException | RuntimeException e) {
      throw new CorruptTableException(
          which + " is not a readable Parquet file: " + e.getMessage(), e);
    }
    if (manifest != null) {
      try {
        manifest.checkSegmentFooter(table, segment, file, segment.fileBytes(), reader.getFooter());
      } catch (CorruptTableException e) {
        reader.close();
        throw e;
      }
    }
  }

  /** Reads table row group {@code rowGroup} (which this segment must cover) into a new vector. */
  public FieldVector read(int rowGroup, BufferAllocator allocator) throws IOException {
    int local = rowGroup - segment.firstRowGroup();
    String source = "row group " + rowGroup + " of segment " + file;
    byte[] chunk;
    try {
      ColumnChunkMetaData meta = reader.getFooter().getBlocks().get(local).getColumns().get(0);
      chunk = new byte[Math.toIntExact(meta.getTotalSize())];
      try (org.apache.parquet.io.SeekableInputStream in = input.newStream()) {
        in.seek(meta.getStartingPos());
        in.readFully(chunk);
      }
    } catch (IOException | RuntimeException e) {
      throw corrupt(rowGroup, e);
    }
    // The file's checksum was checked on open, so its pages need no CRC check here.
    return decodeChunk(
            chunk,
            reader.getFooter(),
            local,
            input.getLength(),
            column,
            allocator,
            () -> null,
            ChunkForm.PLAIN,
            false,
            source)
        .vector();
  }

  private CorruptTableException corrupt(int rowGroup, Exception e) {
    return new CorruptTableException(
        "row group "
            + rowGroup
            + " of segment "
            + file
            + " (table "
            + table
            + ", column '"
            + column.name()
            + "', device '"
            + segment.device()
            + "') is corrupt: "
            + e.getMessage(),
        e);
  }

  /**
   * Decodes row group {@code local} of a one-column segment from its column chunk held whole in
   * memory ({@code chunk}, from the chunk's first byte; {@code fileBytes} the segment file's
   * length): straight from those bytes where {@link #decodeHeld} applies, else by parquet-java's
   * reader over the same bytes ({@link ChunkInputFile}), never reading the device again. {@code
   * spare} and {@code checkCrcs} as {@link #decodeHeld} takes them.
   */
  public static DecodedChunk decodeChunk(
      byte[] chunk,
      ParquetMetadata footer,
      int local,
      long fileBytes,
      ColumnSpec column,
      BufferAllocator allocator,
      Supplier<FieldVector> spare,
      ChunkForm form,
      boolean checkCrcs,
      String source)
      throws IOException {
    ColumnChunkMetaData meta = footer.getBlocks().get(local).getColumns().get(0);
    ColumnDescriptor descriptor = footer.getFileMetaData().getSchema().getColumns().get(0);
    DecodedChunk held =
        decodeHeld(chunk, meta, descriptor, column, allocator, spare, form, checkCrcs, source);
    if (held != null) {
      return held;
    }
    ChunkInputFile in = new ChunkInputFile(fileBytes, meta.getStartingPos(), chunk);
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            in,
            footer,
            readOptions().usePageChecksumVerification(checkCrcs).build(),
            in.newStream())) {
      return decode(reader.readRowGroup(local), descriptor, column, allocator, spare.get(), form);
    }
  }

  /** Decodes one row group's pages of a one-column Parquet file into a new Arrow vector. */
  public static FieldVector decode(
      PageReadStore pages,
      ColumnDescriptor descriptor,
      ColumnSpec column,
      BufferAllocator allocator)
      throws IOException {
    return decode(pages, descriptor, column, allocator, null, ChunkForm.PLAIN).vector();
  }

  /**
   * As above, reusing {@code spare} if it fits (see {@link ChunkDecoder}; consumed either way), in
   * one of the other forms {@code form} allows where the chunk has it (the value-at-a-time fallback
   * gives plain vectors only).
   */
  public static DecodedChunk decode(
      PageReadStore pages,
      ColumnDescriptor descriptor,
      ColumnSpec column,
      BufferAllocator allocator,
      FieldVector spare,
      ChunkForm form)
      throws IOException {
    ColumnType stored = column.type().storedIn(descriptor.getPrimitiveType());
    if (stored != null && !stored.equals(column.type())) {
      // A segment written before its column was widened: decoded in its own type, then widened.
      if (spare != null) {
        spare.close();
      }
      ColumnSpec narrow = new ColumnSpec(column.name(), stored, column.nullable());
      return widened(
          decode(pages, descriptor, narrow, allocator, null, ChunkForm.PLAIN), column, allocator);
    }
    int rows = Math.toIntExact(pages.getRowCount());
    PageReader pageReader = pages.getPageReader(descriptor);
    DictionaryPage dictionary = pageReader.readDictionaryPage();
    List<DataPage> dataPages = new ArrayList<>();
    for (DataPage p = pageReader.readPage(); p != null; p = pageReader.readPage()) {
      dataPages.add(p);
    }
    DecodedChunk fast =
        ChunkDecoder.tryDecode(
            column, descriptor, dictionary, dataPages, rows, allocator, spare, form);
    if (fast != null) {
      return fast;
    }
    // Encodings the block decoder does not know: parquet-java's value-at-a-time reader.
    ColumnReaderImpl values =
        new ColumnReaderImpl(
            descriptor,
            new ListPageReader(dictionary, dataPages, pageReader.getTotalValueCount()),
            new PrimitiveConverter() {},
            null);
    FieldVector vector = ArrowBuffers.newVector(column, rows, allocator);
    int maxDef = descriptor.getMaxDefinitionLevel();
    for (int i = 0; i < rows; i++) {
      if (values.getCurrentDefinitionLevel() < maxDef) {
        vector.setNull(i);
      } else {
        set(column, descriptor, vector, i, values);
      }
      values.consume();
    }
    vector.setValueCount(rows);
    return new DecodedChunk(vector, null);
  }

  /**
   * As {@link #decode(PageReadStore, ColumnDescriptor, ColumnSpec, BufferAllocator, FieldVector,
   * ChunkForm)}, for a column chunk held whole in memory ({@code chunk}, from its first byte;
   * {@code meta} its footer entry): its pages are cut from those bytes and decompressed into the
   * thread's scratch ({@link ChunkPages}), not copied by parquet-java's file reader. Returns null,
   * having asked {@code spare} for nothing, where that path does not apply (another codec, an
   * encoding {@link ChunkDecoder} does not read); the caller then decodes with parquet-java. With
   * {@code checkCrcs}, pages are checked against their CRCs (a chunk with no recorded checksum).
   */
  private static DecodedChunk decodeHeld(
      byte[] chunk,
      ColumnChunkMetaData meta,
      ColumnDescriptor descriptor,
      ColumnSpec column,
      BufferAllocator allocator,
      Supplier<FieldVector> spare,
      ChunkForm form,
      boolean checkCrcs,
      String source)
      throws IOException {
    ColumnType stored = column.type().storedIn(descriptor.getPrimitiveType());
    if (stored != null && !stored.equals(column.type())) {
      ColumnSpec narrow = new ColumnSpec(column.name(), stored, column.nullable());
      return widened(
          decodeHeld(
              chunk,
              meta,
              descriptor,
              narrow,
              allocator,
              () -> null,
              ChunkForm.PLAIN,
              checkCrcs,
              source),
          column,
          allocator);
    }
    ChunkPages pages = ChunkPages.of(chunk, meta, checkCrcs, source);
    if (pages == null || !ChunkDecoder.supports(column, descriptor, pages.dictionary, pages.data)) {
      return null;
    }
    return ChunkDecoder.tryDecode(
        column,
        descriptor,
        pages.dictionary,
        pages.data,
        Math.toIntExact(meta.getValueCount()),
        allocator,
        spare.get(),
        form);
  }

  /** A segment's values in its own narrower type as {@code column}'s (null stays null). */
  private static DecodedChunk widened(
      DecodedChunk narrow, ColumnSpec column, BufferAllocator allocator) {
    if (narrow == null) {
      return null;
    }
    try (FieldVector values = narrow.vector()) {
      return new DecodedChunk(Widening.widen(values, column, allocator), null);
    }
  }

  /** Pages already read, served again in order. */
  private static final class ListPageReader implements PageReader {
    private final DictionaryPage dictionary;
    private final java.util.Iterator<DataPage> pages;
    private final long total;

    ListPageReader(DictionaryPage dictionary, List<DataPage> pages, long total) {
      this.dictionary = dictionary;
      this.pages = pages.iterator();
      this.total = total;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
      return dictionary;
    }

    @Override
    public long getTotalValueCount() {
      return total;
    }

    @Override
    public DataPage readPage() {
      return pages.hasNext() ? pages.next() : null;
    }
  }

  private static void set(
      ColumnSpec column,
      ColumnDescriptor descriptor,
      FieldVector vector,
      int i,
      ColumnReaderImpl r) {
    switch (column.type().kind()) {
      case BOOLEAN -> ((BitVector) vector).setSafe(i, r.getBoolean() ? 1 : 0);
      case INT8 -> ((TinyIntVector) vector).setSafe(i, r.getInteger());
      case INT16 -> ((SmallIntVector) vector).setSafe(i, r.getInteger());
      case INT32 -> ((IntVector) vector).setSafe(i, r.getInteger());
      case DATE -> ((DateDayVector) vector).setSafe(i, r.getInteger());
      case INT64 -> ((BigIntVector) vector).setSafe(i, r.getLong());
      case TIME -> ((TimeMicroVector) vector).setSafe(i, r.getLong());
      case UUID -> ((FixedSizeBinaryVector) vector).setSafe(i, r.getBinary().getBytes());
      case TIMESTAMP, TIMESTAMP_TZ ->
          ((TimeStampMicroTZVector) vector)
              .setSafe(
                  i,
                  descriptor.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT96
                      ? int96Micros(r.getBinary())
                      : r.getLong());
      case FLOAT -> ((Float4Vector) vector).setSafe(i, r.getFloat());
      case DOUBLE -> ((Float8Vector) vector).setSafe(i, r.getDouble());
      case DECIMAL -> {
        int scale = column.type().scale();
        BigDecimal value =
            switch (descriptor.getPrimitiveType().getPrimitiveTypeName()) {
              case INT32 -> BigDecimal.valueOf(r.getInteger(), scale);
              case INT64 -> BigDecimal.valueOf(r.getLong(), scale);
              default -> new BigDecimal(new BigInteger(r.getBinary().getBytes()), scale);
            };
        ((DecimalVector) vector).setSafe(i, value);
      }
      case STRING, CHAR -> ((VarCharVector) vector).setSafe(i, r.getBinary().getBytes());
      case BINARY -> ((VarBinaryVector) vector).setSafe(i, r.getBinary().getBytes());
    }
  }

  /** INT96: 8 bytes of nanoseconds in the day, then 4 bytes of Julian day, little-endian. */
  private static long int96Micros(Binary value) {
    java.nio.ByteBuffer b = value.toByteBuffer().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long nanos = b.getLong();
    long julianDay = Integer.toUnsignedLong(b.getInt());
    return (julianDay - JULIAN_EPOCH_DAY) * 86_400_000_000L + nanos / 1000;
  }

  private static final long JULIAN_EPOCH_DAY = 2_440_588;

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
