package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.device.DevicePool;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.ParquetImporter;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code mosaic import}: existing Parquet files (e.g. written by Spark) into a table. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Import Parquet files into a Mosaic table, in one commit. Column chunks whose codec is already"
          + " the target device's are copied byte for byte; the others are re-encoded.",
      "A directory imports every *.parquet file in it (as Spark writes a table)."
    })
final class ImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(
      names = "--create",
      description = "Create the table (schema from the first file) if it does not exist.")
  boolean create;

  @Option(
      names = "--device",
      paramLabel = "ID",
      description = "With --create: the device new columns go to (default: the first device).")
  String device;

  @Parameters(arity = "1..*", paramLabel = "PARQUET", description = "Parquet files or directories.")
  List<Path> inputs;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<Path> files = expand(inputs);
    DevicePool pool = options.pool();
    MosaicTable table;
    if (!MosaicTable.exists(options.table, pool) && create) {
      table =
          MosaicTable.create(
              options.table,
              pool,
              ParquetImporter.schemaOf(files.get(0)),
              device == null ? Map.of() : Map.of(TableProperties.DEFAULT_DEVICE, device));
      err.println("created table " + table.name() + " at " + table.location());
    } else {
      table = MosaicTable.open(options.table, pool);
    }
    ParquetImporter.Summary summary =
        new ParquetImporter(table)
            .importFiles(
                files,
                new ParquetImporter.Listener() {
                  @Override
                  public void column(Path file, String column, boolean copied, long bytes) {
                    err.printf(
                        "%s: %-24s %s %s%n",
                        file.getFileName(),
                        column,
                        copied ? "copied    " : "re-encoded",
                        ByteSize.ofBytes(bytes));
                    err.flush();
                  }
                });
    out.printf(
        "imported %,d rows from %d files into %s v%d: %d column chunks copied, %d re-encoded%n",
        summary.rows(),
        files.size(),
        table.name(),
        summary.manifest().version(),
        summary.copiedChunks(),
        summary.reencodedChunks());
    return 0;
  }

  private static List<Path> expand(List<Path> inputs) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path in : inputs) {
      if (Files.isDirectory(in)) {
        try (Stream<Path> list = Files.list(in)) {
          list.filter(p -> p.getFileName().toString().endsWith(".parquet"))
              .sorted()
              .forEach(files::add);
        }
      } else if (Files.isRegularFile(in)) {
        files.add(in);
      } else {
        throw MosaicException.notFound("no such Parquet file or directory: " + in);
      }
    }
    if (files.isEmpty()) {
      throw MosaicException.notFound("no *.parquet files in " + inputs);
    }
    return files;
  }
}
