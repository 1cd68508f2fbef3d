package io.mosaic.trace;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.TableSchema;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableNotFoundException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A trace's columns under the names they have now (docs/format.md, "Trace"). A record names the
 * columns as the scan saw them; after an ALTER TABLE RENAME COLUMN the placement solver would take
 * those for columns that no longer exist and lose the column's history. Each name is read through
 * the schema in effect when the scan ended (the newest version committed at or before its {@code
 * at}), which gives the column's id, and the id gives today's name; a dropped column's reads are
 * left out. The trace files are never rewritten: a rename is one manifest commit.
 */
public final class TraceColumns {
  private TraceColumns() {}

  /** {@code records} of {@code table} with their columns named as in its latest version. */
  public static List<TraceRecord> current(MosaicTable table, List<TraceRecord> records) {
    if (records.isEmpty()) {
      return records;
    }
    Manifest latest = table.latest();
    Instant oldest = records.stream().map(TraceRecord::at).min(Instant::compareTo).orElseThrow();
    // The schemas of the versions the records can have seen, newest first: down to the one that
    // was current at the oldest record (a trace epoch spans few versions).
    List<Manifest> history = new ArrayList<>();
    List<Long> versions = table.versions();
    for (int i = versions.size() - 1; i >= 0; i--) {
      Manifest m;
      try {
        m = i == versions.size() - 1 ? latest : table.version(versions.get(i));
      } catch (TableNotFoundException e) {
        break; // retired by gc: older records read through the oldest schema kept
      }
      history.add(m);
      if (!m.committedAt().isAfter(oldest)) {
        break;
      }
    }
    if (history.stream().allMatch(m -> m.schema().equals(latest.schema()))) {
      return records; // no schema change since the oldest record: names are today's
    }
    List<TraceRecord> result = new ArrayList<>();
    for (TraceRecord r : records) {
      TableSchema then = schemaAt(history, r.at());
      List<String> columns = new ArrayList<>();
      Set<String> seen = new LinkedHashSet<>();
      for (String name : r.columns()) {
        String now = currentName(then, latest.schema(), name);
        if (now != null && seen.add(now.toLowerCase(Locale.ROOT))) {
          columns.add(now);
        }
      }
      result.add(
          new TraceRecord(
              r.queryId(),
              r.table(),
              columns,
              r.rowGroups(),
              r.bytesPerDevice(),
              r.elapsedMillis(),
              r.at()));
    }
    return result;
  }

  private static TableSchema schemaAt(List<Manifest> history, Instant at) {
    for (Manifest m : history) {
      if (!m.committedAt().isAfter(at)) {
        return m.schema();
      }
    }
    return history.get(history.size() - 1).schema();
  }

  /** {@code name} of schema {@code then} as named in {@code now}; null if dropped or unknown. */
  private static String currentName(TableSchema then, TableSchema now, String name) {
    for (int i = 0; i < then.columns().size(); i++) {
      if (then.columns().get(i).name().equalsIgnoreCase(name)) {
        ColumnSpec c = now.byId(then.ids().get(i));
        return c == null ? null : c.name();
      }
    }
    return null;
  }
}
