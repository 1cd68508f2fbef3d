package io.mosaic.trino;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.mosaic.scan.ScanRequest;
import io.trino.spi.HostAddress;
import io.trino.spi.SplitWeight;
import io.trino.spi.connector.ConnectorSplit;
import java.util.List;

/**
 * A split of core's {@link io.mosaic.scan.ScanPlan}: the request that executes it ({@link
 * io.mosaic.scan.ScanPlan#request}: its row groups of one table version, the query's columns and
 * constraint, and the plan's scan id, under which the worker's scan records what it read), shipped
 * to the worker serialized as Spark ships it in its input partition. Any worker can read it
 * (devices are shared paths or a shared storage), so the split is remotely accessible and its
 * addresses, the hosts holding its bytes on HDFS ({@link io.mosaic.scan.ScanPlan.Split#hosts}), are
 * a preference: Trino's scheduler assigns it among the workers at those hosts when any runs there
 * ({@code node-scheduler.optimized-local-scheduling}, on by default), else among all workers
 * (docs/distributed-storage.md, "Locality"). Its weight is its planned bytes over the target split
 * size (at least the catalog's minimum), so Trino's scheduler gives a node more small splits than
 * large ones.
 */
public record MosaicSplit(
    @JsonProperty("request") byte[] planned,
    @JsonProperty("bytes") long bytes,
    @JsonProperty("weight") SplitWeight weight,
    @JsonProperty("addresses") List<HostAddress> addresses)
    implements ConnectorSplit {

  public MosaicSplit {
    addresses = List.copyOf(addresses);
  }

  static MosaicSplit of(ScanRequest request, long bytes, SplitWeight weight, List<String> hosts) {
    return new MosaicSplit(
        CoreObjects.bytes(request),
        bytes,
        weight,
        hosts.stream().map(HostAddress::fromString).toList());
  }

  /** The plan's request for this split, as the coordinator made it. */
  ScanRequest request() {
    return CoreObjects.read(planned, ScanRequest.class, "split");
  }

  @Override
  public boolean isRemotelyAccessible() {
    return true;
  }

  @Override
  public List<HostAddress> getAddresses() {
    return addresses;
  }

  @Override
  public SplitWeight getSplitWeight() {
    return weight;
  }

  @Override
  public long getRetainedSizeInBytes() {
    return 64
        + planned.length
        + weight.getRetainedSizeInBytes()
        + addresses.stream().mapToLong(HostAddress::getRetainedSizeInBytes).sum();
  }
}
