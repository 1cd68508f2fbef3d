package io.mosaic.cli;

import io.mosaic.MosaicException;
import io.mosaic.config.ByteSize;
import io.mosaic.maintenance.Migrator;
import io.mosaic.operations.MaintenanceExecutor;
import io.mosaic.operations.MoveRequest;
import io.mosaic.operations.MoveResult;
import io.mosaic.table.MosaicTable;
import io.mosaic.workload.PlacementFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mosaic migrate}: moves columns to devices online, recompressing per device. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = {
      "Move columns to other devices while readers keep reading: each segment is copied (and"
          + " recompressed with the target device's codec), verified, and committed per column; old"
          + " files go once no reader pins them.",
      "Give the placement with --set COLUMN=DEVICE (repeatable) or --plan FILE (the placement CSV"
          + " `mosaic place --plan` writes). A migration starts a new trace epoch (Section 3.4); the same"
          + " operation as CALL mosaic.system.move_columns (docs/operations.md)."
    })
final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(names = "--set", paramLabel = "COLUMN=DEVICE", description = "Place a column.")
  Map<String, String> set = new LinkedHashMap<>();

  @Option(names = "--plan", paramLabel = "FILE", description = "A placement plan (JSON).")
  Path plan;

  @Option(names = "--dry-run", description = "Print the moves and bytes, change nothing.")
  boolean dryRun;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    MosaicTable table = options.open();
    Map<String, String> placement = new LinkedHashMap<>(set);
    if (plan != null) {
      placement.putAll(readPlan(plan, table.name()));
    }
    if (placement.isEmpty()) {
      throw MosaicException.invalid("nothing to place: give --set COLUMN=DEVICE or --plan FILE");
    }
    MaintenanceExecutor executor = new MaintenanceExecutor(table.pool(), name -> table);
    MoveRequest request = new MoveRequest(table.location(), placement, !dryRun);
    // The dry run first: its listing is what the user sees before anything moves.
    MoveResult planned = executor.move(new MoveRequest(request.table(), placement, false));
    out.print(planned.plan().describe());
    if (dryRun || planned.plan().moves().isEmpty()) {
      return 0;
    }
    ProgressListener progress = new ProgressListener(err, planned.plan());
    MoveResult result = executor.move(request, progress);
    out.printf(
        Locale.ROOT,
        "migrated %d segments of table %s in %.1f s; now at version %d, trace epoch %d%n",
        result.plan().moves().size(),
        table.name(),
        progress.seconds(),
        result.version(),
        result.columns().get(0).traceEpoch());
    return 0;
  }

  /** The plan's columns of this table (a placement CSV, as `mosaic place --plan` writes it). */
  static Map<String, String> readPlan(Path file, String tableName) {
    Map<String, String> result = new LinkedHashMap<>();
    PlacementFile.read(file)
        .deviceOf()
        .forEach(
            (column, device) -> {
              if (column.table().equals(tableName)) {
                result.put(column.column(), device);
              }
            });
    if (result.isEmpty()) {
      throw MosaicException.notFound("plan " + file + " places no column of table " + tableName);
    }
    return result;
  }

  /** Bytes moved per device and an ETA, redrawn on one line. */
  private static final class ProgressListener implements Migrator.Listener {
    private final PrintWriter err;
    private final long total;
    private final Map<String, Long> perDevice = new LinkedHashMap<>();
    private final long start = System.nanoTime();
    private long done;
    private long lastDraw;

    ProgressListener(PrintWriter err, Migrator.Plan plan) {
      this.err = err;
      this.total = Math.max(1, plan.bytesToRead());
    }

    double seconds() {
      return (System.nanoTime() - start) / 1e9;
    }

    @Override
    public void copied(Migrator.Move move, long bytes) {
      done += bytes;
      perDevice.merge(move.toDevice(), bytes, Long::sum);
      long now = System.nanoTime();
      if (now - lastDraw > 500_000_000L) {
        lastDraw = now;
        double rate = done / Math.max(seconds(), 1e-3);
        StringBuilder devices = new StringBuilder();
        perDevice.forEach(
            (d, b) -> devices.append(' ').append(d).append(' ').append(ByteSize.ofBytes(b)));
        err.printf(
            Locale.ROOT,
            "moved %3d%% (%s of %s),%s, ETA %.0f s%n",
            Math.min(100, 100 * done / total),
            ByteSize.ofBytes(done),
            ByteSize.ofBytes(total),
            devices,
            Math.max(0, (total - done) / Math.max(rate, 1)));
        err.flush();
      }
    }

    @Override
    public void committed(String column, long version) {
      err.printf("committed %s (v%d)%n", column, version);
      err.flush();
    }
  }
}
