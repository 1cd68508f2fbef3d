package io.mosaic.cli;

import io.mosaic.config.ByteSize;
import io.mosaic.maintenance.TableCloner;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
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
          + " commit. gc of either table never touches the other's files. The new root may be"
          + " local or on HDFS, whatever the source's is: this moves a table's root there.",
      "Copying a table's directory with cp instead keeps its id and shares its segments; gc,"
          + " migrate and writes refuse such a copy."
    })
final class CloneCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "DIR|URI",
      converter = MosaicCli.Location.class,
      description =
          "The new table's root directory, or its URI on HDFS (hdfs://nn:8020/warehouse/orders):"
              + " must not hold a table, and a folder on HDFS must be new or empty.")
  String to;

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
        result.table().location(),
        result.manifest().rowCount(),
        result.manifest().segments().size(),
        ByteSize.ofBytes(result.bytes()),
        result.manifest().version());
    return 0;
  }
}
