package io.mosaic.cli;

import io.mosaic.format.Manifest;
import io.mosaic.format.StoredColumn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a column lives, as {@code mosaic table} and the demo report show it: its device, or, where
 * its row ranges lie on more than one device (docs/row-ranges.md), each device with the row groups
 * it holds ({@code hdd 0:6}, {@code nvme 6:8}: {@link StoredColumn#rowGroups}, the {@code
 * row_groups} of the placement views).
 *
 * @param rowGroups null where the column lies wholly on {@code device}
 */
record ColumnPart(String device, String rowGroups) {
  /** Each column of {@code m} with segments, in schema order, and its parts. */
  static Map<String, List<ColumnPart>> of(Manifest m) {
    Map<String, List<StoredColumn>> stored = new LinkedHashMap<>();
    for (StoredColumn s : m.storedColumns()) {
      stored.computeIfAbsent(s.column(), c -> new ArrayList<>()).add(s);
    }
    Map<String, List<ColumnPart>> result = new LinkedHashMap<>();
    stored.forEach(
        (column, parts) -> {
          boolean split = parts.stream().map(StoredColumn::device).distinct().count() > 1;
          result.put(
              column,
              split
                  ? parts.stream().map(p -> new ColumnPart(p.device(), p.rowGroups())).toList()
                  : List.of(new ColumnPart(parts.get(0).device(), null)));
        });
    return result;
  }

  /** The parts as one cell: {@code hdd}, or {@code hdd 0:6, nvme 6:8}. */
  static String describe(List<ColumnPart> parts) {
    return parts.isEmpty() ? "-" : String.join(", ", parts.stream().map(Object::toString).toList());
  }

  @Override
  public String toString() {
    return rowGroups == null ? device : device + " " + rowGroups;
  }
}
