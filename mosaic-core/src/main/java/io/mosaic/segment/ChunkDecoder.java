package io.mosaic.segment;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.ColumnType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Decodes a column chunk's pages (decompressed by parquet-java) straight into an Arrow vector:
 * plain fixed-width values are copied in one piece, dictionary-encoded ones gathered per type, and
 * dictionary ids and definition levels are unpacked a run at a time into int arrays first; no
 * object is allocated per value. It covers the encodings Spark and Mosaic write (v1 and v2 pages;
 * PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY; RLE definition levels); {@link #tryDecode} returns null
 * for anything else, and the caller falls back to parquet-java's value-at-a-time reader. The levels
 * and ids are unpacked by {@link RleBitPacked}, dictionaries read by {@link PageDictionary}, values
 * written per type by {@link ValueSink}.
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
      vector = ArrowBuffers.newVector(target, rows, allocator);
    }
    FieldVector values = null;
    try {
      PageDictionary dict = dictPage == null ? null : new PageDictionary(d, dictPage);
      PageDictionary sinkDict = asIds ? PageDictionary.IDS : dict;
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

  // Kinds that may come as dictionary ids: those whose dictionary entries PageDictionary#values
  // writes (8- and 16-bit ints are stored as int32 but read as narrower Arrow types: left out).
  private static final java.util.Set<ColumnType.Kind> IDS =
      java.util.EnumSet.of(
          ColumnType.Kind.STRING,
          ColumnType.Kind.CHAR,
          ColumnType.Kind.BINARY,
          ColumnType.Kind.INT32,
          ColumnType.Kind.DATE,
          ColumnType.Kind.INT64,
          ColumnType.Kind.TIMESTAMP,
          ColumnType.Kind.TIMESTAMP_TZ,
          ColumnType.Kind.TIME,
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

  private static int decodePage(
      ColumnSpec column,
      ColumnDescriptor d,
      DataPage page,
      PageDictionary dict,
      FieldVector vector,
      int row)
      throws IOException {
    int n = page.getValueCount();
    Scratch scratch = Scratch.ofThread();
    int[] defs = null;
    ByteBuffer values;
    Encoding encoding;
    if (page instanceof DataPageV1 v1) {
      ByteBuffer all = RleBitPacked.heap(v1.getBytes());
      if (d.getMaxDefinitionLevel() > 0) {
        int length = all.getInt();
        int end = all.position() + length;
        defs = RleBitPacked.unpack(all, end, 1, n, scratch.defs(n));
        all.position(end);
      }
      values = all.slice().order(ByteOrder.LITTLE_ENDIAN);
      encoding = v1.getValueEncoding();
    } else {
      DataPageV2 v2 = (DataPageV2) page;
      if (d.getMaxDefinitionLevel() > 0) {
        ByteBuffer levels = RleBitPacked.heap(v2.getDefinitionLevels());
        defs = RleBitPacked.unpack(levels, levels.limit(), 1, n, scratch.defs(n));
      }
      values = RleBitPacked.heap(v2.getData());
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
      ids = RleBitPacked.unpack(values, values.limit(), bitWidth, present, scratch.ids(present));
    }
    ValueSink sink =
        new ValueSink(
            column,
            vector,
            values,
            ids,
            dict,
            d.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32,
            scratch);
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
}
