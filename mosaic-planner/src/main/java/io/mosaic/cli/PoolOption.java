package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --devices FILE}: the installed pool, for every command that works on one, with the Hadoop
 * configuration of its devices on HDFS ({@link HadoopOptions}).
 */
final class PoolOption {
  @Option(
      names = "--devices",
      required = true,
      paramLabel = "FILE",
      description = "The pool's devices.toml.")
  Path devices;

  @Mixin HadoopOptions hadoop;

  DevicePool load() {
    return hadoop.load(devices);
  }
}
