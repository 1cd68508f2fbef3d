package io.mosaic.cli;

import io.mosaic.config.ByteSize;
import io.mosaic.table.MosaicTable;
import io.mosaic.trace.TraceLog;
import io.mosaic.trace.TraceRecord;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mosaic trace}: the distinct scans recorded for a table, with their weights. */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = {
      "Show the scans recorded in a table's trace for the current epoch (or --epoch N): each"
          + " distinct column set with its weight (how many scans read it) and the bytes read.",
      "--new-epoch starts a new epoch; placement starts one itself (paper Section 3.4)."
    })
final class TraceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Option(names = "--epoch", paramLabel = "N", description = "Epoch to show (default: current).")
  Integer epoch;

  @Option(names = "--new-epoch", description = "Start a new epoch and exit.")
  boolean newEpoch;

  /** One distinct scan: its column set, how often it ran, and what it read. */
  private record Distinct(List<String> columns, int weight, long bytes, long millis) {}

  @Override
  public Integer call() {
    MosaicTable table = options.open();
    TraceLog log = TraceLog.of(table);
    PrintWriter out = spec.commandLine().getOut();
    if (newEpoch) {
      out.println("table " + table.name() + ": trace epoch " + log.newEpoch() + " started");
      return 0;
    }
    int shown = epoch != null ? epoch : log.epoch();
    List<TraceRecord> records = log.read(shown);
    Map<List<String>, Distinct> distinct = new LinkedHashMap<>();
    for (TraceRecord r : records) {
      List<String> columns = new ArrayList<>(new TreeSet<>(r.columns()));
      distinct.merge(
          columns,
          new Distinct(columns, 1, r.bytes(), r.elapsedMillis()),
          (a, b) -> new Distinct(a.columns, a.weight + 1, a.bytes + b.bytes, a.millis + b.millis));
    }
    out.printf(
        "table %s, trace epoch %d: %d scans, %d distinct%n",
        table.name(), shown, records.size(), distinct.size());
    TextTable t = new TextTable("weight", "bytes read", "time", "columns");
    distinct.values().stream()
        .sorted((a, b) -> Integer.compare(b.weight, a.weight))
        .forEach(
            d ->
                t.row(
                    Integer.toString(d.weight),
                    ByteSize.ofBytes(d.bytes).toString(),
                    d.millis + " ms",
                    String.join(",", d.columns)));
    out.print(t.render());
    return 0;
  }
}
