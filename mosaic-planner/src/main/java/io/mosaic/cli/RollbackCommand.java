package io.mosaic.cli;

import io.mosaic.format.Manifest;
import io.mosaic.table.MosaicTable;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mosaic rollback}: publishes an earlier version's content as the newest version. */
@Command(
    name = "rollback",
    mixinStandardHelpOptions = true,
    description = {
      "Make an earlier version the table's content again: its manifest is published as a new"
          + " version, numbered after the newest manifest file. Nothing is deleted: a damaged"
          + " newest manifest stays behind as an older version (gc later moves it to"
          + " _manifests/_damaged/).",
      "The version must still exist (gc keeps only the latest and the pinned versions)."
    })
final class RollbackCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "VERSION",
      description = "The version whose content becomes the newest.")
  long to;

  @Override
  public Integer call() {
    MosaicTable table = options.open();
    Manifest m = table.rollback(to);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "rolled table %s back to v%d: published its content as v%d (%,d rows)%n",
        table.name(), to, m.version(), m.rowCount());
    return 0;
  }
}
