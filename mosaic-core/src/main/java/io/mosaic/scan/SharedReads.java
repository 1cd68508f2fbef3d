package io.mosaic.scan;

import io.mosaic.cooperative.ActiveBufferManager;
import io.mosaic.cooperative.ChunkRef;
import io.mosaic.cooperative.GroupNeed;
import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.DecodedChunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * The reading side of a {@link Scan} that shares its reads with concurrent scans
 * (docs/cooperative-scans.md): it registers its row groups x column chunks with the retriever's
 * {@link SharedBuffer} and takes whichever row group the buffer has complete, in any order (Mosaic
 * declares no sort order, so results do not change). Closing it deregisters the scan: its
 * reservations are given back and its chunks unpinned, whether it finished, failed or was
 * cancelled.
 */
final class SharedReads implements RowGroupSource {
  private final ScanState state;
  private final SharedBuffer buffer;
  // Chunk mode (Retriever#chunks): row groups are handed out as their chunks, not decoded here.
  private final boolean raw;
  private final List<ChunkRef> named = new ArrayList<>();
  private final ActiveBufferManager.Scan scan;
  private final BufferAllocator allocator;
  private final List<Integer> delivered = new ArrayList<>();
  private int ruledOut;
  // The row group taken by ready() and not yet handed out, and the one the consumer holds.
  private ActiveBufferManager.Delivery pending;
  private ActiveBufferManager.Delivery held;
  private volatile boolean closed;

  SharedReads(ScanState state, SharedBuffer buffer, boolean raw) {
    this.state = state;
    this.buffer = buffer;
    this.raw = raw;
    // Row groups of one table are numbered alike in every version; its root names it uniquely.
    String key = state.table().location();
    List<GroupNeed> needs = new ArrayList<>();
    try {
      for (int group : state.groups()) {
        List<ChunkRef> chunks = new ArrayList<>();
        for (ColumnSpec c : state.columns()) {
          SegmentEntry segment = state.manifest().segmentFor(c.name(), group);
          Device device = state.table().pool().device(segment.device());
          ParquetMetadata footer =
              state
                  .retriever()
                  .footers()
                  .footer(state.table().name(), state.manifest(), device, segment);
          ColumnChunkMetaData chunk =
              footer.getBlocks().get(group - segment.firstRowGroup()).getColumns().get(0);
          String file = device.where(segment.path());
          ChunkRef ref =
              new ChunkRef(
                  c.name(), device.id(), file, chunk.getStartingPos(), chunk.getTotalSize());
          buffer.addSource(
              ref,
              new SharedBuffer.Source(
                  device,
                  file,
                  segment,
                  footer,
                  chunk,
                  group,
                  state.table().name(),
                  state.manifest().version()));
          named.add(ref);
          chunks.add(ref);
        }
        needs.add(new GroupNeed(key, group, chunks));
      }
    } catch (RuntimeException e) {
      named.forEach(buffer::removeSource);
      throw e;
    }
    String id = "scan-" + UUID.randomUUID();
    buffer.registered(id, state.request().queryTag(id));
    this.scan = buffer.abm().register(id, needs);
    this.allocator =
        state
            .retriever()
            .allocator()
            .newChildAllocator("shared-scan-" + state.table().name(), 0, Long.MAX_VALUE);
  }

  /**
   * Whether a row group is left. With a narrowing predicate the remaining ones may all be ruled out
   * when they arrive: {@code mayWait} (vector mode) waits for the next usable one to know; chunk
   * mode must not wait, and may answer true once more before {@link #ready} or {@link #next}
   * settles it.
   */
  @Override
  public synchronized boolean hasNext(boolean mayWait) {
    if (closed) {
      return false;
    }
    if (mayWait && pending == null && state.request().narrowing() != null) {
      releaseHeld(); // decoded already; not pinned while waiting (ready())
      return settle(true);
    }
    return pending != null || delivered.size() + ruledOut < state.groups().size();
  }

  @Override
  public synchronized boolean exhausted() {
    return !hasNext(false);
  }

  /**
   * Chunk mode: a future done when {@link #next} will not wait: a row group is taken, none is left
   * (the narrowing predicate ruled out the rest), or the scan failed. Not done: the caller asks
   * again once it is, as the buffer wakes every waiting scan on each load.
   */
  @Override
  public synchronized CompletableFuture<?> ready() {
    // The row group handed out last stays with the engine (its bytes are the engine's now), but
    // not pinned in the buffer. Pinned while its consumer waits, it would count against the budget
    // the wait needs: scans each holding a row group could fill the budget and wait forever for
    // room only their own next take would free. Released before `change` is made, since the
    // release itself wakes the buffer's waiters.
    releaseHeld();
    while (true) {
      if (closed || pending != null) {
        return CompletableFuture.completedFuture(null);
      }
      CompletableFuture<Void> change = buffer.change();
      try {
        if (settle(false) || exhausted()) {
          buffer.forget(change);
          return CompletableFuture.completedFuture(null);
        }
      } catch (RuntimeException e) {
        buffer.forget(change);
        return CompletableFuture.completedFuture(null); // the next take throws the failure
      }
      if (!change.isDone()) {
        return change;
      }
      // Something changed since `change` was made (a row group ruled out as it was taken wakes
      // the buffer too): look again, so that a done future never leaves next() to wait.
    }
  }

  /**
   * The next row group the buffer has complete, waiting for one; releases the one held. Null when
   * none is left: the narrowing predicate ruled out the rest as they arrived.
   */
  @Override
  public Taken take() {
    ActiveBufferManager.Delivery d = next();
    if (d == null) {
      return null;
    }
    return new Taken(-1, d.need().group(), raw ? chunks(d) : null, raw ? null : decode(d));
  }

  private synchronized ActiveBufferManager.Delivery next() {
    releaseHeld();
    if (!settle(true)) {
      return null;
    }
    held = pending;
    pending = null;
    delivered.add(held.need().group());
    return held;
  }

  // Makes `pending` the next usable row group, if none is there yet: waiting for one if `wait`,
  // else only one already complete. Whether there is one; !wait: false may mean "not yet".
  private boolean settle(boolean wait) {
    if (pending == null) {
      pending = takeUsable(wait);
    }
    return pending != null;
  }

  // A row group not ruled out by the narrowing predicate (ScanRequest#narrowing, tested as it
  // stands when the row group arrives); null when none is left, or none is complete and !wait.
  private ActiveBufferManager.Delivery takeUsable(boolean wait) {
    while (delivered.size() + ruledOut < state.groups().size()) {
      ActiveBufferManager.Delivery d;
      try {
        d = wait ? takeNext() : scan.poll();
      } catch (IllegalStateException e) {
        throw new CancellationException("scan of table " + state.table().name() + " closed");
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException r
            ? r
            : new CorruptTableException(e.getCause().getMessage(), e.getCause());
      }
      if (d == null) {
        return null;
      }
      if (state.ruledOutNow(d.need().group())) {
        ruledOut++;
        scan.release(d);
        continue;
      }
      return d;
    }
    return null;
  }

  private ActiveBufferManager.Delivery takeNext() {
    try {
      while (true) {
        ActiveBufferManager.Delivery d = scan.take(1, TimeUnit.SECONDS);
        if (d != null || scan.remainingGroups() == 0) {
          return d;
        }
        if (closed) {
          throw new CancellationException("scan of table " + state.table().name() + " closed");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("scan of table " + state.table().name() + " interrupted");
    }
  }

  /** Chunk mode: the row group's chunks as an engine decodes them (whole chunks: no pruning). */
  private RowGroupChunks chunks(ActiveBufferManager.Delivery d) {
    List<RawChunk> out = new ArrayList<>(state.columns().size());
    for (int c = 0; c < state.columns().size(); c++) {
      SharedBuffer.Loaded l = (SharedBuffer.Loaded) d.data().get(c);
      SharedBuffer.Source s = l.source();
      out.add(
          new RawChunk(
              state.columns().get(c),
              s.footer().getFileMetaData().getSchema().getColumns().get(0),
              s.chunk(),
              List.of(new ChunkPiece(s.chunk().getStartingPos(), l.bytes())),
              null,
              s.segment().describe(s.file(), state.table().name()) + ", row group " + s.group()));
    }
    int group = d.need().group();
    return new RowGroupChunks(group, state.manifest().rowGroups().get(group), out, null);
  }

  /** Vector mode: the row group's columns decoded on the decoding pool, in parallel. */
  private List<DecodedChunk> decode(ActiveBufferManager.Delivery d) {
    List<CompletableFuture<DecodedChunk>> futures = new ArrayList<>(state.columns().size());
    for (int c = 0; c < state.columns().size(); c++) {
      SharedBuffer.Loaded l = (SharedBuffer.Loaded) d.data().get(c);
      ColumnSpec column = state.columns().get(c);
      SharedBuffer.Source s = l.source();
      futures.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return ChunkReads.decode(
                      s.segment(),
                      s.footer(),
                      l.bytes(),
                      s.group(),
                      column,
                      allocator,
                      () -> state.retriever().vectors().take(column.name(), allocator),
                      state.request().form());
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              state.retriever().decoders()));
    }
    List<DecodedChunk> out = new ArrayList<>(state.columns().size());
    RuntimeException failure = null;
    for (CompletableFuture<DecodedChunk> f : futures) {
      try {
        out.add(f.join());
      } catch (CompletionException e) {
        Throwable cause =
            e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
        failure =
            failure != null
                ? failure
                : cause instanceof CorruptTableException r
                    ? r
                    : new CorruptTableException(
                        "scan of table "
                            + state.table().name()
                            + " failed decoding row group "
                            + d.need().group()
                            + ": "
                            + cause.getMessage(),
                        cause);
      }
    }
    if (failure != null) {
      for (DecodedChunk c : out) {
        c.vector().close();
        if (c.dictionary() != null) {
          c.dictionary().close();
        }
      }
      throw failure;
    }
    return out;
  }

  private void releaseHeld() {
    if (held != null) {
      scan.release(held);
      held = null;
    }
  }

  /** Chunks of the pending and held row groups; the rest of the buffer is shared. */
  @Override
  public synchronized long heldBytes() {
    return (held == null ? 0 : held.need().bytes())
        + (pending == null ? 0 : pending.need().bytes());
  }

  /** Vector mode: the vectors go to the retriever's pool (the buffer keeps only raw chunks). */
  @Override
  public void release(Taken taken, List<FieldVector> vectors) {
    for (int c = 0; c < vectors.size(); c++) {
      state.retriever().vectors().give(state.columns().get(c).name(), vectors.get(c));
    }
  }

  @Override
  public synchronized ScanStats stats(long start) {
    long[] counts = scan.chunkCounts();
    return new ScanStats(
        List.copyOf(delivered),
        state.skipped() + ruledOut,
        scan.bytesRead(),
        buffer.abm().stats().peakBytes(),
        buffer.abm().budgetBytes(),
        System.nanoTime() - start,
        scan.chunksRead(),
        counts[1]);
  }

  BufferAllocator allocator() {
    return allocator;
  }

  /** Deregisters: reservations given back, every chunk unpinned; frees the scan's allocator. */
  /** Nothing to stop: the shared buffer reads for every scan; {@link #close} deregisters. */
  @Override
  public void stop() {}

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    scan.close(); // wakes a consumer waiting in take (another thread cancelling the scan)
    synchronized (this) {
      pending = null;
      held = null;
    }
    named.forEach(buffer::removeSource);
    buffer.deregistered(scan.id());
    allocator.close();
  }
}
