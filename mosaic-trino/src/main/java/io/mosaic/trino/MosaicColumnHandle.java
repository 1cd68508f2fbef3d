package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.type.Type;

/** A column of a Mosaic table, with its Trino type. */
public record MosaicColumnHandle(
    @JsonProperty("name") String name,
    @JsonProperty("type") Type type,
    @JsonProperty("nullable") boolean nullable)
    implements ColumnHandle {

  /**
   * The hidden column a DELETE, UPDATE or MERGE reads to name the rows it changes: the row group in
   * the high 32 bits, the position within it in the low ones (docs/trino.md, "Row-level changes").
   */
  static final MosaicColumnHandle ROW_ID =
      new MosaicColumnHandle("$row_id", io.trino.spi.type.BigintType.BIGINT, false);

  static long rowId(int rowGroup, int position) {
    return ((long) rowGroup << 32) | position;
  }

  static int rowGroupOf(long rowId) {
    return (int) (rowId >>> 32);
  }

  static int positionOf(long rowId) {
    return (int) rowId;
  }

  ColumnMetadata metadata() {
    return ColumnMetadata.builder().setName(name).setType(type).setNullable(nullable).build();
  }
}
