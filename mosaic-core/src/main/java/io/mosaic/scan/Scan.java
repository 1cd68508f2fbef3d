package io.mosaic.scan;

import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.table.CorruptTableException;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.trace.TraceLog;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One table scan (paper Section 3.3): the chunks of the requested columns are read row group by row
 * group, each from its device's reader pool, as far ahead of the consumer as the byte budget
 * allows; decoded into Arrow vectors by the decoding pool; and handed out in row-group order, one
 * {@link VectorSchemaRoot} per row group, valid until the next call or {@link #close()}. Closing
 * stops reading promptly and releases every buffer. The scan is recorded in the table's trace once,
 * when its last row group is read or when it is closed, whichever comes first ({@link #record}).
 */
public final class Scan implements AutoCloseable {
  private final ScanState state;
  private final TablePin pin;
  private final boolean ownsPin;
  private final ReadAhead reads;
  // Non-null when the scan shares its reads through the retriever's buffer (issue 23): row groups
  // then come in the order the buffer completes them, and `reads` is null.
  private final SharedReads shared;
  // The table row group of the batch last handed out.
  private int currentGroup = -1;
  private final long start = System.nanoTime();
  private final Instant startedAt = Instant.now();
  // Set by whichever of the last next() and close() records the scan first (they may race when an
  // engine cancels a split from another thread).
  private final AtomicBoolean recorded = new AtomicBoolean();
  private int cursor;
  // The scan row group of the batch last handed out (-1: none yet).
  private int currentIndex = -1;
  private VectorSchemaRoot current;
  private FieldVector[] currentDictionaries;
  private volatile boolean closed;
  // Chunk mode (Retriever#chunks): row groups come as raw, checked chunks (nextChunks).
  private final boolean chunkMode;
  // Chunk mode over a scheduled cold device: row groups handed out as their chunks arrive, so the
  // cursor is the first row group not taken yet; taken marks those handed out beyond it.
  private final boolean[] taken;
  private int lastTaken = -1;

  Scan(Retriever retriever, MosaicTable table, TablePin pin, boolean ownsPin, ScanRequest request) {
    this(retriever, table, pin, ownsPin, request, false);
  }

  Scan(
      Retriever retriever,
      MosaicTable table,
      TablePin pin,
      boolean ownsPin,
      ScanRequest request,
      boolean chunkMode) {
    this.chunkMode = chunkMode;
    this.pin = pin;
    this.ownsPin = ownsPin;
    try {
      this.state = ScanState.open(retriever, table, pin.manifest(), request);
    } catch (RuntimeException e) {
      if (ownsPin) {
        pin.close();
      }
      throw e;
    }
    SharingPolicy policy =
        state.request().sharing() != null ? state.request().sharing() : state.retriever().sharing();
    SharedBuffer buffer =
        state.request().ordered()
                || state.columns().isEmpty()
                || state.groups().isEmpty()
                || policy == SharingPolicy.NORMAL
                || prunesPages(chunkMode)
            ? null
            : state.retriever().shared(policy);
    if (buffer != null) {
      try {
        this.shared = new SharedReads(state, buffer);
      } catch (RuntimeException e) {
        if (ownsPin) {
          pin.close();
        }
        throw e;
      }
      this.reads = null;
    } else {
      this.shared = null;
      this.reads = new ReadAhead(state, () -> cursor, chunkMode);
    }
    this.taken = new boolean[state.groups().size()];
  }

  /**
   * Whether page pruning could rule out at least half of the rows of this chunk-mode scan's row
   * groups ({@link RowGroupFilter#prunableShare}, estimated from the manifest: no I/O): then it
   * reads on the ordered path, which fetches only the pages kept, where a shared scan reads whole
   * chunks (docs/cooperative-scans.md).
   */
  private boolean prunesPages(boolean chunkMode) {
    if (!chunkMode || !state.request().pagePruning()) {
      return false;
    }
    RowGroupFilter filter = state.filterNow();
    if (filter.terms().isEmpty()) {
      return false;
    }
    double prunable = 0;
    for (int g : state.groups()) {
      prunable += filter.prunableShare(g);
    }
    return prunable >= 0.5 * state.groups().size();
  }

  public Manifest manifest() {
    return state.manifest();
  }

  /**
   * The table row groups this scan reads, after skipping by statistics; a narrowing predicate
   * ({@link ScanRequest#narrowing}) may still skip some of them ({@link #stats}).
   */
  public List<Integer> rowGroups() {
    return state.groups();
  }

  public boolean hasNext() {
    if (closed) {
      return false;
    }
    if (shared != null) {
      boolean more = shared.hasNext(!chunkMode);
      if (!more) {
        record();
      }
      return more;
    }
    while (cursor < state.groups().size() && (taken[cursor] || reads.ruledOut(cursor))) {
      cursor++;
      if (cursor == state.groups().size()) {
        record();
      }
    }
    return cursor < state.groups().size();
  }

  /** The table row group of the batch last returned by {@link #next()}. */
  public int rowGroup() {
    return currentGroup;
  }

  /** The next row group's batch; valid until the next call or close. */
  public VectorSchemaRoot next() {
    if (!hasNext()) {
      throw new IllegalStateException(
          "scan of table " + state.table().name() + " has no more row groups");
    }
    if (chunkMode) {
      throw new IllegalStateException("a scan in chunk mode hands out chunks: use nextChunks()");
    }
    releaseCurrent();
    if (shared != null) {
      return nextShared();
    }
    reads.awaiting(cursor);
    reads.schedule();
    List<FieldVector> vectors = new ArrayList<>();
    int g = cursor;
    try {
      if (reads.outOfOrder()) {
        // Over a scheduled cold device, the first row group whose vectors are all decoded: the
        // device serves a disk group at a time, and a task decodes what is in meanwhile instead
        // of parking on the cursor's row group (results do not depend on the order of row groups).
        try {
          reads.anyDecoded(cursor, taken).get();
        } catch (ExecutionException e) {
          // The scan failed: the read of row group g below throws the failure.
        }
        g = reads.firstDone(cursor, taken, slot -> slot.vector);
      }
      for (int c = 0; c < state.columns().size(); c++) {
        vectors.add(reads.vector(g, c));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      vectors.forEach(FieldVector::close);
      throw new CancellationException("scan of table " + state.table().name() + " interrupted");
    } catch (ExecutionException e) {
      vectors.forEach(FieldVector::close);
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new CorruptTableException(e.getCause().getMessage(), e.getCause());
    }
    reads.awaiting(-1);
    current = new VectorSchemaRoot(vectors);
    currentDictionaries = new FieldVector[state.columns().size()];
    for (int c = 0; c < state.columns().size(); c++) {
      currentDictionaries[c] = reads.dictionary(g, c);
    }
    // A scan of no columns (count(*)) still delivers each row group's row count.
    current.setRowCount(Math.toIntExact(state.manifest().rowGroups().get(state.groups().get(g))));
    currentIndex = g;
    currentGroup = state.groups().get(g);
    taken[g] = true;
    while (cursor < state.groups().size() && taken[cursor]) {
      cursor++;
    }
    if (cursor == state.groups().size()) {
      record();
    } else {
      reads.schedule();
    }
    return current;
  }

  private VectorSchemaRoot nextShared() {
    // Not null: hasNext() waited for a usable row group (SharedReads#hasNext).
    var delivery = shared.next();
    List<io.mosaic.segment.DecodedChunk> decoded = shared.decode(delivery);
    List<FieldVector> vectors = new ArrayList<>();
    currentDictionaries = new FieldVector[state.columns().size()];
    for (int c = 0; c < decoded.size(); c++) {
      vectors.add(decoded.get(c).vector());
      currentDictionaries[c] = decoded.get(c).dictionary();
    }
    current = new VectorSchemaRoot(vectors);
    currentGroup = delivery.need().group();
    current.setRowCount(Math.toIntExact(state.manifest().rowGroups().get(currentGroup)));
    cursor++;
    if (!shared.hasNext()) {
      record();
    }
    return current;
  }

  // ---- Chunk mode (Retriever#chunks): the engine decodes, on its own threads.

  /**
   * A future done (normally) when the next row group's chunks are all read and checked (out of
   * order, {@link #nextChunks()}: any row group's not handed out yet), or the scan failed or was
   * closed, or no row group is left, so {@link #nextChunks()} will not wait: an engine returns it
   * from its {@code isBlocked} instead of parking a thread, and calls this again once it is done.
   * Reads are issued (and a missing segment footer read) by this call if none are under way.
   */
  public java.util.concurrent.CompletableFuture<?> ready() {
    requireChunkMode();
    if (!hasNext()) {
      return java.util.concurrent.CompletableFuture.completedFuture(null);
    }
    if (shared != null) {
      return shared.ready();
    }
    // The row group the consumer waits for is admitted past the byte budget (as in next()).
    reads.awaiting(cursor);
    reads.schedule();
    // Completes normally even when a read failed: nextChunks() then throws the failure itself.
    return (reads.outOfOrder() ? reads.anyRead(cursor, taken) : reads.ready(cursor))
        .handle((v, e) -> null);
  }

  /**
   * The next row group's chunks, raw and checked, in the request's column order; waits for them if
   * {@link #ready()} is not done. Row groups come in order, except in a scan with a column on a
   * cold device with a group scheduler: there the first row group whose chunks are all read comes
   * first ({@link RowGroupChunks#rowGroup()} says which), since the device serves a disk group at a
   * time. The chunks of the row group returned before are released to the byte budget: the caller
   * must be done with their bytes or own them (they are not reused). Throws {@link
   * CorruptTableException} naming the file when a chunk fails its checksum. Null when no row group
   * is left: a narrowing predicate ({@link ScanRequest#narrowing}) may rule out the remaining ones
   * as they arrive, after {@link #hasNext()} said one was left (a shared scan learns it only then).
   */
  public RowGroupChunks nextChunks() {
    requireChunkMode();
    if (!hasNext()) {
      return null;
    }
    if (shared != null) {
      var delivery = shared.next();
      if (delivery == null) {
        record();
        return null;
      }
      RowGroupChunks result = shared.chunks(delivery);
      currentGroup = result.rowGroup();
      cursor++;
      if (!shared.hasNext()) {
        record();
      }
      return result;
    }
    if (lastTaken >= 0) {
      reads.releaseChunks(lastTaken);
    }
    reads.awaiting(cursor);
    reads.schedule();
    // Over a scheduled cold device, the first row group whose chunks are all in: the device serves
    // a group at a time, not in row-group order (results do not depend on the order of row groups).
    int g = reads.outOfOrder() ? reads.firstDone(cursor, taken, slot -> slot.raw) : cursor;
    List<RawChunk> chunks = new ArrayList<>(state.columns().size());
    try {
      for (int c = 0; c < state.columns().size(); c++) {
        chunks.add(reads.chunk(g, c));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("scan of table " + state.table().name() + " interrupted");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new CorruptTableException(e.getCause().getMessage(), e.getCause());
    }
    reads.awaiting(-1);
    int group = state.groups().get(g);
    currentGroup = group;
    RowGroupChunks result =
        new RowGroupChunks(
            group, state.manifest().rowGroups().get(group), chunks, reads.rowRanges(g));
    taken[g] = true;
    lastTaken = g;
    while (cursor < state.groups().size() && taken[cursor]) {
      cursor++;
    }
    if (cursor == state.groups().size()) {
      record();
    } else {
      reads.schedule();
    }
    return result;
  }

  /**
   * Bytes of raw chunks this scan holds: read ahead, and those of the row group last returned by
   * {@link #nextChunks()} until the next call (an engine's {@code getMemoryUsage}).
   */
  public long heldBytes() {
    return shared != null ? shared.heldBytes() : reads.heldBytes();
  }

  private void requireChunkMode() {
    if (!chunkMode) {
      throw new IllegalStateException(
          "scan of table "
              + state.table().name()
              + " decodes into vectors: use next(), or open it with"
              + " Retriever#chunks");
    }
  }

  /**
   * The dictionary of column {@code column} in the batch last returned by {@link #next()}, if the
   * request allowed dictionaries and that chunk came dictionary-encoded: the batch's vector then
   * holds int32 ids into it. Null otherwise. Valid as long as the batch.
   */
  public FieldVector dictionary(int column) {
    return currentDictionaries == null ? null : currentDictionaries[column];
  }

  private void closeDictionaries() {
    if (currentDictionaries != null) {
      for (FieldVector d : currentDictionaries) {
        if (d != null) {
          d.close();
        }
      }
      currentDictionaries = null;
    }
  }

  private void releaseCurrent() {
    closeDictionaries();
    if (current != null) {
      if (shared != null) {
        List<FieldVector> vectors = current.getFieldVectors();
        for (int c = 0; c < vectors.size(); c++) {
          state.retriever().vectors().give(state.columns().get(c).name(), vectors.get(c));
        }
      } else {
        reads.release(currentIndex, current.getFieldVectors());
      }
      current = null;
    }
  }

  /**
   * Appends this scan to the table's trace, once: when its last row group has been read (so an
   * engine's split is in the trace before the engine sees it finish) or when it is closed before
   * that. A split of a {@link ScanPlan} appends a fragment that the trace merges into its plan's
   * one record; a scan of no columns (count(*)) reads nothing and records nothing.
   */
  private void record() {
    if (!state.request().record()
        || state.columns().isEmpty()
        || !recorded.compareAndSet(false, true)) {
      return;
    }
    ScanStats stats = stats();
    new TraceLog(state.table().root())
        .appendScan(
            state.request().scanId(),
            state.request().fromRowGroup(),
            state.request().toRowGroup(),
            state.request().queryId() != null
                ? state.request().queryId()
                : "mosaic-" + UUID.randomUUID(),
            state.table().name(),
            state.columns().stream().map(ColumnSpec::name).toList(),
            stats.rowGroupsRead(),
            stats.bytesPerDevice(),
            startedAt,
            stats.elapsedNanos() / 1_000_000);
  }

  public ScanStats stats() {
    return shared != null
        ? shared.stats(state.skipped(), start)
        : reads.stats(state.skipped(), start);
  }

  /** Stops reading, frees every buffer, and records the scan in the table's trace if not yet. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (reads != null) {
      reads.stop();
    }
    closeDictionaries();
    if (current != null) {
      // The consumer is done with the last batch too: its vectors go to the pool.
      List<FieldVector> vectors = current.getFieldVectors();
      for (int c = 0; c < vectors.size(); c++) {
        state.retriever().vectors().give(state.columns().get(c).name(), vectors.get(c));
      }
      current = null;
    }
    if (shared != null) {
      shared.close();
    } else {
      reads.close(cursor, taken);
    }
    record();
    if (ownsPin) {
      pin.close();
    }
  }
}
