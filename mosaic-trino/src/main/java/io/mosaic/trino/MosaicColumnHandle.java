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

  ColumnMetadata metadata() {
    return ColumnMetadata.builder().setName(name).setType(type).setNullable(nullable).build();
  }
}
