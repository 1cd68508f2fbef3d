package io.mosaic.spark;

import io.mosaic.operations.VersionHistory;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * {@code CALL mosaic.system.versions(table => 'ns.t')} and {@code CALL mosaic.system.history(table
 * => 'ns.t')}: the versions time travel can read ({@code VERSION AS OF}), the library's {@link
 * VersionHistory}, the same rows as Trino's {@code "t$versions"} and {@code "t$history"}.
 */
final class VersionsProcedure extends MosaicProcedure {
  static final String NAME = "versions";
  static final String HISTORY = "history";

  private final boolean history;

  VersionsProcedure(MosaicCatalog catalog, boolean history) {
    super(
        catalog,
        history ? HISTORY : NAME,
        history
            ? "When each readable version of a Mosaic table became current, and its parent"
            : "The readable versions of a Mosaic table: commit time, operation, rows",
        history ? VersionHistory.HISTORY_COLUMNS : VersionHistory.VERSION_COLUMNS);
    this.history = history;
  }

  @Override
  List<InternalRow> run(InternalRow args) {
    VersionHistory h = VersionHistory.of(catalog.openTable(string(args, 0)));
    return rows(history ? h.historyRows() : h.versionRows());
  }
}
