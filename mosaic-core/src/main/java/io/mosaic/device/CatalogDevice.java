package io.mosaic.device;

/**
 * A device one could buy, for budget mode (paper Section 3.4): no path and no capacity, but a
 * published sequential read throughput, a price per GB and the source both come from.
 */
public record CatalogDevice(
    String id,
    String name,
    Bandwidth read,
    Latency seek,
    int threads,
    Codec codec,
    Cost costPerGb,
    String source) {}
