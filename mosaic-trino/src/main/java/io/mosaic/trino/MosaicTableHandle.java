package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;
import java.util.List;

/**
 * A table as a query sees it: the manifest version pinned when the query resolved the name (all its
 * splits read that version), the constraint pushed down for row-group skipping, and the columns the
 * scan reads ({@code null} until Trino has pruned them), which the trace records. A handle of a
 * time-travel read ({@code FOR VERSION AS OF}, {@code FOR TIMESTAMP AS OF}) names the version asked
 * for and is read-only.
 */
public record MosaicTableHandle(
    @JsonProperty("schema") String schema,
    @JsonProperty("table") String table,
    @JsonProperty("version") long version,
    @JsonProperty("constraint") TupleDomain<MosaicColumnHandle> constraint,
    @JsonProperty("projection") List<String> projection,
    @JsonProperty("timeTravel") boolean timeTravel)
    implements ConnectorTableHandle {

  @JsonIgnore
  SchemaTableName name() {
    return new SchemaTableName(schema, table);
  }

  MosaicTableHandle withConstraint(TupleDomain<MosaicColumnHandle> c) {
    return new MosaicTableHandle(schema, table, version, c, projection, timeTravel);
  }

  MosaicTableHandle withProjection(List<String> columns) {
    return new MosaicTableHandle(schema, table, version, constraint, columns, timeTravel);
  }

  @Override
  public String toString() {
    return schema + "." + table + "@v" + version + (constraint.isAll() ? "" : " " + constraint);
  }
}
