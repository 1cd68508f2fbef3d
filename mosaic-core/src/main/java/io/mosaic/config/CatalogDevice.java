package io.mosaic.config;

import java.util.Optional;

/**
 * A device one could buy, for budget mode (paper Section 3.4): no path and no capacity, but a
 * published sequential read throughput, a price per GB and the source both come from.
 *
 * @param cold present for a cold storage device (a CSD: disk groups and a group switch, Skipper
 *     Section 2.2), written as in devices.toml
 */
public record CatalogDevice(
    String id,
    String name,
    Bandwidth read,
    Latency seek,
    int threads,
    Codec codec,
    Cost costPerGb,
    String source,
    Optional<ColdSpec> cold) {
  /** A warm device. */
  public CatalogDevice(
      String id,
      String name,
      Bandwidth read,
      Latency seek,
      int threads,
      Codec codec,
      Cost costPerGb,
      String source) {
    this(id, name, read, seek, threads, codec, costPerGb, source, Optional.empty());
  }

  public CatalogDevice {
    java.util.Objects.requireNonNull(cold, "cold");
  }
}
