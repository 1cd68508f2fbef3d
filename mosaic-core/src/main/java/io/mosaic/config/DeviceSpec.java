package io.mosaic.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One {@code [[device]]} entry of {@code devices.toml} (paper Figure 3a): a mount point with its
 * capacity, reader thread limit, codec and price.
 *
 * @param seek the device's seek time as configured; calibration measures it too
 * @param metadata whether table metadata (manifests, traces, the device model) lives here
 * @param emulation present when the directory emulates a slower device
 * @param cold present for a cold storage device (disk groups, one spun up at a time); its directory
 *     is emulated by the cold table, never by {@code emulation}
 */
public record DeviceSpec(
    String id,
    String name,
    Path path,
    ByteSize capacity,
    int threads,
    Codec codec,
    Cost costPerGb,
    Latency seek,
    boolean metadata,
    Optional<Emulation> emulation,
    Optional<ColdSpec> cold) {

  /** A warm device: every device but a cold one. */
  public DeviceSpec(
      String id,
      String name,
      Path path,
      ByteSize capacity,
      int threads,
      Codec codec,
      Cost costPerGb,
      Latency seek,
      boolean metadata,
      Optional<Emulation> emulation) {
    this(
        id,
        name,
        path,
        capacity,
        threads,
        codec,
        costPerGb,
        seek,
        metadata,
        emulation,
        Optional.empty());
  }
}
