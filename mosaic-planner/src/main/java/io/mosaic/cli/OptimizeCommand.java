package io.mosaic.cli;

import io.mosaic.config.ByteSize;
import io.mosaic.maintenance.TableCompactor;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.OptimizeResult;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mosaic optimize}: compacts the small row groups appends left (docs/operations.md). */
@Command(
    name = "optimize",
    mixinStandardHelpOptions = true,
    description = {
      "Compact a table: rewrite its rows, in their order, into row groups of its row_group_rows,"
          + " each column on the device it is on, and commit them as one version.",
      "A table whose row groups are already as few as its rows need is left alone. A commit by"
          + " another writer during the compaction is kept and the compaction refused: run it"
          + " again. Old segments are deleted by gc once no kept version names them."
    })
final class OptimizeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    MosaicTable table = options.open();
    long start = System.nanoTime();
    OptimizeResult result =
        new MaintenanceExecutor(table.pool(), name -> table)
            .optimize(
                table.location(),
                new TableCompactor.Listener() {
                  private long lastDraw;

                  @Override
                  public void rowGroupRead(int done, int total, long bytes) {
                    long now = System.nanoTime();
                    if (now - lastDraw > 500_000_000L || done == total) {
                      lastDraw = now;
                      err.printf(
                          Locale.ROOT,
                          "optimize: %3d%% (row group %d of %d, %s read) in %.1f s%n",
                          100L * done / total,
                          done,
                          total,
                          ByteSize.ofBytes(bytes),
                          (now - start) / 1e9);
                      err.flush();
                    }
                  }
                });
    out.println(result.summary());
    return 0;
  }
}
