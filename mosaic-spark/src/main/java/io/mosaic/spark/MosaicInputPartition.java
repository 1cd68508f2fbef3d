package io.mosaic.spark;

import io.mosaic.scan.ScanRequest;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A split of core's {@link io.mosaic.scan.ScanPlan} for one task: the table version the plan was
 * made on and the request that executes the split ({@link io.mosaic.scan.ScanPlan#request}).
 */
record MosaicInputPartition(MosaicOptions options, long version, ScanRequest request)
    implements InputPartition {}
