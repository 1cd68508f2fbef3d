package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorInsertTableHandle;
import io.trino.spi.connector.ConnectorOutputTableHandle;
import io.trino.spi.connector.SchemaTableName;
import java.util.List;

/**
 * A CREATE TABLE AS or INSERT in progress: page sinks write segments of these columns (the table's,
 * in order); the coordinator commits all sinks' results in one version.
 */
public record MosaicWriteHandle(
    @JsonProperty("schema") String schema,
    @JsonProperty("table") String table,
    @JsonProperty("columns") List<MosaicColumnHandle> columns)
    implements ConnectorOutputTableHandle, ConnectorInsertTableHandle {

  @JsonIgnore
  SchemaTableName name() {
    return new SchemaTableName(schema, table);
  }
}
