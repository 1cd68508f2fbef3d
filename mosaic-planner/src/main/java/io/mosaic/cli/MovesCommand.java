package io.mosaic.cli;

import io.mosaic.device.DevicePool;
import io.mosaic.operations.MaintainRequest;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code mosaic moves}: the progress view of a table's transformation (docs/physical-design.md,
 * "The progress view"): its steps with their bytes done and left, and the transformation's bytes
 * done and left, measured rate, ETA and predicted workload time now. The same rows as {@code mosaic
 * maintain --status}, Spark's {@code moves} procedure and Trino's {@code $moves} table; it reads
 * the queue kept with the table, so it shows a run in another process.
 */
@Command(
    name = "moves",
    mixinStandardHelpOptions = true,
    description = {
      "Show the progress of the table's transformation: each step's bytes done and left, and the"
          + " bytes done and left, measured rate, ETA and predicted workload time now (the same as"
          + " maintain --status)."
    })
final class MovesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin PoolOption poolOption;

  @Option(names = "--table", required = true, paramLabel = "DIR", description = "The table.")
  Path table;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    DevicePool pool = poolOption.load();
    MaintenanceExecutor executor =
        new MaintenanceExecutor(pool, t -> MosaicTable.open(Path.of(t), pool));
    MaintainRequest request =
        MaintainRequest.parse(
            table.toString(), "status", null, null, null, null, null, null, null, null);
    MaintainCommand.print(
        out,
        executor.maintain(request, new Listener(), false),
        false,
        MaintainCommand.schedule(table, pool));
    return 0;
  }

  private static final class Listener implements io.mosaic.design.DesignExecutor.Listener {}
}
