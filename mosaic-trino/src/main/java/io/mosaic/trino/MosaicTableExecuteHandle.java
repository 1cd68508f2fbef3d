package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableExecuteHandle;
import io.trino.spi.connector.SchemaTableName;

/**
 * A table procedure of {@code ALTER TABLE ... EXECUTE} on one table: only {@code optimize}
 * (docs/trino.md, "Maintenance"), run on the coordinator.
 */
public record MosaicTableExecuteHandle(
    @JsonProperty("schema") String schema,
    @JsonProperty("table") String table,
    @JsonProperty("procedure") String procedure)
    implements ConnectorTableExecuteHandle {
  /** The procedure's name as registered, and as {@code EXECUTE} names it in any case. */
  public static final String OPTIMIZE = "OPTIMIZE";

  SchemaTableName name() {
    return new SchemaTableName(schema, table);
  }
}
