package io.mosaic.spark;

import io.mosaic.scan.ScanRequest;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A split of core's {@link io.mosaic.scan.ScanPlan} for one task: the table version the plan was
 * made on, the request that executes the split ({@link io.mosaic.scan.ScanPlan#request}) and the
 * hosts holding its bytes ({@link io.mosaic.scan.ScanPlan.Split#hosts}), which Spark prefers for
 * the task (docs/distributed-storage.md, "Locality").
 *
 * @param rowIdColumn where the batches carry the row id a DELETE, UPDATE or MERGE reads, or -1
 */
record MosaicInputPartition(
    MosaicOptions options, long version, ScanRequest request, List<String> hosts, int rowIdColumn)
    implements InputPartition {
  MosaicInputPartition {
    hosts = List.copyOf(hosts);
  }

  @Override
  public String[] preferredLocations() {
    return hosts.toArray(String[]::new);
  }
}
