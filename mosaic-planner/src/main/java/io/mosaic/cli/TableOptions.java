package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every table command shares: the device pool and the table's root directory. */
final class TableOptions {
  @Option(
      names = "--devices",
      required = true,
      paramLabel = "FILE",
      description = "The pool's devices.toml.")
  Path devices;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "DIR",
      description = "The table's root directory (normally on the metadata device).")
  Path table;

  DevicePool pool() {
    return DevicePool.load(devices);
  }

  MosaicTable open() {
    return MosaicTable.open(table, pool());
  }
}
