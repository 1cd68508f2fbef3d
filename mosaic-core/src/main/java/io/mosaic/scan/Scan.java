package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.device.Device;
import io.mosaic.format.ColumnSpec;
import io.mosaic.format.Manifest;
import io.mosaic.format.SegmentEntry;
import io.mosaic.segment.DecodedChunk;
import io.mosaic.table.CorruptTableException;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import io.mosaic.trace.TraceLog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * One table scan (paper Section 3.3): the chunks of the requested columns are read row group by row
 * group, each from its device's reader pool, as far ahead of the consumer as the byte budget
 * allows; decoded into Arrow vectors by the decoding pool; and handed out in row-group order, one
 * {@link VectorSchemaRoot} per row group, valid until the next call or {@link #close()}. Closing
 * stops reading promptly and releases every buffer. The scan is recorded in the table's trace once,
 * when its last row group is read or when it is closed, whichever comes first ({@link #record}).
 */
public final class Scan implements AutoCloseable {
  private final Retriever retriever;
  private final MosaicTable table;
  private final TablePin pin;
  private final boolean ownsPin;
  private final Manifest manifest;
  private final ScanRequest request;
  private final List<ColumnSpec> columns;
  private final List<Integer> groups;
  private final int skipped;
  private final ByteBudget budget;
  private final BufferAllocator allocator;
  private final Slot[][] slots;
  // Row groups read and decoded ahead of the consumer (the byte budget may stop it sooner). Each
  // decodes into megabytes of vectors; a few ahead keep every device busy, and the decoders can
  // then reuse the vectors of released row groups instead of allocating (and zeroing) new ones.
  private static final int ROW_GROUPS_AHEAD = 3;

  private final Map<String, Integer> inflight = new HashMap<>();
  // Per column, vectors of row groups the consumer is done with, for decoding later ones into.
  private final Map<String, ConcurrentLinkedDeque<FieldVector>> spares = new HashMap<>();
  private final Map<String, Long> bytesPerDevice = new LinkedHashMap<>();
  private final AtomicInteger running = new AtomicInteger();
  // Completed exceptionally when scheduling fails on a reader thread (a segment's footer missing
  // or unreadable): the consumer may be waiting for a chunk that will now never be read.
  private final CompletableFuture<Void> failed = new CompletableFuture<>();
  private final long start = System.nanoTime();
  private final Instant startedAt = Instant.now();
  // Set by whichever of the last next() and close() records the scan first (they may race when an
  // engine cancels a split from another thread).
  private final AtomicBoolean recorded = new AtomicBoolean();
  private int scheduleGroup;
  private int scheduleColumn;
  private int cursor;
  // The row group the consumer is blocked on (-1: none), admitted past the byte budget if need be.
  private int awaited = -1;
  private VectorSchemaRoot current;
  private FieldVector[] currentDictionaries;
  private volatile boolean closed;

  /** One column chunk of one row group on its way from its device to the consumer. */
  private static final class Slot {
    final CompletableFuture<FieldVector> vector = new CompletableFuture<>();
    // Set before vector completes when the chunk came as dictionary ids (ScanRequest#dictionaries).
    volatile FieldVector dictionary;
    final long bytes;
    final String device;

    Slot(long bytes, String device) {
      this.bytes = bytes;
      this.device = device;
    }
  }

  Scan(Retriever retriever, MosaicTable table, TablePin pin, boolean ownsPin, ScanRequest request) {
    this.retriever = retriever;
    this.table = table;
    this.pin = pin;
    this.ownsPin = ownsPin;
    this.manifest = pin.manifest();
    this.request = request;
    try {
      this.columns = request.columns().stream().map(c -> column(c)).toList();
      checkDevices();
      int total = manifest.rowGroups().size();
      int to = request.toRowGroup() < 0 ? total : Math.min(request.toRowGroup(), total);
      int from = Math.max(0, request.fromRowGroup());
      this.groups =
          new RowGroupFilter(table.name(), manifest, request.predicate()).select(from, to);
      this.skipped = Math.max(0, to - from) - groups.size();
    } catch (RuntimeException e) {
      if (ownsPin) {
        pin.close();
      }
      throw e;
    }
    this.budget = new ByteBudget(request.bufferBytes());
    this.allocator =
        retriever.allocator().newChildAllocator("scan-" + table.name(), 0, Long.MAX_VALUE);
    this.slots = new Slot[groups.size()][columns.size()];
    for (ColumnSpec c : columns) {
      spares.put(c.name(), new ConcurrentLinkedDeque<>());
    }
  }

  /**
   * Every segment to read must be on a device of the pool: a manifest naming another (a device
   * renamed in devices.toml, a damaged manifest) is refused here, naming both files.
   */
  private void checkDevices() {
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

  private ColumnSpec column(String name) {
    try {
      return manifest.schema().column(name);
    } catch (MosaicException e) {
      throw new MosaicException(
          e.kind(), "scan of table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  public Manifest manifest() {
    return manifest;
  }

  /** The table row groups this scan reads, after skipping by statistics. */
  public List<Integer> rowGroups() {
    return groups;
  }

  public boolean hasNext() {
    return !closed && cursor < groups.size();
  }

  /** The table row group of the batch last returned by {@link #next()}. */
  public int rowGroup() {
    return groups.get(cursor - 1);
  }

  /** The next row group's batch; valid until the next call or close. */
  public VectorSchemaRoot next() {
    if (!hasNext()) {
      throw new IllegalStateException("scan of table " + table.name() + " has no more row groups");
    }
    releaseCurrent();
    synchronized (this) {
      awaited = cursor;
    }
    schedule();
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (int c = 0; c < columns.size(); c++) {
        Slot slot = awaitSlot(cursor, c);
        vectors.add((FieldVector) CompletableFuture.anyOf(slot.vector, failed).get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      vectors.forEach(FieldVector::close);
      throw new CancellationException("scan of table " + table.name() + " interrupted");
    } catch (ExecutionException e) {
      vectors.forEach(FieldVector::close);
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new CorruptTableException(e.getCause().getMessage(), e.getCause());
    }
    synchronized (this) {
      awaited = -1;
    }
    current = new VectorSchemaRoot(vectors);
    currentDictionaries = new FieldVector[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      currentDictionaries[c] = slots[cursor][c].dictionary;
    }
    // A scan of no columns (count(*)) still delivers each row group's row count.
    current.setRowCount(Math.toIntExact(manifest.rowGroups().get(groups.get(cursor))));
    cursor++;
    if (cursor == groups.size()) {
      record();
    } else {
      schedule();
    }
    return current;
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
      List<FieldVector> vectors = current.getFieldVectors();
      for (int c = 0; c < vectors.size(); c++) {
        String name = columns.get(c).name();
        ConcurrentLinkedDeque<FieldVector> spare = spares.get(name);
        if (spare.size() < 2) {
          spare.offer(vectors.get(c));
        } else {
          retriever.vectors().give(name, vectors.get(c));
        }
      }
      current = null;
      for (Slot s : slots[cursor - 1]) {
        budget.give(s.bytes);
      }
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

  /** Schedules from a reader thread: a failure stops the scan instead of vanishing. */
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
                "scan of table " + table.name() + " failed: " + e.getMessage(), e));
    synchronized (this) {
      notifyAll();
    }
  }

  /** Issues reads in row-group order while the budget and the devices' queues allow. */
  private void schedule() {
    // A footer not cached yet is read outside the scan's lock: reader threads finishing a chunk
    // take that lock too, and must not queue behind another segment's footer I/O.
    SegmentEntry missing = scheduleCached(null, null);
    while (missing != null) {
      Device device = table.pool().device(missing.device());
      ParquetMetadata footer = retriever.footers().footer(table.name(), manifest, device, missing);
      missing = scheduleCached(missing, footer);
    }
  }

  /**
   * Schedules reads whose segment footers are at hand ({@code known} is the one just read, in case
   * the cache has dropped it again); returns the first segment whose footer is not, or null.
   */
  private synchronized SegmentEntry scheduleCached(
      SegmentEntry known, ParquetMetadata knownFooter) {
    int end = Math.min(groups.size(), cursor + ROW_GROUPS_AHEAD);
    while (!closed && !columns.isEmpty() && scheduleGroup < end) {
      int group = groups.get(scheduleGroup);
      ColumnSpec column = columns.get(scheduleColumn);
      SegmentEntry segment = manifest.segmentFor(column.name(), group);
      Device device = table.pool().device(segment.device());
      // A few reads queued per device keep it busy without letting one scan crowd out others.
      if (inflight.getOrDefault(device.id(), 0) >= 2 * device.spec().threads()) {
        return null;
      }
      ParquetMetadata footer =
          segment.equals(known)
              ? knownFooter
              : retriever.footers().cached(table.name(), manifest, device, segment);
      if (footer == null) {
        return segment;
      }
      ColumnChunkMetaData chunk =
          footer.getBlocks().get(group - segment.firstRowGroup()).getColumns().get(0);
      // The consumer holds no batch while it waits for a row group, so refusing that group's
      // chunks would wait forever when the budget is smaller than one row group.
      if (scheduleGroup == awaited) {
        budget.take(chunk.getTotalSize());
      } else if (!budget.tryTake(chunk.getTotalSize())) {
        return null;
      }
      Slot slot = new Slot(chunk.getTotalSize(), device.id());
      slots[scheduleGroup][scheduleColumn] = slot;
      notifyAll();
      inflight.merge(device.id(), 1, Integer::sum);
      running.incrementAndGet();
      retriever
          .reader(device.id())
          .execute(() -> read(slot, device, segment, footer, chunk, column, group));
      if (++scheduleColumn == columns.size()) {
        scheduleColumn = 0;
        scheduleGroup++;
      }
    }
    return null;
  }

  private void read(
      Slot slot,
      Device device,
      SegmentEntry segment,
      ParquetMetadata footer,
      ColumnChunkMetaData chunk,
      ColumnSpec column,
      int group) {
    Path file = device.resolve(segment.path());
    byte[] bytes;
    try {
      if (closed) {
        throw new CancellationException("scan closed");
      }
      bytes =
          ChunkReads.read(device, file, segment, chunk, group, table.name(), manifest.version());
      synchronized (this) {
        bytesPerDevice.merge(device.id(), (long) bytes.length, Long::sum);
      }
    } catch (IOException | RuntimeException | Error e) {
      fail(slot, device, e, column, group, file);
      running.decrementAndGet();
      return;
    } finally {
      synchronized (this) {
        inflight.merge(device.id(), -1, Integer::sum);
      }
      scheduleOrFail();
    }
    try {
      retriever
          .decoders()
          .execute(() -> decode(slot, device, segment, footer, chunk, bytes, column, group, file));
    } catch (RuntimeException e) {
      fail(slot, device, e, column, group, file);
      running.decrementAndGet();
    }
  }

  private void decode(
      Slot slot,
      Device device,
      SegmentEntry segment,
      ParquetMetadata footer,
      ColumnChunkMetaData chunk,
      byte[] bytes,
      ColumnSpec column,
      int group,
      Path file) {
    try {
      if (closed) {
        throw new CancellationException("scan closed");
      }
      DecodedChunk decoded =
          ChunkReads.decode(
              segment,
              footer,
              chunk,
              bytes,
              group,
              column,
              allocator,
              () -> spare(column.name()),
              request.form());
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
      running.decrementAndGet();
    }
  }

  /** A vector to decode column {@code name} into: this scan's own spare, else the pool's. */
  private FieldVector spare(String name) {
    FieldVector own = spares.get(name).poll();
    return own != null ? own : retriever.vectors().take(name, allocator);
  }

  private void fail(
      Slot slot, Device device, Throwable e, ColumnSpec column, int group, Path file) {
    if (e instanceof CancellationException || e instanceof CorruptTableException) {
      slot.vector.completeExceptionally(e);
    } else {
      slot.vector.completeExceptionally(
          new CorruptTableException(
              "scan of table "
                  + table.name()
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
              e));
    }
  }

  /**
   * Appends this scan to the table's trace, once: when its last row group has been read (so an
   * engine's split is in the trace before the engine sees it finish) or when it is closed before
   * that. A split of a {@link ScanPlan} appends a fragment that the trace merges into its plan's
   * one record; a scan of no columns (count(*)) reads nothing and records nothing.
   */
  private void record() {
    if (!request.record() || columns.isEmpty() || !recorded.compareAndSet(false, true)) {
      return;
    }
    ScanStats stats = stats();
    new TraceLog(table.root())
        .appendScan(
            request.scanId(),
            request.fromRowGroup(),
            request.toRowGroup(),
            request.queryId() != null ? request.queryId() : "mosaic-" + UUID.randomUUID(),
            table.name(),
            columns.stream().map(ColumnSpec::name).toList(),
            stats.rowGroupsRead(),
            stats.bytesPerDevice(),
            startedAt,
            stats.elapsedNanos() / 1_000_000);
  }

  public ScanStats stats() {
    synchronized (this) {
      return new ScanStats(
          groups.subList(0, Math.min(groups.size(), scheduleGroup + (scheduleColumn > 0 ? 1 : 0))),
          skipped,
          new LinkedHashMap<>(bytesPerDevice),
          budget.peak(),
          budget.limit(),
          System.nanoTime() - start);
    }
  }

  /** Stops reading, frees every buffer, and records the scan in the table's trace if not yet. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeDictionaries();
    if (current != null) {
      // The consumer is done with the last batch too: its vectors go to the pool.
      List<FieldVector> vectors = current.getFieldVectors();
      for (int c = 0; c < vectors.size(); c++) {
        retriever.vectors().give(columns.get(c).name(), vectors.get(c));
      }
      current = null;
    }
    // Reads under way finish their chunk; queued ones see the flag and stop at once.
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (running.get() > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (int g = cursor; g < slots.length; g++) {
      for (Slot s : slots[g]) {
        if (s != null) {
          s.vector.cancel(false);
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
            retriever.vectors().give(name, v);
          }
        });
    allocator.close();
    record();
    if (ownsPin) {
      pin.close();
    }
  }
}
