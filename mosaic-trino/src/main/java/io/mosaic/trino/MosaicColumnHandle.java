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
   * The hidden column a DELETE, UPDATE or MERGE reads to name the rows it changes, core's {@code
   * DeletedRows.rowId} (docs/trino.md, "Row-level changes").
   */
  static final MosaicColumnHandle ROW_ID =
      new MosaicColumnHandle("$row_id", io.trino.spi.type.BigintType.BIGINT, false);

  ColumnMetadata metadata() {
    return ColumnMetadata.builder().setName(name).setType(type).setNullable(nullable).build();
  }
}
