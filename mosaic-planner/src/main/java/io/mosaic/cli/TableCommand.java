package io.mosaic.cli;

import io.mosaic.config.ByteSize;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.format.TableProperties;
import io.mosaic.maintenance.TableSorter;
import io.mosaic.table.MosaicTable;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code mosaic table}: a table's latest version and where each column lives. */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    description =
        "Show a table's latest version: rows, row groups, and column -> device placement.")
final class TableCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TableOptions options;

  @Override
  public Integer call() {
    MosaicTable table = options.open();
    Manifest m = table.latest();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "table %s v%d (%s): %,d rows in %d row groups%s, versions kept: %s%n",
        table.name(),
        m.version(),
        m.operation(),
        m.liveRowCount(),
        m.rowGroups().size(),
        m.liveRowCount() == m.rowCount()
            ? ""
            : String.format(" (and %,d deleted, until optimize)", m.rowCount() - m.liveRowCount()),
        table.versions());
    String clustering = m.properties().get(TableProperties.CLUSTERING);
    if (clustering != null) {
      // Recorded by a re-sort (docs/physical-design.md); rows appended since are not in order.
      out.printf(
          "clustered by %s (%s)%n",
          clustering,
          TableSorter.sortedBy(m, clustering)
              ? "row groups in its order"
              : "rows appended since the re-sort are not in its order");
    }
    TextTable placement =
        new TextTable("column", "type", "device", "codec", "segments", "stored", "raw");
    Map<String, List<ColumnPart>> parts = ColumnPart.of(m);
    for (ColumnSpec c : m.schema().columns()) {
      Set<String> codecs = new LinkedHashSet<>();
      long stored = 0;
      long raw = 0;
      for (SegmentEntry s : m.segmentsOf(c.name())) {
        codecs.add(s.codec().configName());
        stored += s.fileBytes();
        raw += s.uncompressedBytes();
      }
      placement.row(
          c.name(),
          c.type() + (c.nullable() ? "" : " not null"),
          ColumnPart.describe(parts.getOrDefault(c.name(), List.of())),
          codecs.isEmpty() ? "-" : String.join(",", codecs),
          Integer.toString(m.segmentsOf(c.name()).size()),
          ByteSize.ofBytes(stored).toString(),
          ByteSize.ofBytes(raw).toString());
    }
    out.print(placement.render());
    return 0;
  }
}
