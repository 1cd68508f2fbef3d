package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

/**
 * A split of core's {@link io.mosaic.scan.ScanPlan}: row groups {@code [fromRowGroup, toRowGroup)}
 * of one table version, and the plan's scan id, under which the worker's scan records what it read.
 * Any worker can read it (devices are shared paths), so Trino spreads splits over the cluster. Its
 * weight is its planned bytes over the target split size (at least the catalog's minimum), so
 * Trino's scheduler gives a node more small splits than large ones.
 */
public record MosaicSplit(
    @JsonProperty("fromRowGroup") int fromRowGroup,
    @JsonProperty("toRowGroup") int toRowGroup,
    @JsonProperty("bytes") long bytes,
    @JsonProperty("scanId") String scanId,
    @JsonProperty("weight") SplitWeight weight)
    implements ConnectorSplit {

  @Override
  public SplitWeight getSplitWeight() {
    return weight;
  }

  @Override
  public long getRetainedSizeInBytes() {
    return 64 + weight.getRetainedSizeInBytes();
  }
}
