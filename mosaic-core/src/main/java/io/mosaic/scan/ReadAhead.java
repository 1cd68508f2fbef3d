package io.mosaic.scan;

import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.DecodedChunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;

/**
 * The reading side of a {@link Scan}: issues the chunk reads of its row groups in row-group order,
 * as far ahead of the consumer as the byte budget and the devices' queues allow, each on its
 * device's reader pool; hands the bytes to the decoding pool; and keeps each decoded chunk in a
 * {@link Slot} until the consumer takes it. A failure on a reader thread stops the scan.
 */
final class ReadAhead implements RowGroupSource {
  // Row groups read and decoded ahead of the consumer (the byte budget may stop it sooner). Each
  // decodes into megabytes of vectors; a few ahead keep every device busy, and the decoders can
  // then reuse the vectors of released row groups instead of allocating (and zeroing) new ones.
  private static final int ROW_GROUPS_AHEAD = 3;
  // Chunks of at most this many bytes uncompressed are decoded by the reader thread that read
  // them: that takes microseconds, less than a hand-off to the decoding pool and the wake-up of one
  // of its threads (issue 21, docs/benchmarks.md "Fixed cost per scan").
  static final long INLINE_DECODE_BYTES = 64 << 10;

  private final ScanState state;
  // The consumer's next row group: reads go at most ROW_GROUPS_AHEAD beyond it. Out of order (over
  // a scheduled cold device) it is the first row group not taken yet; taken marks those handed out
  // beyond it.
  private volatile int cursor;
  private final boolean[] taken;
  // Chunk mode: the row group taken last, whose chunks go back to the budget at the next take.
  private int lastTaken = -1;
  private final ByteBudget budget;
  private final BufferAllocator allocator;
  private final Slot[][] slots;
  // Per scan row group, once decided: whether the request's narrowing predicate rules it out.
  private final Boolean[] ruledOut;
  private int ruledOutCount;
  // Chunk mode with page pruning: per scan row group, once decided before its first read is issued,
  // the rows the page indexes cannot rule out and the pages of each column to read (null: all).
  private final boolean prunePages;
  private final Selection[] selections;
  private final boolean[] selected;
  private final Map<String, Integer> inflight = new HashMap<>();
  // Per column, vectors of row groups the consumer is done with, for decoding later ones into.
  private final Map<String, ConcurrentLinkedDeque<FieldVector>> spares = new HashMap<>();
  private final Map<String, Long> bytesPerDevice = new LinkedHashMap<>();
  private final AtomicInteger running = new AtomicInteger();
  private long chunksRead;
  // Completed exceptionally when scheduling fails on a reader thread (a segment's footer missing
  // or unreadable): the consumer may be waiting for a chunk that will now never be read.
  private final CompletableFuture<Void> failed = new CompletableFuture<>();
  private int scheduleGroup;
  private int scheduleColumn;
  // The row group the consumer is blocked on (-1: none), admitted past the byte budget if need be.
  private int awaited = -1;
  private volatile boolean closed;
  // Chunk mode (Retriever#chunks): chunks are handed out as checked bytes, never decoded here.
  private final boolean raw;
  // The query a cold device's scheduler files this scan's reads under (Skipper's request tag).
  private final String query;
  // Chunk mode with a column on a scheduled cold device: reads go ahead over the whole split (the
  // byte budget still bounds them), so the device's scheduler sees every chunk the split needs and
  // can serve them a disk group at a time instead of a few row groups at a time.
  private final boolean wholeSplit;
  // A column of the scan is on a cold device with a group scheduler: reads arrive in the device's
  // order, and the consumer may take row groups in it (unless the request asks for table order).
  private final boolean outOfOrder;

  /**
   * The part of one row group a scan reads under page pruning: the rows that may match, and per
   * column its whole offset index and the entries of the pages overlapping those rows.
   */
  private record Selection(
      org.apache.parquet.internal.filter2.columnindex.RowRanges rows,
      OffsetIndex[] all,
      OffsetIndex[] pages) {}

  /** What scheduling needs first, outside the scan's lock: a footer, or a row group's pages. */
  private record Need(SegmentEntry segment, int group) {}

  /** One column chunk of one row group on its way from its device to the consumer. */
  static final class Slot {
    final CompletableFuture<FieldVector> vector = new CompletableFuture<>();
    // Chunk mode: the chunk's checked bytes, completed once the read has scheduled further reads.
    final CompletableFuture<RawChunk> raw = new CompletableFuture<>();
    // Set before vector completes when the chunk came as dictionary ids (ScanRequest#dictionaries).
    volatile FieldVector dictionary;
    final long bytes;
    final String device;

    Slot(long bytes, String device) {
      this.bytes = bytes;
      this.device = device;
    }
  }

  /** {@code raw}: chunk mode, the consumer decodes ({@link #chunk}, {@link #ready}). */
  ReadAhead(ScanState state, boolean raw) {
    this.raw = raw;
    this.state = state;
    this.taken = new boolean[state.groups().size()];
    this.budget = new ByteBudget(state.request().bufferBytes());
    this.allocator =
        state
            .retriever()
            .allocator()
            .newChildAllocator("scan-" + state.table().name(), 0, Long.MAX_VALUE);
    this.slots = new Slot[state.groups().size()][state.columns().size()];
    this.ruledOut = new Boolean[state.groups().size()];
    this.prunePages = raw && state.request().pagePruning();
    this.selections = new Selection[state.groups().size()];
    this.selected = new boolean[state.groups().size()];
    for (ColumnSpec c : state.columns()) {
      spares.put(c.name(), new ConcurrentLinkedDeque<>());
    }
    this.query = state.request().queryTag("scan-" + java.util.UUID.randomUUID());
    boolean scheduled = false;
    for (ColumnSpec c : state.columns()) {
      for (SegmentEntry s : state.manifest().segmentsOf(c.name())) {
        scheduled |= state.retriever().scheduled(state.table().pool().device(s.device()));
      }
    }
    this.wholeSplit = raw && scheduled;
    this.outOfOrder = scheduled && !state.request().ordered();
  }

  /**
   * Whether the request's narrowing predicate ({@link ScanRequest#narrowing}) rules out the scan's
   * row group {@code g}, decided once, by whichever of the scheduler and the consumer gets there
   * first: the scheduler then issues none of its reads and the consumer skips it.
   */
  private synchronized boolean ruledOut(int g) {
    if (ruledOut[g] == null) {
      ruledOut[g] = state.ruledOutNow(state.groups().get(g));
      if (ruledOut[g]) {
        ruledOutCount++;
      }
    }
    return ruledOut[g];
  }

  @Override
  public boolean hasNext(boolean mayWait) {
    while (cursor < taken.length && (taken[cursor] || ruledOut(cursor))) {
      cursor++;
    }
    return cursor < taken.length;
  }

  @Override
  public CompletableFuture<?> ready() {
    // The row group the consumer waits for is admitted past the byte budget (as in take()).
    awaiting(cursor);
    schedule();
    // Completes normally even when a read failed: take() then throws the failure itself.
    return (outOfOrder ? anyRead(cursor, taken) : readyAt(cursor)).handle((v, e) -> null);
  }

  /**
   * The cursor's row group, or out of order (over a scheduled cold device, which serves a disk
   * group at a time) the first whose chunks are all in (chunk mode) or decoded: results do not
   * depend on the order of row groups.
   */
  @Override
  public Taken take() throws InterruptedException, ExecutionException {
    if (lastTaken >= 0) {
      releaseChunks(lastTaken);
    }
    awaiting(cursor);
    schedule();
    int g = cursor;
    RowGroupChunks chunks = null;
    List<DecodedChunk> decoded = null;
    int columns = state.columns().size();
    if (raw) {
      g = outOfOrder ? firstDone(cursor, taken, slot -> slot.raw) : cursor;
      List<RawChunk> raws = new ArrayList<>(columns);
      for (int c = 0; c < columns; c++) {
        raws.add(chunk(g, c));
      }
      int group = state.groups().get(g);
      chunks =
          new RowGroupChunks(group, state.manifest().rowGroups().get(group), raws, rowRanges(g));
      lastTaken = g;
    } else {
      List<FieldVector> vectors = new ArrayList<>();
      try {
        if (outOfOrder) {
          try {
            anyDecoded(cursor, taken).get();
          } catch (ExecutionException e) {
            // The scan failed: the read of row group g below throws the failure.
          }
          g = firstDone(cursor, taken, slot -> slot.vector);
        }
        for (int c = 0; c < columns; c++) {
          vectors.add(vector(g, c));
        }
      } catch (InterruptedException | ExecutionException e) {
        vectors.forEach(FieldVector::close);
        throw e;
      }
      decoded = new ArrayList<>(columns);
      for (int c = 0; c < columns; c++) {
        decoded.add(new DecodedChunk(vectors.get(c), dictionary(g, c)));
      }
    }
    awaiting(-1);
    taken[g] = true;
    while (cursor < taken.length && taken[cursor]) {
      cursor++;
    }
    if (cursor < taken.length) {
      // Row group g is the consumer's now: a failure to schedule the next ones (a damaged footer)
      // fails the scan at the next take, not this one, whose vectors nobody would free.
      scheduleOrFail();
    }
    return new Taken(g, state.groups().get(g), chunks, decoded);
  }

  @Override
  public boolean exhausted() {
    return cursor == taken.length;
  }

  /** Marks row group {@code g} of the scan as the one the consumer waits for (-1: none). */
  private synchronized void awaiting(int g) {
    awaited = g;
  }

  /** The vector of column {@code c} in the scan's row group {@code g}, once read and decoded. */
  private FieldVector vector(int g, int c) throws InterruptedException, ExecutionException {
    Slot slot = awaitSlot(g, c);
    return (FieldVector) CompletableFuture.anyOf(slot.vector, failed).get();
  }

  /** The dictionary of column {@code c} in row group {@code g}, if that chunk came with one. */
  private FieldVector dictionary(int g, int c) {
    return slots[g][c].dictionary;
  }

  /** Chunk mode: column {@code c} of the scan's row group {@code g}, once read and checked. */
  private RawChunk chunk(int g, int c) throws InterruptedException, ExecutionException {
    Slot slot = awaitSlot(g, c);
    return (RawChunk) CompletableFuture.anyOf(slot.raw, failed).get();
  }

  /**
   * Chunk mode: a future done when every chunk of the scan's row group {@code g} is read (or the
   * scan failed), for an engine that must not park its thread ({@code isBlocked}). Reads are issued
   * in order, so chunks of {@code g} not scheduled yet wait for a device queue this scan fills with
   * earlier chunks of {@code g}; the future then is the first of those, and the caller asks again
   * once it is done (each finished read schedules the next ones first).
   */
  private synchronized CompletableFuture<?> readyAt(int g) {
    if (closed || failed.isDone()) {
      return CompletableFuture.completedFuture(null);
    }
    Slot[] group = slots[g];
    boolean all = true;
    CompletableFuture<?> pending = null;
    for (Slot s : group) {
      if (s == null) {
        all = false;
      } else if (!s.raw.isDone() && pending == null) {
        pending = s.raw;
      }
    }
    if (all) {
      CompletableFuture<?>[] reads = new CompletableFuture<?>[group.length];
      for (int c = 0; c < group.length; c++) {
        reads[c] = group[c].raw;
      }
      return CompletableFuture.anyOf(CompletableFuture.allOf(reads), failed);
    }
    if (pending != null) {
      return CompletableFuture.anyOf(pending, failed);
    }
    // Not reachable by the argument above; a short wait keeps a caller from spinning if it were.
    return CompletableFuture.runAsync(
        () -> {},
        CompletableFuture.delayedExecutor(10, java.util.concurrent.TimeUnit.MILLISECONDS));
  }

  /**
   * Out of order: the first of the scan's row groups from {@code from} on that the consumer has not
   * taken ({@code taken}) and whose chunks are all at {@code stage} (read: {@code s -> s.raw};
   * decoded: {@code s -> s.vector}); {@code from} if there is none.
   */
  private synchronized int firstDone(
      int from, boolean[] taken, Function<Slot, CompletableFuture<?>> stage) {
    for (int g = from; g < scheduleGroup; g++) {
      if (!taken[g] && slots[g].length > 0) {
        boolean done = true;
        for (Slot s : slots[g]) {
          done &= s != null && stage.apply(s).isDone();
        }
        if (done) {
          return g;
        }
      }
    }
    return from;
  }

  /**
   * Out of order, vector mode: a future done when any row group from {@code from} on that is not
   * taken and has every read issued is decoded, or the scan failed; done at once when no such row
   * group is under way (the consumer then waits for {@code from} in order).
   */
  private synchronized CompletableFuture<?> anyDecoded(int from, boolean[] taken) {
    List<CompletableFuture<?>> any = issued(from, taken, s -> s.vector);
    if (any.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    any.add(failed);
    return CompletableFuture.anyOf(any.toArray(CompletableFuture<?>[]::new));
  }

  /**
   * Out of order, chunk mode: a future done when row group {@code from} or any later one not taken
   * yet has every chunk read, or the scan failed.
   */
  private synchronized CompletableFuture<?> anyRead(int from, boolean[] taken) {
    List<CompletableFuture<?>> any = new ArrayList<>();
    any.add(readyAt(from));
    any.addAll(issued(from + 1, taken, s -> s.raw));
    return CompletableFuture.anyOf(any.toArray(CompletableFuture<?>[]::new));
  }

  // Per row group from `from` on, not taken, with every chunk's read issued: all its chunks at
  // `stage`.
  private List<CompletableFuture<?>> issued(
      int from, boolean[] taken, Function<Slot, CompletableFuture<?>> stage) {
    List<CompletableFuture<?>> any = new ArrayList<>();
    for (int g = from; g < scheduleGroup; g++) {
      if (taken[g] || slots[g].length == 0) {
        continue;
      }
      CompletableFuture<?>[] futures = new CompletableFuture<?>[slots[g].length];
      boolean issued = true;
      for (int c = 0; c < futures.length && issued; c++) {
        issued = slots[g][c] != null;
        futures[c] = issued ? stage.apply(slots[g][c]) : null;
      }
      if (issued) {
        any.add(CompletableFuture.allOf(futures));
      }
    }
    return any;
  }

  /** Chunk mode: the consumer is done with row group {@code g}; its bytes go back to the budget. */
  private synchronized void releaseChunks(int g) {
    for (int c = 0; c < slots[g].length; c++) {
      if (slots[g][c] != null) {
        budget.give(slots[g][c].bytes);
        slots[g][c] = null; // the bytes are the engine's now; the scan keeps no reference
      }
    }
  }

  /** Bytes of raw chunks read ahead or held by the consumer's current row group. */
  @Override
  public long heldBytes() {
    return budget.used();
  }

  /**
   * Takes back the vectors of row group {@code g}, which the consumer is done with: kept to decode
   * later row groups into (or given to the pool), and their bytes returned to the budget.
   */
  @Override
  public void release(Taken t, List<FieldVector> vectors) {
    int g = t.index();
    for (int c = 0; c < vectors.size(); c++) {
      String name = state.columns().get(c).name();
      ConcurrentLinkedDeque<FieldVector> spare = spares.get(name);
      if (spare.size() < 2) {
        spare.offer(vectors.get(c));
      } else {
        state.retriever().vectors().give(name, vectors.get(c));
      }
    }
    for (Slot s : slots[g]) {
      budget.give(s.bytes);
    }
  }

  /**
   * The slot of column {@code c} in the scan's row group {@code g}, once scheduled: a device's
   * queue may be full when the consumer gets there, and a reader finishing a chunk schedules the
   * rest. Throws what stopped the scan, if scheduling failed meanwhile.
   */
  private Slot awaitSlot(int g, int c) throws InterruptedException, ExecutionException {
    while (true) {
      synchronized (this) {
        if (slots[g][c] != null) {
          return slots[g][c];
        }
        if (failed.isCompletedExceptionally()) {
          failed.get();
        }
        wait(100);
      }
      schedule();
    }
  }

  /**
   * Schedules where a failure must not be thrown (a reader thread; a consumer that has just taken a
   * row group): it stops the scan instead, and the next take throws it.
   */
  private void scheduleOrFail() {
    try {
      schedule();
    } catch (RuntimeException | Error e) {
      failScan(e);
    }
  }

  private void failScan(Throwable e) {
    failed.completeExceptionally(
        e instanceof CorruptTableException || e instanceof CancellationException
            ? e
            : new CorruptTableException(
                "scan of table " + state.table().name() + " failed: " + e.getMessage(), e));
    synchronized (this) {
      notifyAll();
    }
  }

  /** Issues reads in row-group order while the budget and the devices' queues allow. */
  private void schedule() {
    // A footer not cached yet, and a row group's page indexes, are read outside the scan's lock:
    // reader threads finishing a chunk take that lock too, and must not queue behind that I/O.
    Need need = scheduleCached(null, null);
    while (need != null) {
      if (need.segment() == null) {
        select(need.group());
        need = scheduleCached(null, null);
      } else {
        Device device = state.table().pool().device(need.segment().device());
        ParquetMetadata footer =
            state
                .retriever()
                .footers()
                .footer(state.table().name(), state.manifest(), device, need.segment());
        need = scheduleCached(need.segment(), footer);
      }
    }
  }

  /**
   * Page pruning: decides which rows and pages of the scan's row group {@code g} to read, from the
   * page indexes of the predicate's columns (the request's predicate and the narrowing one as it
   * stands now). Every projected column needs an offset index for the engine to line its rows up
   * with the others'; a row group where one lacks it is read whole.
   */
  private void select(int g) {
    RowGroupFilter filter = state.filterNow();
    Selection selection = null;
    if (!filter.terms().isEmpty()) {
      int group = state.groups().get(g);
      long rows = state.manifest().rowGroups().get(group);
      var ranges = PageFilter.rowRanges(filter, rows, column -> pageIndex(column, group));
      if (ranges != null) {
        OffsetIndex[] all = new OffsetIndex[state.columns().size()];
        OffsetIndex[] pages = new OffsetIndex[state.columns().size()];
        for (int c = 0; c < state.columns().size() && all != null; c++) {
          all[c] = pageIndex(state.columns().get(c), group).offsetIndex();
          if (all[c] == null) {
            all = null;
          } else {
            pages[c] = PageFilter.overlapping(all[c], ranges, rows);
          }
        }
        selection = all == null ? null : new Selection(ranges, all, pages);
      }
    }
    synchronized (this) {
      // Decided once: two threads may select the same row group, with the narrowing predicate at
      // different values, and every column of the row group must get the same rows.
      if (!selected[g]) {
        selections[g] = selection;
        selected[g] = true;
      }
    }
  }

  private PageIndexCache.PageIndex pageIndex(ColumnSpec column, int group) {
    SegmentEntry segment = state.manifest().segmentFor(column.name(), group);
    Device device = state.table().pool().device(segment.device());
    ParquetMetadata footer =
        state.retriever().footers().footer(state.table().name(), state.manifest(), device, segment);
    return state
        .retriever()
        .pageIndexes()
        .get(state.table().name(), state.manifest(), device, segment, footer, group);
  }

  /** Chunk mode: the rows of the scan's row group {@code g} to decode; null: all of them. */
  private synchronized org.apache.parquet.internal.filter2.columnindex.RowRanges rowRanges(int g) {
    return selections[g] == null ? null : selections[g].rows();
  }

  /** Whether page indexes proved that no row of the scan's row group {@code g} matches. */
  private boolean noRows(int g) {
    return selections[g] != null && selections[g].rows().rowCount() == 0;
  }

  /**
   * Schedules reads whose segment footers are at hand ({@code known} is the one just read, in case
   * the cache has dropped it again); returns the first segment whose footer is not, or null.
   */
  private synchronized Need scheduleCached(SegmentEntry known, ParquetMetadata knownFooter) {
    int end =
        wholeSplit
            ? state.groups().size()
            : Math.min(state.groups().size(), cursor + ROW_GROUPS_AHEAD);
    while (!closed && !state.columns().isEmpty() && scheduleGroup < end) {
      if (scheduleColumn == 0 && ruledOut(scheduleGroup)) {
        scheduleGroup++;
        continue;
      }
      if (prunePages && !selected[scheduleGroup]) {
        return new Need(null, scheduleGroup);
      }
      Selection selection = selections[scheduleGroup];
      int group = state.groups().get(scheduleGroup);
      ColumnSpec column = state.columns().get(scheduleColumn);
      SegmentEntry segment = state.manifest().segmentFor(column.name(), group);
      Device device = state.table().pool().device(segment.device());
      // A few reads queued per device keep it busy without letting one scan crowd out others. A
      // scheduled cold device queues every read: its scheduler, not arrival, decides the order.
      if (!state.retriever().scheduled(device)
          && inflight.getOrDefault(device.id(), 0) >= 2 * device.spec().threads()) {
        return null;
      }
      ParquetMetadata footer =
          segment.equals(known)
              ? knownFooter
              : state
                  .retriever()
                  .footers()
                  .cached(state.table().name(), state.manifest(), device, segment);
      if (footer == null) {
        return new Need(segment, scheduleGroup);
      }
      ColumnChunkMetaData chunk =
          footer.getBlocks().get(group - segment.firstRowGroup()).getColumns().get(0);
      int c = scheduleColumn;
      long bytes =
          selection == null
              ? chunk.getTotalSize()
              : selection.rows().rowCount() == 0 ? 0 : pageBytes(chunk, selection, c);
      // The consumer holds no batch while it waits for a row group, so refusing that group's
      // chunks would wait forever when the budget is smaller than one row group.
      if (scheduleGroup == awaited) {
        budget.take(bytes);
      } else if (!budget.tryTake(bytes)) {
        return null;
      }
      Slot slot = new Slot(bytes, device.id());
      slots[scheduleGroup][scheduleColumn] = slot;
      notifyAll();
      if (selection != null && selection.rows().rowCount() == 0) {
        // The page indexes proved the row group empty of matches: nothing to read.
        slot.raw.complete(
            new RawChunk(
                column,
                footer.getFileMetaData().getSchema().getColumns().get(0),
                chunk,
                List.of(),
                selection.pages()[c],
                segment.describe(device.where(segment.path()), state.table().name())
                    + ", row group "
                    + group));
      } else {
        inflight.merge(device.id(), 1, Integer::sum);
        running.incrementAndGet();
        state
            .retriever()
            .reader(device, segment.path(), query, state.table().name() + "." + column.name(), this)
            .execute(() -> read(slot, device, segment, footer, chunk, column, group, selection, c));
      }
      if (++scheduleColumn == state.columns().size()) {
        scheduleColumn = 0;
        scheduleGroup++;
      }
    }
    return null;
  }

  /**
   * Bytes to read of column {@code c}'s chunk under {@code selection}: its dictionary and pages.
   */
  private static long pageBytes(ColumnChunkMetaData chunk, Selection selection, int c) {
    OffsetIndex pages = selection.pages()[c];
    if (pages.getPageCount() == selection.all()[c].getPageCount()) {
      return chunk.getTotalSize();
    }
    long n = Math.max(0, selection.all()[c].getOffset(0) - chunk.getStartingPos());
    for (int p = 0; p < pages.getPageCount(); p++) {
      n += pages.getCompressedPageSize(p);
    }
    return n;
  }

  private void read(
      Slot slot,
      Device device,
      SegmentEntry segment,
      ParquetMetadata footer,
      ColumnChunkMetaData chunk,
      ColumnSpec column,
      int group,
      Selection selection,
      int c) {
    String file = device.where(segment.path());
    byte[] bytes = null;
    List<ChunkPiece> pieces = null;
    OffsetIndex pageIndex = null;
    long read = 0;
    try {
      if (closed) {
        throw new CancellationException("scan closed");
      }
      if (selection != null) {
        OffsetIndex all = selection.all()[c];
        pageIndex = selection.pages()[c];
        if (pageIndex.getPageCount() < all.getPageCount()) {
          pieces =
              ChunkReads.readPages(
                  device, file, segment, chunk, all, pageIndex, group, state.table().name());
          if (pieces == null) {
            // The pages carry no CRC to check a partial read by: the chunk is read whole and
            // checked by its checksum, and the engine still gets only the pages it needs.
            byte[] whole = readWhole(device, file, segment, chunk, group);
            read = whole.length;
            pieces =
                ChunkReads.cut(
                    whole, chunk.getStartingPos(), ChunkReads.spans(chunk, all, pageIndex));
          } else {
            for (ChunkPiece piece : pieces) {
              read += piece.bytes().length;
            }
          }
        }
      }
      if (pieces == null) {
        bytes = readWhole(device, file, segment, chunk, group);
        pieces = List.of(new ChunkPiece(chunk.getStartingPos(), bytes));
        read = bytes.length;
      }
      synchronized (this) {
        bytesPerDevice.merge(device.id(), read, Long::sum);
        chunksRead++;
      }
    } catch (IOException | RuntimeException | Error e) {
      fail(slot, device, e, column, group, file);
      finished();
      return;
    } finally {
      synchronized (this) {
        inflight.merge(device.id(), -1, Integer::sum);
      }
      scheduleOrFail();
    }
    if (raw) {
      // Completed after the finally above: a consumer woken here finds the next reads issued.
      slot.raw.complete(
          new RawChunk(
              column,
              footer.getFileMetaData().getSchema().getColumns().get(0),
              chunk,
              pieces,
              pageIndex,
              segment.describe(file, state.table().name()) + ", row group " + group));
      finished(); // wakes a close() waiting for the reads under way
      return;
    }
    byte[] whole = bytes;
    if (chunk.getTotalUncompressedSize() <= INLINE_DECODE_BYTES) {
      decode(slot, device, segment, footer, bytes, column, group, file);
      return;
    }
    try {
      state
          .retriever()
          .decoders()
          .execute(() -> decode(slot, device, segment, footer, whole, column, group, file));
    } catch (RuntimeException e) {
      fail(slot, device, e, column, group, file);
      finished();
    }
  }

  /** Column chunk {@code chunk} of row group {@code group}, read whole and checked. */
  private byte[] readWhole(
      Device device, String file, SegmentEntry segment, ColumnChunkMetaData chunk, int group)
      throws IOException {
    return ChunkReads.read(
        device, file, segment, chunk, group, state.table().name(), state.manifest().version());
  }

  private void decode(
      Slot slot,
      Device device,
      SegmentEntry segment,
      ParquetMetadata footer,
      byte[] bytes,
      ColumnSpec column,
      int group,
      String file) {
    try {
      if (closed) {
        throw new CancellationException("scan closed");
      }
      DecodedChunk decoded =
          ChunkReads.decode(
              segment,
              footer,
              bytes,
              group,
              column,
              allocator,
              () -> spare(column.name()),
              state.request().form());
      slot.dictionary = decoded.dictionary();
      if (!slot.vector.complete(decoded.vector())) {
        decoded.vector().close();
        if (decoded.dictionary() != null) {
          decoded.dictionary().close();
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      fail(slot, device, e, column, group, file);
    } finally {
      finished();
    }
  }

  /** A vector to decode column {@code name} into: this scan's own spare, else the pool's. */
  private FieldVector spare(String name) {
    FieldVector own = spares.get(name).poll();
    return own != null ? own : state.retriever().vectors().take(name, allocator);
  }

  private void fail(
      Slot slot, Device device, Throwable e, ColumnSpec column, int group, String file) {
    Throwable failure =
        e instanceof CancellationException || e instanceof CorruptTableException
            ? e
            : new CorruptTableException(
                "scan of table "
                    + state.table().name()
                    + " failed on column '"
                    + column.name()
                    + "', row group "
                    + group
                    + ", device '"
                    + device.id()
                    + "', file "
                    + file
                    + ": "
                    + e.getMessage(),
                e);
    slot.vector.completeExceptionally(failure);
    slot.raw.completeExceptionally(failure);
  }

  @Override
  public synchronized ScanStats stats(long start) {
    List<Integer> read = new ArrayList<>();
    int issued = Math.min(state.groups().size(), scheduleGroup + (scheduleColumn > 0 ? 1 : 0));
    int empty = 0;
    for (int g = 0; g < issued; g++) {
      if (noRows(g)) {
        empty++; // the page indexes ruled out every row: none of its bytes were read
      } else if (!Boolean.TRUE.equals(ruledOut[g])) {
        read.add(state.groups().get(g));
      }
    }
    return new ScanStats(
        read,
        state.skipped() + ruledOutCount + empty,
        new LinkedHashMap<>(bytesPerDevice),
        budget.peak(),
        budget.limit(),
        System.nanoTime() - start,
        chunksRead,
        0);
  }

  /**
   * A read or decode task is over; the last one wakes {@link #close} (no polling:
   * docs/benchmarks.md, "Fixed cost per scan").
   */
  private void finished() {
    if (running.decrementAndGet() == 0) {
      synchronized (running) {
        running.notifyAll();
      }
    }
  }

  /** Stops issuing reads: reads queued see the flag and stop at once. */
  @Override
  public void stop() {
    closed = true;
    // Reads queued at a cold device's scheduler would wait for their group's turn to see it.
    state.retriever().withdraw(this);
  }

  /**
   * Waits for the reads under way, then frees every buffer of the row groups from the consumer's
   * cursor on that the consumer has not taken (out of order, row groups after the cursor may be the
   * consumer's already), and of the spares, and the scan's allocator.
   */
  @Override
  public void close() {
    int from = cursor;
    // Reads under way finish their chunk; queued ones see the flag and stop at once.
    long deadline = System.nanoTime() + 30_000_000_000L;
    synchronized (running) {
      for (long left = deadline - System.nanoTime();
          running.get() > 0 && left > 0;
          left = deadline - System.nanoTime()) {
        try {
          running.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    for (int g = from; g < slots.length; g++) {
      if (taken[g]) {
        continue;
      }
      for (Slot s : slots[g]) {
        if (s != null) {
          s.vector.cancel(false);
          s.raw.cancel(false);
          if (s.vector.isDone() && !s.vector.isCompletedExceptionally()) {
            s.vector.join().close();
            if (s.dictionary != null) {
              s.dictionary.close();
            }
          }
        }
      }
    }
    spares.forEach(
        (name, spare) -> {
          for (FieldVector v = spare.poll(); v != null; v = spare.poll()) {
            state.retriever().vectors().give(name, v);
          }
        });
    allocator.close();
  }
}
