package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options every table command shares: the device pool and the table's location. */
final class TableOptions {
  @Mixin PoolOption poolOption;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "DIR|URI",
      converter = MosaicCli.Location.class,
      description =
          "The table's root directory (normally on the metadata device), or its URI on HDFS"
              + " (hdfs://nn:8020/warehouse/orders).")
  String table;

  DevicePool pool() {
    return poolOption.load();
  }

  MosaicTable open() {
    return MosaicTable.open(table, pool());
  }
}
