package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorMergeTableHandle;

/**
 * A DELETE, UPDATE or MERGE in progress: the version its scan reads (the base its deletions are
 * of), and the write of its inserted rows.
 */
public record MosaicMergeTableHandle(
    @JsonProperty("table") MosaicTableHandle table, @JsonProperty("write") MosaicWriteHandle write)
    implements ConnectorMergeTableHandle {

  @Override
  public MosaicTableHandle getTableHandle() {
    return table;
  }
}
