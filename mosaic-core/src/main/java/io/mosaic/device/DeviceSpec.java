package io.mosaic.device;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One {@code [[device]]} entry of {@code devices.toml} (paper Figure 3a): a mount point with its
 * capacity, reader thread limit, codec and price.
 *
 * @param seek the device's seek time as configured; calibration measures it too
 * @param metadata whether table metadata (manifests, traces, the device model) lives here
 * @param emulation present when the directory emulates a slower device
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
    Optional<Emulation> emulation) {}
