package io.mosaic.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One experiment's CSV: a header and rows; doubles written with 4 decimals, Locale.ROOT. */
public final class CsvFile {
  private final String header;
  private final List<String> rows = new ArrayList<>();

  public CsvFile(String... columns) {
    this.header = String.join(",", columns);
  }

  public CsvFile row(Object... values) {
    List<String> cells = new ArrayList<>();
    for (Object v : values) {
      cells.add(
          v instanceof Double d
              ? String.format(Locale.ROOT, "%.4f", d)
              : String.valueOf(v).replace(',', ';'));
    }
    rows.add(String.join(",", cells));
    return this;
  }

  public void write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, header + "\n" + String.join("\n", rows) + "\n");
  }
}
