package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.mosaic.scan.ScanRequest;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;

/**
 * A split of core's {@link io.mosaic.scan.ScanPlan}: the request that executes it ({@link
 * io.mosaic.scan.ScanPlan#request}: its row groups of one table version, the query's columns and
 * constraint, and the plan's scan id, under which the worker's scan records what it read), shipped
 * to the worker serialized as Spark ships it in its input partition. Any worker can read it
 * (devices are shared paths), so Trino spreads splits over the cluster. Its weight is its planned
 * bytes over the target split size (at least the catalog's minimum), so Trino's scheduler gives a
 * node more small splits than large ones.
 */
public record MosaicSplit(
    @JsonProperty("request") byte[] planned,
    @JsonProperty("bytes") long bytes,
    @JsonProperty("weight") SplitWeight weight)
    implements ConnectorSplit {

  static MosaicSplit of(ScanRequest request, long bytes, SplitWeight weight) {
    return new MosaicSplit(CoreObjects.bytes(request), bytes, weight);
  }

  /** The plan's request for this split, as the coordinator made it. */
  ScanRequest request() {
    return CoreObjects.read(planned, ScanRequest.class, "split");
  }

  @Override
  public SplitWeight getSplitWeight() {
    return weight;
  }

  @Override
  public long getRetainedSizeInBytes() {
    return 64 + planned.length + weight.getRetainedSizeInBytes();
  }
}
