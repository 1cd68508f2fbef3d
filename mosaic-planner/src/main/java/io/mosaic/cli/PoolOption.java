package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --devices FILE}: the installed pool, for every command that works on one. */
final class PoolOption {
  @Option(
      names = "--devices",
      required = true,
      paramLabel = "FILE",
      description = "The pool's devices.toml.")
  Path devices;

  DevicePool load() {
    return DevicePool.load(devices);
  }
}
