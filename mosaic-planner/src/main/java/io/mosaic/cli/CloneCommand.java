package io.mosaic.cli;

import io.mosaic.config.ByteSize;
import io.mosaic.maintenance.TableCloner;
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

/** {@code mosaic clone}: a proper copy of a table, with its own id and segments. */
@Command(
    name = "clone",
    mixinStandardHelpOptions = true,
    description = {
      "Copy a table: the copy gets a new table id, and every segment of the source's latest"
          + " version is copied byte for byte to the same device (checksums verified), in one"
          + " commit. gc of either table never touches the other's files.",
      "Copying a table's directory with cp instead keeps its id and shares its segments; gc,"
          + " migrate and writes refuse such a copy."
    })
final class CloneCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "DIR",
      description = "The new table's root directory (must not hold a table).")
  Path to;

  @Override
  public Integer call() throws IOException {
    MosaicTable source = options.open();
    TableCloner.Result result = TableCloner.cloneTable(source, to, new TableCloner.Listener() {});
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "cloned table %s v%d to %s (%s): %,d rows, %d segments, %s copied; now at version %d%n",
        source.name(),
        result.sourceVersion(),
        result.table().name(),
        result.table().root(),
        result.manifest().rowCount(),
        result.manifest().segments().size(),
        ByteSize.ofBytes(result.bytes()),
        result.manifest().version());
    return 0;
  }
}
