package io.mosaic.spark;

import io.mosaic.scan.Predicate;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/** A split: row groups {@code [from, to)} of one table version, for one task. */
record MosaicInputPartition(
    MosaicOptions options,
    long version,
    List<String> columns,
    Predicate predicate,
    int from,
    int to)
    implements InputPartition {}
