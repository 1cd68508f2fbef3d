package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.table.MosaicTable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one scan reads, decided once when it opens, as DuckDB's {@code TableScanState} and
 * trino-parquet's {@code ParquetReader} plan a scan's I/O once and then only read and decode: the
 * pinned version, the request, its columns resolved in the schema, the row groups of the request's
 * range its predicate's statistics cannot rule out, and that predicate bound once. The reading side
 * ({@link ReadAhead}, {@link SharedReads}) takes it instead of keeping its own copies.
 *
 * @param groups the table row groups to read, in order
 * @param skipped row groups of the request's range the predicate ruled out
 * @param filter the request's predicate, bound to {@code manifest}
 * @param narrowing the request's narrowing predicate as it stands (null: the request has none)
 */
record ScanState(
    Retriever retriever,
    MosaicTable table,
    Manifest manifest,
    ScanRequest request,
    List<ColumnSpec> columns,
    List<Integer> groups,
    int skipped,
    RowGroupFilter filter,
    Narrowing narrowing) {

  /**
   * Resolves the request's columns, refuses a manifest placing one on a device the pool lacks, and
   * selects the row groups.
   */
  static ScanState open(
      Retriever retriever, MosaicTable table, Manifest manifest, ScanRequest request) {
    List<ColumnSpec> columns =
        request.columns().stream().map(c -> column(table, manifest, c)).toList();
    checkDevices(table, manifest, columns);
    int total = manifest.rowGroups().size();
    int to = request.toRowGroup() < 0 ? total : Math.min(request.toRowGroup(), total);
    int from = Math.max(0, request.fromRowGroup());
    RowGroupFilter filter = RowGroupFilter.bind(table.name(), manifest, request.predicate());
    List<Integer> groups = filter.select(from, to);
    return new ScanState(
        retriever,
        table,
        manifest,
        request,
        columns,
        groups,
        Math.max(0, to - from) - groups.size(),
        filter,
        request.narrowing() == null ? null : new Narrowing(table.name(), manifest, request));
  }

  /**
   * The request's predicate and its narrowing predicate's current value, bound: what row groups are
   * tested against before their reads are issued, and pages before they are read.
   */
  RowGroupFilter filterNow() {
    return narrowing == null ? filter : narrowing.now();
  }

  /**
   * Whether the narrowing predicate as it stands now rules out table row group {@code group} (one
   * of {@link #groups}, which the request's predicate did not rule out).
   */
  boolean ruledOutNow(int group) {
    return narrowing != null && !narrowing.now().mightMatch(group);
  }

  /**
   * Whether page pruning could rule out at least half of the rows of this scan's row groups, read
   * in chunk mode ({@link RowGroupFilter#prunableShare}, estimated from the manifest: no I/O): then
   * it reads on the ordered path, which fetches only the pages kept, where a shared scan reads
   * whole chunks (docs/cooperative-scans.md).
   */
  boolean prunesPages() {
    if (!request.pagePruning()) {
      return false;
    }
    RowGroupFilter now = filterNow();
    if (now.terms().isEmpty()) {
      return false;
    }
    double prunable = 0;
    for (int g : groups) {
      prunable += now.prunableShare(g);
    }
    return prunable >= 0.5 * groups.size();
  }

  /**
   * The request's predicate and its narrowing predicate's current value ({@link
   * ScanRequest#predicateNow}) bound, bound again only when the engine's value changes (Trino's
   * dynamic filter as a join's build side completes).
   */
  static final class Narrowing {
    private final String table;
    private final Manifest manifest;
    private final ScanRequest request;
    private Predicate last;
    private RowGroupFilter bound;

    private Narrowing(String table, Manifest manifest, ScanRequest request) {
      this.table = table;
      this.manifest = manifest;
      this.request = request;
    }

    synchronized RowGroupFilter now() {
      Predicate p = request.narrowing().get();
      if (!p.equals(last)) {
        bound = RowGroupFilter.bind(table, manifest, request.predicate().and(p));
        last = p;
      }
      return bound;
    }
  }

  private static ColumnSpec column(MosaicTable table, Manifest manifest, String name) {
    try {
      return manifest.schema().column(name);
    } catch (MosaicException e) {
      throw new MosaicException(
          e.kind(), "scan of table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Every segment to read must be on a device of the pool: a manifest naming another (a device
   * renamed in devices.toml, a damaged manifest) is refused here, naming both files.
   */
  private static void checkDevices(MosaicTable table, Manifest manifest, List<ColumnSpec> columns) {
    Set<String> known = new HashSet<>();
    table.pool().devices().forEach(d -> known.add(d.id()));
    for (ColumnSpec c : columns) {
      for (SegmentEntry s : manifest.segmentsOf(c.name())) {
        if (!known.contains(s.device())) {
          throw new CorruptTableException(
              "manifest v"
                  + manifest.version()
                  + " of table "
                  + table.name()
                  + " places segment "
                  + s.path()
                  + " of column '"
                  + c.name()
                  + "' on device '"
                  + s.device()
                  + "', which "
                  + table.pool().configFile()
                  + " does not define (devices: "
                  + String.join(", ", known)
                  + "); was a device renamed?");
        }
      }
    }
  }
}
