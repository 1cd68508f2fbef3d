package io.mosaic.config;

import java.util.Optional;

/**
 * A device one could buy, for budget mode (paper Section 3.4): no path and no capacity, but a
 * published sequential read throughput, a price per GB and the source both come from.
 *
 * @param read the device's read rate; for an object store, the rate per stream times {@code
 *     threads}, the streams read at once ({@code stream} in the catalogue)
 * @param seek the wait Eq. 2 charges once per column chunk read: the time before a read's first
 *     byte; for an object store ({@code stream}), a GET's first byte over {@code threads}, since
 *     its threads' GETs wait side by side (docs/cost-model.md, "First bytes that overlap")
 * @param costPerGb the price per GB: paid once (the paper's Table 1), or per month when {@code
 *     monthly}
 * @param cold present for a cold storage device (a CSD: disk groups and a group switch, Skipper
 *     Section 2.2), written as in devices.toml
 * @param monthly whether the catalogue prices the device per GB-month ({@code cost_per_gb_month}):
 *     a budget for it is money per month (docs/cost-model.md, "Money per month")
 * @param access prices of requests and retrieval, per month's reads; {@link AccessPrice#NONE} but
 *     for object stores
 * @param link the link the device shares with others to the host ({@code link = "network"} and a
 *     {@code [[link]]} table), whose rate bounds what a scan reads from all of them together
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
    Optional<ColdSpec> cold,
    boolean monthly,
    AccessPrice access,
    Optional<Link> link) {
  /** A device with its own path to the host: no link shared with other devices. */
  public CatalogDevice(
      String id,
      String name,
      Bandwidth read,
      Latency seek,
      int threads,
      Codec codec,
      Cost costPerGb,
      String source,
      Optional<ColdSpec> cold,
      boolean monthly,
      AccessPrice access) {
    this(
        id,
        name,
        read,
        seek,
        threads,
        codec,
        costPerGb,
        source,
        cold,
        monthly,
        access,
        Optional.empty());
  }

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

  /** A device bought once (the paper's Table 1), warm or cold. */
  public CatalogDevice(
      String id,
      String name,
      Bandwidth read,
      Latency seek,
      int threads,
      Codec codec,
      Cost costPerGb,
      String source,
      Optional<ColdSpec> cold) {
    this(id, name, read, seek, threads, codec, costPerGb, source, cold, false, AccessPrice.NONE);
  }

  public CatalogDevice {
    java.util.Objects.requireNonNull(cold, "cold");
    java.util.Objects.requireNonNull(access, "access");
    java.util.Objects.requireNonNull(link, "link");
    if (!monthly && !access.free()) {
      throw io.mosaic.MosaicException.invalid(
          "device '"
              + id
              + "': prices per request and per GB retrieved are billed per month; price its"
              + " storage per GB-month too");
    }
  }
}
