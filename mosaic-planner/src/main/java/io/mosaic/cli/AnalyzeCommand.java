package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import io.mosaic.operations.AnalyzeResult;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.table.MosaicTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mosaic analyze}: the statistics writers collect, for row groups that lack them. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Add the column statistics writers collect (distinct-value sketches, data sizes of strings)"
          + " to the row groups that lack them: tables written before writers collected them, and"
          + " chunks `mosaic import` copied byte for byte. Reads only those segments and commits"
          + " one new version; a table that has them all is left as it is.",
      "Trino's ANALYZE and Spark's CALL mosaic.system.analyze do the same (docs/operations.md)."
    })
final class AnalyzeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Override
  public Integer call() {
    DevicePool pool = options.pool();
    AnalyzeResult r =
        new MaintenanceExecutor(pool, t -> MosaicTable.open(t, pool)).analyze(options.table);
    PrintWriter out = spec.commandLine().getOut();
    if (r.version() == null) {
      out.printf(
          "analyze of table %s: every row group has its statistics; nothing read, nothing"
              + " committed%n",
          r.table());
    } else {
      out.printf(
          "analyze of table %s: read %d segments (%,d row groups), committed version %d%n",
          r.table(), r.segmentsRead(), r.rowGroupsAnalyzed(), r.version());
    }
    return 0;
  }
}
