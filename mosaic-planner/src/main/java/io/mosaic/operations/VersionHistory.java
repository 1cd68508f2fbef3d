package io.mosaic.operations;

import static io.mosaic.operations.ResultColumn.Type.BOOLEAN;
import static io.mosaic.operations.ResultColumn.Type.INT;
import static io.mosaic.operations.ResultColumn.Type.LONG;
import static io.mosaic.operations.ResultColumn.Type.STRING;
import static io.mosaic.operations.ResultColumn.Type.TIMESTAMP;

import io.mosaic.format.Manifest;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TableNotFoundException;
import java.util.ArrayList;
import java.util.List;

/**
 * The versions of a table a reader can still travel to (docs/format.md, "Time travel"): Trino's
 * {@code "t$versions"} and {@code "t$history"}, Spark's {@code CALL versions} and {@code CALL
 * history}. Versions are linear (a rollback publishes an old content as a new version), so each
 * version's parent is the one before it and every version is an ancestor of the latest.
 *
 * @param versions the readable versions' manifests, oldest first
 */
public record VersionHistory(String table, List<Manifest> versions) {
  /** {@code $versions}: one row per readable version, as Iceberg's {@code $snapshots}. */
  public static final List<ResultColumn> VERSION_COLUMNS =
      List.of(
          ResultColumn.of("version", LONG),
          ResultColumn.of("committed_at", TIMESTAMP),
          ResultColumn.nullable("parent", LONG),
          ResultColumn.of("operation", STRING),
          ResultColumn.of("row_count", LONG),
          ResultColumn.of("row_groups", INT),
          ResultColumn.of("segments", INT));

  /** {@code $history}: Iceberg's {@code $history} columns, one row per readable version. */
  public static final List<ResultColumn> HISTORY_COLUMNS =
      List.of(
          ResultColumn.of("made_current_at", TIMESTAMP),
          ResultColumn.of("version", LONG),
          ResultColumn.nullable("parent", LONG),
          ResultColumn.of("is_current_ancestor", BOOLEAN));

  public VersionHistory {
    versions = List.copyOf(versions);
  }

  /** The versions of {@code table} readable now (one gc retires meanwhile is left out). */
  public static VersionHistory of(MosaicTable table) {
    List<Manifest> manifests = new ArrayList<>();
    for (long v : table.versions()) {
      try {
        manifests.add(table.version(v));
      } catch (TableNotFoundException e) {
        // retired since the listing
      }
    }
    return new VersionHistory(table.name(), manifests);
  }

  public List<List<Object>> versionRows() {
    List<List<Object>> rows = new ArrayList<>();
    for (Manifest m : versions) {
      List<Object> row = new ArrayList<>();
      row.add(m.version());
      row.add(m.committedAt());
      row.add(parent(m));
      row.add(m.operation());
      row.add(m.liveRowCount()); // the rows a scan of the version returns
      row.add(m.rowGroups().size());
      row.add(m.segments().size());
      rows.add(row);
    }
    return rows;
  }

  public List<List<Object>> historyRows() {
    List<List<Object>> rows = new ArrayList<>();
    for (Manifest m : versions) {
      List<Object> row = new ArrayList<>();
      row.add(m.committedAt());
      row.add(m.version());
      row.add(parent(m));
      row.add(true); // linear history: every version is an ancestor of the latest
      rows.add(row);
    }
    return rows;
  }

  private static Long parent(Manifest m) {
    return m.version() > 1 ? m.version() - 1 : null;
  }
}
