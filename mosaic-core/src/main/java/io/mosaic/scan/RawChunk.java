package io.mosaic.scan;

import io.mosaic.format.ColumnSpec;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * One column chunk of one row group as a {@link Scan} in chunk mode ({@link Retriever#chunks})
 * hands it out: its bytes as read from its device, already checked against the chunk checksum the
 * manifest records, not decoded; with what an engine's own Parquet reader needs to decode them.
 *
 * @param column the table column
 * @param descriptor the Parquet column of the segment (types, levels)
 * @param metadata the chunk's entry in the segment footer (codec, offsets, value count, sizes);
 *     {@code bytes} start at its {@code getStartingPos()}
 * @param bytes the chunk, dictionary page and data pages with their headers; the engine must not
 *     change them
 * @param source how errors name the chunk: the segment file, column, table, device and row group
 */
public record RawChunk(
    ColumnSpec column,
    ColumnDescriptor descriptor,
    ColumnChunkMetaData metadata,
    byte[] bytes,
    String source) {}
