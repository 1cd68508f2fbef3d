package io.mosaic.format;

import java.util.List;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * How a segment's Parquet footer differs from its manifest entry (docs/format.md, "Checked before
 * use"), or null; {@link Manifest#checkSegmentFooter} throws it.
 */
final class SegmentFooterCheck {
  private SegmentFooterCheck() {}

  static String problem(Manifest m, SegmentEntry segment, long fileSize, ParquetMetadata footer) {
    TableSchema schema = m.schema();
    if (fileSize != segment.fileBytes()) {
      return "the file is " + fileSize + " bytes, the manifest says " + segment.fileBytes();
    }
    ColumnSpec column = schema.column(segment.column());
    MessageType fileSchema = footer.getFileMetaData().getSchema();
    if (fileSchema.getFieldCount() != 1 || !fileSchema.getType(0).isPrimitive()) {
      return "it holds " + fileSchema.getFields() + ", not one flat column";
    }
    PrimitiveType have = fileSchema.getType(0).asPrimitiveType();
    PrimitiveType want =
        column.type().parquetType(column.name(), column.nullable()).asPrimitiveType();
    // The file's own column name is not compared: a renamed column keeps the segments written
    // under its old name (docs/format.md, "Column ids"); the manifest says whose segment it is.
    // A widened column keeps those written in its narrower type.
    ColumnType stored = column.type().storedIn(have);
    if (stored == null || have.getRepetition() != want.getRepetition()) {
      return "it holds Parquet type '"
          + have
          + "', but column '"
          + column.name()
          + "' ("
          + column.type()
          + (column.nullable() ? "" : " not null")
          + ") is stored as '"
          + want
          + "'";
    }
    List<BlockMetaData> blocks = footer.getBlocks();
    if (blocks.size() != segment.rowGroupCount()) {
      return "it has "
          + blocks.size()
          + " row groups, the manifest says "
          + segment.rowGroupCount()
          + " (table row groups "
          + segment.firstRowGroup()
          + " to "
          + (segment.firstRowGroup() + segment.rowGroupCount() - 1)
          + ")";
    }
    CompressionCodecName codec = segment.codec().parquetCodec();
    long compressed = 0;
    long uncompressed = 0;
    for (int k = 0; k < blocks.size(); k++) {
      BlockMetaData block = blocks.get(k);
      int group = segment.firstRowGroup() + k;
      String at = "its row group " + k + " (table row group " + group + ")";
      long rows = m.rowGroups().get(group);
      if (block.getRowCount() != rows) {
        return at + " has " + block.getRowCount() + " rows, the manifest says " + rows;
      }
      if (block.getColumns().size() != 1) {
        return at + " has " + block.getColumns().size() + " column chunks, not one";
      }
      ColumnChunkMetaData chunk = block.getColumns().get(0);
      if (chunk.getValueCount() != rows) {
        return at + " holds " + chunk.getValueCount() + " values for " + rows + " rows";
      }
      if (chunk.getCodec() != codec) {
        return at
            + " is compressed with "
            + chunk.getCodec()
            + ", but the manifest says "
            + segment.codec().configName()
            + " ("
            + codec
            + ")";
      }
      if (chunk.getStartingPos() < 4
          || chunk.getTotalSize() <= 0
          || chunk.getTotalSize() > Integer.MAX_VALUE
          || chunk.getStartingPos() + chunk.getTotalSize() > fileSize) {
        return at
            + " claims bytes "
            + chunk.getStartingPos()
            + " + "
            + chunk.getTotalSize()
            + " of a "
            + fileSize
            + "-byte file";
      }
      String stats = statsProblem(stored, chunk.getStatistics(), segment.stats().get(k));
      if (stats != null) {
        return at + " " + stats;
      }
      compressed += chunk.getTotalSize();
      uncompressed += chunk.getTotalUncompressedSize();
    }
    if (compressed != segment.compressedBytes() || uncompressed != segment.uncompressedBytes()) {
      return "its column chunks are "
          + compressed
          + " bytes ("
          + uncompressed
          + " uncompressed), the manifest says "
          + segment.compressedBytes()
          + " ("
          + segment.uncompressedBytes()
          + ")";
    }
    // Last: a file of the same shape in another segment's place passes everything above.
    return SegmentStamp.problem(m, segment, footer.getFileMetaData().getKeyValueMetaData());
  }

  /**
   * How a row group's statistics in the footer differ from the manifest's, or null. Both come from
   * the same writer, so they differ only if the manifest names another file (another segment of the
   * column with the same shape) or was edited. Compared only where the footer has them.
   */
  private static String statsProblem(
      ColumnType type, Statistics<?> footer, RowGroupStats manifest) {
    if (footer == null || footer.isEmpty()) {
      return null;
    }
    if (footer.isNumNullsSet() && footer.getNumNulls() != manifest.nulls()) {
      return "counts " + footer.getNumNulls() + " nulls, the manifest says " + manifest.nulls();
    }
    if (!footer.hasNonNullValue() || manifest.min() == null) {
      return null;
    }
    RowGroupStats have = ValueCodec.fromParquet(type, footer);
    if (have.min() == null
        || have.max() == null
        || (ValueCodec.same(type, have.min(), manifest.min())
            && ValueCodec.same(type, have.max(), manifest.max()))) {
      return null;
    }
    return "has min "
        + ValueCodec.show(have.min())
        + " and max "
        + ValueCodec.show(have.max())
        + ", the manifest says "
        + ValueCodec.show(manifest.min())
        + " and "
        + ValueCodec.show(manifest.max());
  }
}
