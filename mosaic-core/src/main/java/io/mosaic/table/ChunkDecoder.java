package io.mosaic.table;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Decodes a column chunk's pages (decompressed by parquet-java) straight into an Arrow vector:
 * plain fixed-width values are copied in one piece, dictionary-encoded ones gathered per type, and
 * dictionary ids and definition levels are unpacked a run at a time into int arrays first; no
 * object is allocated per value. It covers the encodings Spark and Mosaic write (v1 and v2 pages;
 * PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY; RLE definition levels); {@link #tryDecode} returns null
 * for anything else, and the caller falls back to parquet-java's value-at-a-time reader.
 */
final class ChunkDecoder {
  private ChunkDecoder() {}

  /** Whether the pages use only encodings this decoder reads (checked before any is read). */
  static boolean supports(
      ColumnSpec column, ColumnDescriptor d, DictionaryPage dict, List<DataPage> pages) {
    PrimitiveTypeName physical = d.getPrimitiveType().getPrimitiveTypeName();
    if (d.getMaxRepetitionLevel() > 0
        || physical == PrimitiveTypeName.INT96
        || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      return false;
    }
    if (dict != null
        && (physical == PrimitiveTypeName.BOOLEAN
            || (dict.getEncoding() != Encoding.PLAIN
                && dict.getEncoding() != Encoding.PLAIN_DICTIONARY))) {
      return false;
    }
    for (DataPage p : pages) {
      Encoding values;
      if (p instanceof DataPageV1 v1) {
        values = v1.getValueEncoding();
        if (d.getMaxDefinitionLevel() > 0 && v1.getDlEncoding() != Encoding.RLE) {
          return false;
        }
      } else if (p instanceof DataPageV2 v2) {
        values = v2.getDataEncoding();
      } else {
        return false;
      }
      boolean dictionary = values == Encoding.PLAIN_DICTIONARY || values == Encoding.RLE_DICTIONARY;
      if (!(values == Encoding.PLAIN || (dictionary && dict != null))) {
        return false;
      }
    }
    return true;
  }

  /** Decodes {@code rows} values, or returns null if {@link #supports} says no. */
  static FieldVector tryDecode(
      ColumnSpec column,
      ColumnDescriptor d,
      DictionaryPage dictPage,
      List<DataPage> pages,
      int rows,
      BufferAllocator allocator)
      throws IOException {
    return tryDecode(column, d, dictPage, pages, rows, allocator, null);
  }

  /**
   * As above, into {@code spare} (a vector of an earlier row group the consumer is done with) when
   * it fits: a row group's vectors are megabytes, and allocating them anew meant the allocator
   * zeroing (and later freeing) every byte. Every value and validity bit of the first {@code rows}
   * is written, so the old contents need no clearing. {@code spare} is consumed either way.
   */
  static FieldVector tryDecode(
      ColumnSpec column,
      ColumnDescriptor d,
      DictionaryPage dictPage,
      List<DataPage> pages,
      int rows,
      BufferAllocator allocator,
      FieldVector spare)
      throws IOException {
    DecodedChunk chunk =
        tryDecode(column, d, dictPage, pages, rows, allocator, spare, ChunkForm.PLAIN);
    return chunk == null ? null : chunk.vector();
  }

  /** As above, in one of the other forms {@code form} allows, where the chunk has it. */
  static DecodedChunk tryDecode(
      ColumnSpec column,
      ColumnDescriptor d,
      DictionaryPage dictPage,
      List<DataPage> pages,
      int rows,
      BufferAllocator allocator,
      FieldVector spare,
      ChunkForm form)
      throws IOException {
    if (!supports(column, d, dictPage, pages)) {
      if (spare != null) {
        spare.close();
      }
      return null;
    }
    ColumnType.Kind kind = column.type().kind();
    boolean asIds =
        form.dictionaryIds()
            && dictPage != null
            && IDS.contains(kind)
            && pages.stream().allMatch(ChunkDecoder::dictionaryEncoded);
    boolean unscaled =
        form.unscaledDecimals()
            && kind == ColumnType.Kind.DECIMAL
            && d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT64;
    // Ids decode exactly as an int32 column whose dictionary maps each id to itself; unscaled
    // decimals exactly as the int64 column they are stored as.
    ColumnSpec target =
        asIds
            ? target(column, ColumnType.Kind.INT32)
            : unscaled ? target(column, ColumnType.Kind.INT64) : column;
    boolean fits =
        spare != null
            && spare.getField().getType().equals(target.type().arrowType())
            && spare.getValueCapacity() >= rows;
    FieldVector vector;
    if (fits) {
      vector = spare;
      if (vector instanceof BaseVariableWidthVector v) {
        v.setLastSet(-1); // offset 0 is still 0: every later offset is rewritten
      }
    } else {
      if (spare != null) {
        spare.close();
      }
      vector = newVector(target, rows, allocator);
    }
    FieldVector values = null;
    try {
      Dictionary dict = dictPage == null ? null : new Dictionary(d, dictPage);
      Dictionary sinkDict = asIds ? Dictionary.IDS : dict;
      int row = 0;
      for (DataPage p : pages) {
        row = decodePage(target, d, p, sinkDict, vector, row);
      }
      vector.setValueCount(rows);
      if (asIds) {
        values = dict.values(unscaled ? target(column, ColumnType.Kind.INT64) : column, allocator);
      }
      return new DecodedChunk(vector, values);
    } catch (IOException | RuntimeException e) {
      vector.close();
      if (values != null) {
        values.close();
      }
      throw e;
    }
  }

  // Kinds that may come as dictionary ids: those whose dictionary entries Dictionary#values
  // writes (8- and 16-bit ints are stored as int32 but read as narrower Arrow types: left out).
  private static final java.util.Set<ColumnType.Kind> IDS =
      java.util.EnumSet.of(
          ColumnType.Kind.STRING,
          ColumnType.Kind.BINARY,
          ColumnType.Kind.INT32,
          ColumnType.Kind.DATE,
          ColumnType.Kind.INT64,
          ColumnType.Kind.TIMESTAMP,
          ColumnType.Kind.FLOAT,
          ColumnType.Kind.DOUBLE,
          ColumnType.Kind.DECIMAL);

  /** {@code column} decoded as another kind (its ids, its stored ints). */
  private static ColumnSpec target(ColumnSpec column, ColumnType.Kind kind) {
    return new ColumnSpec(column.name(), ColumnType.of(kind), column.nullable());
  }

  private static boolean dictionaryEncoded(DataPage page) {
    Encoding e =
        page instanceof DataPageV1 v1
            ? v1.getValueEncoding()
            : ((DataPageV2) page).getDataEncoding();
    return e == Encoding.PLAIN_DICTIONARY || e == Encoding.RLE_DICTIONARY;
  }

  /** An empty vector of the column's Arrow type, allocated for {@code rows} values. */
  static FieldVector newVector(ColumnSpec column, int rows, BufferAllocator allocator) {
    FieldVector vector =
        new Field(
                column.name(),
                new FieldType(column.nullable(), column.type().arrowType(), null),
                null)
            .createVector(allocator);
    vector.setInitialCapacity(rows);
    vector.allocateNew();
    return vector;
  }

  private static int decodePage(
      ColumnSpec column,
      ColumnDescriptor d,
      DataPage page,
      Dictionary dict,
      FieldVector vector,
      int row)
      throws IOException {
    int n = page.getValueCount();
    int[] defs = null;
    ByteBuffer values;
    Encoding encoding;
    if (page instanceof DataPageV1 v1) {
      ByteBuffer all = heap(v1.getBytes());
      if (d.getMaxDefinitionLevel() > 0) {
        int length = all.getInt();
        int end = all.position() + length;
        defs = hybrid(all, end, 1, n);
        all.position(end);
      }
      values = all.slice().order(ByteOrder.LITTLE_ENDIAN);
      encoding = v1.getValueEncoding();
    } else {
      DataPageV2 v2 = (DataPageV2) page;
      if (d.getMaxDefinitionLevel() > 0) {
        ByteBuffer levels = heap(v2.getDefinitionLevels());
        defs = hybrid(levels, levels.limit(), 1, n);
      }
      values = heap(v2.getData());
      encoding = v2.getDataEncoding();
    }
    int present = n;
    if (defs != null) {
      present = 0;
      for (int i = 0; i < n; i++) {
        present += defs[i];
      }
    }
    int[] ids = null;
    if (encoding != Encoding.PLAIN) {
      int bitWidth = values.get() & 0xff;
      ids = hybrid(values, values.limit(), bitWidth, present);
    }
    Sink sink =
        new Sink(
            column,
            vector,
            values,
            ids,
            dict,
            d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32);
    if (present == n) {
      sink.bulk(row, n); // no nulls in this page, whether or not the column allows them
    } else {
      int k = 0;
      for (int i = 0; i < n; i++) {
        if (defs[i] == 1) {
          sink.put(row + i, k++);
        } else {
          vector.setNull(row + i);
        }
      }
    }
    return row + n;
  }

  /**
   * A page's bytes as a little-endian heap buffer starting at 0, without copying them where they
   * already are on the heap (parquet-java's decompressed pages are).
   */
  private static ByteBuffer heap(BytesInput input) throws IOException {
    ByteBuffer b = input.toByteBuffer();
    if (!b.hasArray() || b.isReadOnly()) {
      ByteBuffer copy = ByteBuffer.allocate(b.remaining());
      copy.put(b).flip();
      b = copy;
    }
    return b.slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Parquet's RLE / bit-packed hybrid (definition levels, dictionary ids) unpacked into {@code n}
   * ints, a run at a time: RLE runs by a fill, bit-packed values 32 or 8 at a time by
   * parquet-java's {@link BytePacker} (parquet-java's own decoder returns one value per call, which
   * cost a quarter of a Spark scan's decoding). {@code in} is left after the encoded bytes, at
   * {@code end}.
   */
  static int[] hybrid(ByteBuffer in, int end, int bitWidth, int n) throws IOException {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IOException("RLE/bit-packed bit width " + bitWidth + " is not in [0, 32]");
    }
    int[] out = new int[n];
    // The pages are heap buffers: their array is read directly, as the unpackers' ByteBuffer
    // variants paid a bounds check per byte (a quarter of decoding TPC-H's key columns).
    byte[] bytes = in.array();
    int base = in.arrayOffset();
    int pos = in.position();
    BytePacker packer = PACKERS[bitWidth];
    int valueBytes = (bitWidth + 7) / 8;
    int i = 0;
    while (i < n) {
      if (pos >= end) {
        throw new IOException("RLE/bit-packed data ends after " + i + " of " + n + " values");
      }
      int header = 0;
      for (int shift = 0; ; shift += 7) { // ULEB128
        int b = bytes[base + pos++] & 0xff;
        header |= (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
      }
      if ((header & 1) == 0) {
        int value = 0;
        for (int b = 0; b < valueBytes; b++) {
          value |= (bytes[base + pos++] & 0xff) << (8 * b);
        }
        int count = Math.min(header >>> 1, n - i);
        Arrays.fill(out, i, i + count, value);
        i += count;
      } else {
        int group = header >>> 1;
        for (; group >= 4 && i + 32 <= n && pos + 4 * bitWidth <= end; group -= 4) {
          packer.unpack32Values(bytes, base + pos, out, i);
          pos += 4 * bitWidth;
          i += 32;
        }
        for (; group > 0 && i < n; group--) {
          if (i + 8 <= n && pos + bitWidth <= end) {
            packer.unpack8Values(bytes, base + pos, out, i);
          } else {
            // The last group: fewer than 8 values wanted, or its bytes cut short by the writer.
            byte[] padded = new byte[bitWidth];
            for (int b = 0; b < bitWidth && pos + b < end; b++) {
              padded[b] = bytes[base + pos + b];
            }
            int[] eight = new int[8];
            packer.unpack8Values(padded, 0, eight, 0);
            System.arraycopy(eight, 0, out, i, Math.min(8, n - i));
          }
          pos += bitWidth;
          i += 8;
        }
      }
    }
    in.position(end);
    return out;
  }

  private static final BytePacker[] PACKERS = new BytePacker[33];

  static {
    for (int w = 0; w <= 32; w++) {
      PACKERS[w] = Packer.LITTLE_ENDIAN.newBytePacker(w);
    }
  }

  /** A dictionary page decoded once into primitive arrays (or offsets into its bytes). */
  private static final class Dictionary {
    /**
     * Maps each id to itself: ids decode as an int32 column's values, copied straight from the
     * unpacked ids.
     */
    static final Dictionary IDS = new Dictionary();

    final long[] longs;
    final double[] doubles;
    final byte[] bytes;
    final int[] offsets;
    final int[] lengths;

    private Dictionary() {
      this.longs = null;
      this.doubles = null;
      this.bytes = null;
      this.offsets = null;
      this.lengths = null;
    }

    int size() {
      return lengths != null ? lengths.length : longs != null ? longs.length : doubles.length;
    }

    /** The dictionary's entries as a vector of {@code column}'s type. */
    FieldVector values(ColumnSpec column, BufferAllocator allocator) {
      if (lengths != null) {
        BaseVariableWidthVector v =
            (BaseVariableWidthVector) newVector(column, lengths.length, allocator);
        for (int i = 0; i < lengths.length; i++) {
          v.setSafe(i, bytes, offsets[i], lengths[i]);
        }
        v.setValueCount(lengths.length);
        return v;
      }
      int size = size();
      FieldVector v = newVector(column, size, allocator);
      ArrowBuf data = v.getDataBuffer();
      switch (column.type().kind()) {
        case INT32, DATE -> {
          int[] out = new int[size];
          for (int i = 0; i < size; i++) {
            out[i] = (int) longs[i];
          }
          littleEndian(data, 0, 4 * size).asIntBuffer().put(out);
        }
        case INT64, TIMESTAMP -> littleEndian(data, 0, 8 * size).asLongBuffer().put(longs);
        case FLOAT -> {
          float[] out = new float[size];
          for (int i = 0; i < size; i++) {
            out[i] = (float) doubles[i];
          }
          littleEndian(data, 0, 4 * size).asFloatBuffer().put(out);
        }
        case DOUBLE -> littleEndian(data, 0, 8 * size).asDoubleBuffer().put(doubles);
        case DECIMAL -> {
          long[] out = new long[2 * size];
          for (int i = 0; i < size; i++) {
            out[2 * i] = longs[i];
            out[2 * i + 1] = longs[i] >> 63;
          }
          littleEndian(data, 0, 16 * size).asLongBuffer().put(out);
        }
        default -> throw new IllegalStateException("no dictionary ids for " + column);
      }
      setValid(v.getValidityBuffer(), 0, size);
      v.setValueCount(size);
      return v;
    }

    /**
     * Reads the page's PLAIN-encoded entries ({@link #supports} checked the encoding) in bulk:
     * parquet-java's own dictionaries read them one stream call at a time and were then copied
     * again, which cost a scan of key columns (200 K distinct part keys per row group at SF 1) more
     * than decoding their ids.
     */
    Dictionary(ColumnDescriptor d, DictionaryPage page) throws IOException {
      int size = page.getDictionarySize();
      ByteBuffer in = page.getBytes().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
      PrimitiveTypeName physical = d.getPrimitiveType().getPrimitiveTypeName();
      int width =
          switch (physical) {
            case INT32, FLOAT -> 4;
            case INT64, DOUBLE -> 8;
            default -> 0;
          };
      if (width > 0 && in.remaining() < (long) width * size) {
        throw new IOException(
            "dictionary page of "
                + size
                + " "
                + physical
                + " entries has only "
                + in.remaining()
                + " bytes");
      }
      long[] l = null;
      double[] f = null;
      byte[] b = null;
      int[] off = null;
      int[] len = null;
      switch (physical) {
        case INT32 -> {
          l = new long[size];
          for (int i = 0; i < size; i++) {
            l[i] = in.getInt(4 * i);
          }
        }
        case INT64 -> {
          l = new long[size];
          in.asLongBuffer().get(l);
        }
        case FLOAT -> {
          f = new double[size];
          for (int i = 0; i < size; i++) {
            f[i] = in.getFloat(4 * i);
          }
        }
        case DOUBLE -> {
          f = new double[size];
          in.asDoubleBuffer().get(f);
        }
        case BINARY -> {
          // PLAIN: a 4-byte little-endian length before each entry; entries point into the bytes.
          b = new byte[in.remaining()];
          in.get(0, b);
          off = new int[size];
          len = new int[size];
          int at = 0;
          for (int i = 0; i < size; i++) {
            int length = at <= b.length - 4 ? in.getInt(at) : -1;
            if (length < 0 || length > b.length - at - 4) {
              throw new IOException(
                  "dictionary page ends inside entry " + i + " of " + size + " at byte " + at);
            }
            len[i] = length;
            off[i] = at + 4;
            at += 4 + length;
          }
        }
        default -> throw new IllegalStateException("no dictionary for " + physical);
      }
      this.longs = l;
      this.doubles = f;
      this.bytes = b;
      this.offsets = off;
      this.lengths = len;
    }
  }

  /** {@code bytes} bytes of {@code buf} from {@code from}, little-endian as Arrow lays them out. */
  private static ByteBuffer littleEndian(ArrowBuf buf, long from, int bytes) {
    return buf.nioBuffer(from, bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Marks {@code [from, from + n)} valid: whole bytes at once, the ragged ends bit by bit. */
  static void setValid(ArrowBuf validity, int from, int n) {
    int i = from;
    int end = from + n;
    while (i < end && (i & 7) != 0) {
      BitVectorHelper.setBit(validity, i++);
    }
    int bytes = (end - i) >>> 3;
    if (bytes > 0) {
      validity.setOne((long) (i >>> 3), bytes);
      i += bytes << 3;
    }
    while (i < end) {
      BitVectorHelper.setBit(validity, i++);
    }
  }

  /** Writes the k-th present value of a page to a vector index, by column kind. */
  private static final class Sink {
    private final ColumnType.Kind kind;
    private final FieldVector vector;
    private final ArrowBuf data;
    private final ArrowBuf validity;
    private final ByteBuffer values;
    private final int[] ids;
    private final Dictionary dict;
    private final int width;
    private final boolean int32;
    private int binaryPosition;

    Sink(
        ColumnSpec column,
        FieldVector vector,
        ByteBuffer values,
        int[] ids,
        Dictionary dict,
        boolean int32) {
      this.kind = column.type().kind();
      this.vector = vector;
      this.values = values;
      this.ids = ids;
      this.dict = dict;
      this.int32 = int32;
      this.data = vector.getDataBuffer();
      this.validity = vector.getValidityBuffer();
      this.width =
          switch (kind) {
            case INT32, DATE, FLOAT -> 4;
            case INT64, TIMESTAMP, DOUBLE -> 8;
            default -> 0;
          };
    }

    /** {@code n} present values into indexes {@code [row, row + n)}. */
    void bulk(int row, int n) {
      if (ids == null && width > 0) {
        // Plain fixed-width values are laid out as Arrow lays them out: one copy.
        data.setBytes(
            (long) row * width,
            values.array(),
            values.arrayOffset() + values.position(),
            (long) n * width);
      } else if (!gather(row, n)) {
        for (int k = 0; k < n; k++) {
          put(row + k, k);
        }
        return; // put() marked each value valid
      }
      setValid(vector.getValidityBuffer(), row, n);
    }

    /**
     * Dictionary ids (and plain decimals) resolved in a tight loop per type into a heap array, then
     * copied into the Arrow buffer at once: the per-value path pays a type switch and a bounds
     * check per value, which made decoding the largest part of a Spark scan's cost.
     */
    private boolean gather(int row, int n) {
      int[] id = ids;
      switch (kind) {
        case INT32, DATE -> {
          if (id == null) {
            return false;
          }
          if (dict == Dictionary.IDS) {
            target(row, 4, n).asIntBuffer().put(id, 0, n);
            return true;
          }
          int[] out = new int[n];
          long[] l = dict.longs;
          for (int k = 0; k < n; k++) {
            out[k] = (int) l[id[k]];
          }
          target(row, 4, n).asIntBuffer().put(out);
        }
        case INT64, TIMESTAMP -> {
          if (id == null) {
            return false;
          }
          long[] out = new long[n];
          long[] l = dict.longs;
          for (int k = 0; k < n; k++) {
            out[k] = l[id[k]];
          }
          target(row, 8, n).asLongBuffer().put(out);
        }
        case DOUBLE -> {
          if (id == null) {
            return false;
          }
          double[] out = new double[n];
          double[] f = dict.doubles;
          for (int k = 0; k < n; k++) {
            out[k] = f[id[k]];
          }
          target(row, 8, n).asDoubleBuffer().put(out);
        }
        case FLOAT -> {
          if (id == null) {
            return false;
          }
          float[] out = new float[n];
          double[] f = dict.doubles;
          for (int k = 0; k < n; k++) {
            out[k] = (float) f[id[k]];
          }
          target(row, 4, n).asFloatBuffer().put(out);
        }
        case DECIMAL -> {
          // 16-byte little-endian two's complement: the unscaled long, then its sign extension.
          long[] out = new long[2 * n];
          if (id != null) {
            long[] l = dict.longs;
            for (int k = 0; k < n; k++) {
              long v = l[id[k]];
              out[2 * k] = v;
              out[2 * k + 1] = v >> 63;
            }
          } else {
            for (int k = 0; k < n; k++) {
              long v = int32 ? intValue(k) : longValue(k);
              out[2 * k] = v;
              out[2 * k + 1] = v >> 63;
            }
          }
          target(row, 16, n).asLongBuffer().put(out);
        }
        case STRING, BINARY -> gatherBinary(row, n);
        default -> {
          return false;
        }
      }
      return true;
    }

    /**
     * Variable-width values: the page's offsets first (so the data buffer grows once), then each
     * value's bytes straight into it.
     */
    private void gatherBinary(int row, int n) {
      BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
      v.fillEmpties(row); // offsets of the nulls before this page
      int start = v.getStartOffset(row);
      int[] ends = new int[n];
      long end = start;
      if (ids != null) {
        int[] length = dict.lengths;
        for (int k = 0; k < n; k++) {
          end += length[ids[k]];
          ends[k] = Math.toIntExact(end);
        }
      } else {
        // PLAIN: a 4-byte little-endian length before each value.
        int at = values.position();
        for (int k = 0; k < n; k++) {
          int len = values.getInt(at);
          end += len;
          ends[k] = Math.toIntExact(end);
          at += 4 + len;
        }
      }
      while (v.getDataBuffer().capacity() < end) {
        v.reallocDataBuffer();
      }
      ArrowBuf out = v.getDataBuffer();
      int p = start;
      if (ids != null) {
        int[] offset = dict.offsets;
        byte[] bytes = dict.bytes;
        for (int k = 0; k < n; k++) {
          int id = ids[k];
          out.setBytes(p, bytes, offset[id], ends[k] - p);
          p = ends[k];
        }
      } else {
        byte[] src = values.array();
        int at = values.arrayOffset() + values.position();
        for (int k = 0; k < n; k++) {
          int len = ends[k] - p;
          out.setBytes(p, src, at + 4, len);
          at += 4 + len;
          p = ends[k];
        }
      }
      littleEndian(v.getOffsetBuffer(), (long) (row + 1) * 4, n * 4).asIntBuffer().put(ends);
      v.setLastSet(row + n - 1);
    }

    /** The data buffer's bytes for values {@code [row, row + n)}, little-endian as Arrow's. */
    private ByteBuffer target(int row, int width, int n) {
      return littleEndian(data, (long) row * width, n * width);
    }

    void put(int index, int k) {
      switch (kind) {
        case BOOLEAN -> {
          int bit = (values.get(values.position() + (k >>> 3)) >>> (k & 7)) & 1;
          BitVectorHelper.setValidityBit(data, index, bit);
        }
        case INT8 -> data.setByte(index, (byte) intValue(k));
        case INT16 -> data.setShort((long) index * 2, (short) intValue(k));
        case INT32, DATE -> data.setInt((long) index * 4, intValue(k));
        case INT64, TIMESTAMP -> data.setLong((long) index * 8, longValue(k));
        case FLOAT ->
            data.setFloat(
                (long) index * 4,
                ids == null
                    ? values.getFloat(values.position() + 4 * k)
                    : (float) dict.doubles[ids[k]]);
        case DOUBLE ->
            data.setDouble(
                (long) index * 8,
                ids == null ? values.getDouble(values.position() + 8 * k) : dict.doubles[ids[k]]);
        case DECIMAL -> {
          long unscaled = int32 ? intValue(k) : longValue(k);
          data.setLong((long) index * 16, unscaled);
          data.setLong((long) index * 16 + 8, unscaled < 0 ? -1L : 0L);
        }
        case STRING, BINARY -> {
          BaseVariableWidthVector v = (BaseVariableWidthVector) vector;
          if (ids == null) {
            int p = values.position() + binaryPosition;
            int len = values.getInt(p);
            v.setSafe(index, values.array(), values.arrayOffset() + p + 4, len);
            binaryPosition += 4 + len;
          } else {
            int id = ids[k];
            v.setSafe(index, dict.bytes, dict.offsets[id], dict.lengths[id]);
          }
          return;
        }
      }
      BitVectorHelper.setBit(validity, index);
    }

    private int intValue(int k) {
      if (ids == null) {
        return values.getInt(values.position() + 4 * k);
      }
      return dict == Dictionary.IDS ? ids[k] : (int) dict.longs[ids[k]];
    }

    private long longValue(int k) {
      return ids == null ? values.getLong(values.position() + 8 * k) : dict.longs[ids[k]];
    }
  }
}
