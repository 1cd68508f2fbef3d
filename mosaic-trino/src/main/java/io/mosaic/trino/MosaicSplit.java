package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.connector.ConnectorSplit;

/**
 * Row groups {@code [fromRowGroup, toRowGroup)} of one table version: any worker can read them
 * (devices are shared paths), so Trino spreads splits over the cluster.
 */
public record MosaicSplit(
    @JsonProperty("fromRowGroup") int fromRowGroup,
    @JsonProperty("toRowGroup") int toRowGroup,
    @JsonProperty("bytes") long bytes)
    implements ConnectorSplit {

  @Override
  public long getRetainedSizeInBytes() {
    return 64;
  }
}
