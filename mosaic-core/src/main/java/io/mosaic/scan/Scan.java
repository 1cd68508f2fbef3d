package io.mosaic.scan;

import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.Manifest;
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
  // Where row groups come from: the scan's own reads, or the shared buffer's (RowGroupSource).
  private final RowGroupSource source;
  // The table row group of the batch last handed out.
  private int currentGroup = -1;
  private final long start = System.nanoTime();
  private final Instant startedAt = Instant.now();
  // Set by whichever of the last next() and close() records the scan first (they may race when an
  // engine cancels a split from another thread).
  private final AtomicBoolean recorded = new AtomicBoolean();
  // The row group of the batch last handed out (null: none yet).
  private RowGroupSource.Taken currentTaken;
  private VectorSchemaRoot current;
  private FieldVector[] currentDictionaries;
  private volatile boolean closed;
  // Chunk mode (Retriever#chunks): row groups come as raw, checked chunks (nextChunks).
  private final boolean chunkMode;

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
      this.source = retriever.source(state, chunkMode);
    } catch (RuntimeException e) {
      if (ownsPin) {
        pin.close();
      }
      throw e;
    }
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
    boolean more = source.hasNext(!chunkMode);
    if (!more) {
      record();
    }
    return more;
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
    RowGroupSource.Taken taken = take();
    if (taken == null) {
      throw new IllegalStateException(
          "scan of table " + state.table().name() + " has no more row groups");
    }
    List<FieldVector> vectors = new ArrayList<>();
    currentDictionaries = new FieldVector[state.columns().size()];
    for (int c = 0; c < taken.decoded().size(); c++) {
      vectors.add(taken.decoded().get(c).vector());
      currentDictionaries[c] = taken.decoded().get(c).dictionary();
    }
    current = new VectorSchemaRoot(vectors);
    // A scan of no columns (count(*)) still delivers each row group's row count.
    current.setRowCount(Math.toIntExact(state.manifest().rowGroups().get(taken.group())));
    currentTaken = taken;
    return current;
  }

  /**
   * The source's next row group, the one path of both forms: a failure of its reads surfaces as the
   * scan's, an interrupt as a cancellation, and the scan is recorded once none is left.
   */
  private RowGroupSource.Taken take() {
    RowGroupSource.Taken taken;
    try {
      taken = source.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("scan of table " + state.table().name() + " interrupted");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new CorruptTableException(e.getCause().getMessage(), e.getCause());
    }
    if (taken != null) {
      currentGroup = taken.group();
    }
    if (taken == null || source.exhausted()) {
      record();
    }
    return taken;
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
    return source.ready();
  }

  /**
   * The next row group's chunks, raw and checked, in the request's column order; waits for them if
   * {@link #ready()} is not done. Row groups come in order, except in a scan with a column on a
   * cold device with a group scheduler: there the first row group whose chunks are all read comes
   * first ({@link RowGroupChunks#rowGroup()} says which), since the device serves a disk group at a
   * time; and in a shared scan, in the order the shared buffer loads them. The chunks of the row
   * group returned before are released to the byte budget: the caller must be done with their bytes
   * or own them (they are not reused). Throws {@link CorruptTableException} naming the file when a
   * chunk fails its checksum. Null when no row group is left: a narrowing predicate ({@link
   * ScanRequest#narrowing}) may rule out the remaining ones as they arrive, after {@link
   * #hasNext()} said one was left (a shared scan learns it only then).
   */
  public RowGroupChunks nextChunks() {
    requireChunkMode();
    if (!hasNext()) {
      return null;
    }
    RowGroupSource.Taken taken = take();
    return taken == null ? null : taken.chunks();
  }

  /**
   * Bytes of raw chunks this scan holds: read ahead, and those of the row group last returned by
   * {@link #nextChunks()} until the next call (an engine's {@code getMemoryUsage}).
   */
  public long heldBytes() {
    return source.heldBytes();
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
      source.release(currentTaken, current.getFieldVectors());
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
    TraceLog.of(state.table())
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
    return source.stats(start);
  }

  /** Stops reading, frees every buffer, and records the scan in the table's trace if not yet. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    source.stop();
    closeDictionaries();
    if (current != null) {
      // The consumer is done with the last batch too: its vectors go to the pool.
      List<FieldVector> vectors = current.getFieldVectors();
      for (int c = 0; c < vectors.size(); c++) {
        state.retriever().vectors().give(state.columns().get(c).name(), vectors.get(c));
      }
      current = null;
    }
    source.close();
    record();
    if (ownsPin) {
      pin.close();
    }
  }
}
