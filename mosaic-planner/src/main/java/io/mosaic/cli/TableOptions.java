package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options every table command shares: the device pool and the table's root directory. */
final class TableOptions {
  @Mixin PoolOption poolOption;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "DIR",
      description = "The table's root directory (normally on the metadata device).")
  Path table;

  DevicePool pool() {
    return poolOption.load();
  }

  MosaicTable open() {
    return MosaicTable.open(table, pool());
  }
}
