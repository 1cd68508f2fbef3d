package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.segment.ChunkForm;
import io.mosaic.trace.TraceLog;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What an engine asks for: columns, the row groups {@code [fromRowGroup, toRowGroup)} (a split;
 * {@code toRowGroup = -1} means to the end), a predicate for row-group skipping, the query id for
 * the trace, the {@link ScanPlan} the request is one split of ({@code scanId}, null for a scan of
 * its own), how many bytes of raw column chunks may be prefetched, and the forms decoded chunks may
 * take: dictionary-encoded ({@link Scan#dictionary}), decimals as unscaled longs. Serializable, so
 * an engine can ship a planned split's request to the JVM that executes it.
 */
public record ScanRequest(
    List<String> columns,
    Predicate predicate,
    int fromRowGroup,
    int toRowGroup,
    String queryId,
    String scanId,
    long bufferBytes,
    boolean record,
    ChunkForm form,
    Supplier<Predicate> narrowing,
    boolean pagePruning,
    SharingPolicy sharing,
    boolean ordered)
    implements Serializable {

  static final long DEFAULT_BUFFER_BYTES = 256L << 20;

  public ScanRequest {
    columns = List.copyOf(columns);
    Objects.requireNonNull(form, "form");
    if (bufferBytes <= 0) {
      throw MosaicException.invalid("the scan buffer must be positive, not " + bufferBytes);
    }
  }

  public static ScanRequest of(List<String> columns) {
    return new ScanRequest(
        columns,
        Predicate.ALL,
        0,
        -1,
        null,
        null,
        DEFAULT_BUFFER_BYTES,
        true,
        ChunkForm.PLAIN,
        null,
        true,
        null,
        false);
  }

  /** The fields of a request, to change some of them in a copy ({@link #with}). */
  private static final class Copy {
    List<String> columns;
    Predicate predicate;
    int fromRowGroup;
    int toRowGroup;
    String queryId;
    String scanId;
    long bufferBytes;
    boolean record;
    ChunkForm form;
    Supplier<Predicate> narrowing;
    boolean pagePruning;
    SharingPolicy sharing;
    boolean ordered;

    Copy(ScanRequest r) {
      columns = r.columns;
      predicate = r.predicate;
      fromRowGroup = r.fromRowGroup;
      toRowGroup = r.toRowGroup;
      queryId = r.queryId;
      scanId = r.scanId;
      bufferBytes = r.bufferBytes;
      record = r.record;
      form = r.form;
      narrowing = r.narrowing;
      pagePruning = r.pagePruning;
      sharing = r.sharing;
      ordered = r.ordered;
    }

    ScanRequest build() {
      return new ScanRequest(
          columns,
          predicate,
          fromRowGroup,
          toRowGroup,
          queryId,
          scanId,
          bufferBytes,
          record,
          form,
          narrowing,
          pagePruning,
          sharing,
          ordered);
    }
  }

  /** This request with the fields {@code change} sets: the one place a request is copied. */
  private ScanRequest with(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /**
   * The same request over {@code columns}: an engine that decodes chunks by position puts a planned
   * request's columns in its own channel order.
   */
  public ScanRequest project(List<String> columns) {
    return with(c -> c.columns = List.copyOf(columns));
  }

  public ScanRequest where(Predicate p) {
    return with(c -> c.predicate = p);
  }

  public ScanRequest rowGroups(int from, int to) {
    return with(
        c -> {
          c.fromRowGroup = from;
          c.toRowGroup = to;
        });
  }

  /**
   * The query a cold device's group scheduler files this scan's reads under (Skipper's request
   * tag): the query id, else the planned scan's id, else {@code fallback}.
   */
  String queryTag(String fallback) {
    return queryId != null ? queryId : scanId != null ? scanId : fallback;
  }

  public ScanRequest queryId(String id) {
    return with(c -> c.queryId = id);
  }

  /**
   * Marks this request as one split of the planned scan {@code scanId} ({@link ScanPlan#request}):
   * its trace entry is then a fragment that {@link TraceLog#read} merges with the other splits'
   * into the scan's one record.
   */
  public ScanRequest partOf(String scanId) {
    return with(c -> c.scanId = scanId);
  }

  /**
   * Whether the scan is recorded in the trace at all (it is by default); benchmarks and tests that
   * scan for their own purposes turn it off, so their reads do not count as workload.
   */
  public ScanRequest recorded(boolean on) {
    return with(c -> c.record = on);
  }

  /**
   * At most {@code bytes} of raw column chunks read ahead; the row group the consumer waits for is
   * read whole even when it alone is larger.
   */
  public ScanRequest buffer(long bytes) {
    return with(c -> c.bufferBytes = bytes);
  }

  /**
   * Whether a column chunk stored wholly dictionary-encoded (strings, binary, and numbers, dates
   * and timestamps other than 8- and 16-bit ints) may be handed out as int32 ids into its
   * dictionary ({@link Scan#dictionary}) instead of as its values: an engine that resolves ids
   * lazily then decodes and copies no value it filters away, as Spark's Parquet reader does.
   */
  public ScanRequest dictionaries(boolean on) {
    return with(c -> c.form = new ChunkForm(on, form.unscaledDecimals()));
  }

  /**
   * Whether decimals stored as int64 may be handed out as a {@code BigIntVector} of their unscaled
   * values ({@link io.mosaic.segment.ChunkForm}) instead of Arrow's 16-byte decimals; the scan's
   * schema says their precision and scale.
   */
  public ScanRequest unscaledDecimals(boolean on) {
    return with(c -> c.form = new ChunkForm(form.dictionaryIds(), on));
  }

  /**
   * A predicate that may narrow while the scan runs (Trino's dynamic filter as the build side of a
   * join completes): before the chunk reads of each row group are issued, the row group is tested
   * against its current value as against {@link #predicate}, so a row group it rules out is never
   * read nor decoded. Null: none. It is not shipped between JVMs: set it where the scan runs.
   */
  public ScanRequest narrowing(Supplier<Predicate> current) {
    return with(c -> c.narrowing = current);
  }

  /**
   * {@link #predicate} and the current value of {@link #narrowing} as one conjunction: what page
   * statistics are tested against.
   */
  Predicate predicateNow() {
    return narrowing == null ? predicate : predicate.and(narrowing.get());
  }

  /**
   * Whether a scan in chunk mode ({@link Retriever#chunks}) may read only the pages of a row group
   * that the page indexes cannot rule out by {@link #predicate} and the current {@link #narrowing}
   * value (on by default; vector scans always read whole chunks). Trino's session property {@code
   * page_pruning_enabled} turns it off.
   */
  public ScanRequest pagePruning(boolean on) {
    return with(c -> c.pagePruning = on);
  }

  /**
   * Shares this scan's reads with concurrent scans of the retriever under {@code policy}
   * (docs/cooperative-scans.md); null: the retriever's configured policy. Under {@code normal} (the
   * default) the scan reads its own chunks in row-group order.
   */
  public ScanRequest sharing(SharingPolicy policy) {
    return with(c -> c.sharing = policy);
  }

  /**
   * Row groups in table order, always on the scan's own reads (never the shared buffer): for a
   * consumer that relies on file order. Mosaic declares no sort order, so engines do not need it.
   */
  public ScanRequest ordered(boolean on) {
    return with(c -> c.ordered = on);
  }
}
