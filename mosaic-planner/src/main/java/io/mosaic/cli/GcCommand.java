package io.mosaic.cli;

import io.mosaic.config.ByteSize;
import io.mosaic.maintenance.GarbageCollector;
import io.mosaic.table.MosaicTable;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mosaic gc}: removes old versions and files nothing refers to. */
@Command(
    name = "gc",
    mixinStandardHelpOptions = true,
    description = {
      "Remove table versions other than the latest and the pinned ones, and segment files no kept"
          + " version refers to (left by migrations, failed jobs or crashes).",
      "Files of running writers, and files younger than --grace, are kept.",
      "gc deletes nothing, and says why, when a kept version names a device the pool does not have,"
          + " a device directory is not the one its marker recorded, or the table root is a copy"
          + " of another (see docs/format.md; copy tables with `mosaic clone`)."
    })
final class GcCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(
      names = "--grace",
      defaultValue = "PT1H",
      paramLabel = "DURATION",
      description =
          "Keep unreferenced files younger than this (ISO-8601, default ${DEFAULT-VALUE}: a job's"
              + " tasks may have written files its driver has not committed yet).")
  Duration grace;

  @Override
  public Integer call() {
    MosaicTable table = options.open();
    GarbageCollector.Report report = new GarbageCollector(table).collect(grace);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "gc of table %s: removed %d old versions and %d files (%s)%n",
        table.name(), report.manifests(), report.files(), ByteSize.ofBytes(report.totalBytes()));
    report.bytesFreed().forEach((d, b) -> out.printf("  %s: %s freed%n", d, ByteSize.ofBytes(b)));
    return 0;
  }
}
