package io.mosaic.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table for the terminal, columns padded to their widest cell. */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();

  TextTable(String... header) {
    rows.add(header);
  }

  void row(String... cells) {
    rows.add(cells);
  }

  String render() {
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < columns; c++) {
        String cell = rows.get(r)[c];
        sb.append(cell).append(" ".repeat(width[c] - cell.length()));
        sb.append(c + 1 < columns ? "  " : "");
      }
      sb.setLength(sb.toString().stripTrailing().length());
      sb.append('\n');
      if (r == 0) {
        for (int c = 0; c < columns; c++) {
          sb.append("-".repeat(width[c])).append(c + 1 < columns ? "  " : "");
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }
}
