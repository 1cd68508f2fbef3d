package io.mosaic.scan;

import io.mosaic.cooperative.ActiveBufferManager;
import io.mosaic.cooperative.ChunkRef;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.Device;
import io.mosaic.format.CorruptTableException;
import io.mosaic.format.SegmentEntry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * The retriever's shared scan buffer for one {@link SharingPolicy} (docs/cooperative- scans.md): an
 * {@link ActiveBufferManager} whose loads the devices' reader pools carry out. Each device runs at
 * most its {@code threads} loaders at once; a loader asks the ABM for the device's next chunk
 * ({@link ActiveBufferManager#nextLoad}), reads and checks it, reports it loaded, and goes back to
 * the end of the device's queue, so scans on the retriever's ordered path (policy {@code normal})
 * keep their turn on the same threads.
 */
final class SharedBuffer implements AutoCloseable {
  // A scan waiting longer than this gets the next load whatever the policy prefers (Section 4's
  // fairness; docs/cooperative-scans.md "starvation bound").
  static final long STARVATION_BOUND_MILLIS = 2_000;

  /**
   * How to read one chunk: the same bytes for every scan that names it (segments are immutable).
   */
  record Source(
      Device device,
      String file,
      SegmentEntry segment,
      ParquetMetadata footer,
      ColumnChunkMetaData chunk,
      int group,
      String table,
      long version) {}

  /** A loaded chunk: its checked bytes and how to decode them. */
  record Loaded(Source source, byte[] bytes) {}

  private final Retriever retriever;
  private final ActiveBufferManager abm;
  // Per chunk a registered scan needs: how to read it, and how many registered scans name it.
  private final Map<ChunkRef, Source> sources = new ConcurrentHashMap<>();
  private final Map<ChunkRef, AtomicInteger> users = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> loaders = new ConcurrentHashMap<>();
  private final AtomicLong epoch = new AtomicLong();
  // Chunk-mode scans waiting for a row group (Scan#ready): completed on every load or failure.
  private final Set<CompletableFuture<Void>> waiters = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> bytesPerDevice = new LinkedHashMap<>();
  // The query of each registered scan: a scheduled cold device files a load under it.
  private final Map<String, String> queries = new ConcurrentHashMap<>();
  private volatile boolean closed;

  SharedBuffer(Retriever retriever, SharingPolicy policy, long budgetBytes) {
    this.retriever = retriever;
    this.abm =
        new ActiveBufferManager(
            policy,
            budgetBytes,
            STARVATION_BOUND_MILLIS,
            TimeUnit.MILLISECONDS,
            System::nanoTime,
            this::kick);
    retriever.pool().devices().forEach(d -> loaders.put(d.id(), new AtomicInteger()));
  }

  ActiveBufferManager abm() {
    return abm;
  }

  /** Bytes the devices read for this buffer, per device, since the retriever started. */
  synchronized Map<String, Long> bytesPerDevice() {
    return new LinkedHashMap<>(bytesPerDevice);
  }

  void addSource(ChunkRef ref, Source source) {
    // One atomic step per chunk, as removeSource's: a count fetched before another scan's last
    // removal and raised after it would be lost, and the source then removed while this scan
    // still needs it (its load failing with "no scan needs ... any more").
    users.compute(
        ref,
        (r, n) -> {
          AtomicInteger count = n == null ? new AtomicInteger() : n;
          count.incrementAndGet();
          sources.putIfAbsent(r, source);
          return count;
        });
  }

  /** Scan {@code scanId} (an ABM registration) belongs to query {@code query}, until forgotten. */
  void registered(String scanId, String query) {
    queries.put(scanId, query);
  }

  void deregistered(String scanId) {
    queries.remove(scanId);
  }

  void removeSource(ChunkRef ref) {
    users.computeIfPresent(
        ref,
        (r, n) -> {
          if (n.decrementAndGet() > 0) {
            return n;
          }
          sources.remove(r);
          return null;
        });
  }

  /** A future done at the next load or failure (or at once if the buffer is closed). */
  CompletableFuture<Void> change() {
    CompletableFuture<Void> f = new CompletableFuture<>();
    waiters.add(f);
    if (closed) {
      f.complete(null);
    }
    return f;
  }

  void forget(CompletableFuture<Void> waiter) {
    waiters.remove(waiter);
  }

  // The ABM's onWork: something changed, a device may have a chunk to load and a waiting scan a
  // row group to take.
  private void kick() {
    epoch.incrementAndGet();
    for (CompletableFuture<Void> w : waiters) {
      if (waiters.remove(w)) {
        w.complete(null);
      }
    }
    if (closed) {
      return;
    }
    for (Device d : retriever.pool().devices()) {
      spawn(d);
    }
  }

  private void spawn(Device d) {
    if (retriever.scheduled(d)) {
      queueAtScheduler(d);
      return;
    }
    AtomicInteger running = loaders.get(d.id());
    for (int n = running.get(); n < d.spec().threads(); n = running.get()) {
      if (running.compareAndSet(n, n + 1)) {
        submit(d);
        return;
      }
    }
  }

  private void submit(Device d) {
    try {
      retriever.reader(d.id()).execute(() -> load(d));
    } catch (RejectedExecutionException e) {
      loaders.get(d.id()).decrementAndGet(); // the retriever is closing
    }
  }

  /**
   * A cold device with a group scheduler (docs/cold-storage.md): every chunk the ABM decides to
   * load there is queued at once at the device's scheduler, under the query of the scan it was
   * decided for, so the scheduler, not the order of the ABM's decisions, decides when the device
   * switches disk groups (Skipper, Section 4.4); the ABM's budget bounds how many are queued. The
   * scheduler's reader threads run the loads; each load done wakes this again ({@link #kick}).
   */
  private void queueAtScheduler(Device d) {
    for (ChunkRef ref = closed ? null : abm.nextLoad(d.id());
        ref != null;
        ref = closed ? null : abm.nextLoad(d.id())) {
      ChunkRef load = ref;
      Source s = sources.get(ref);
      String query = queries.getOrDefault(String.valueOf(abm.loadedFor(ref)), "shared");
      try {
        Executor reader =
            s == null
                ? Runnable::run // no scan needs it any more: fail it at once
                : retriever.reader(
                    d, s.segment().path(), query, s.table() + "." + ref.column(), this);
        reader.execute(() -> read(d, load));
      } catch (RejectedExecutionException e) {
        abm.failed(ref, new CancellationException("the retriever is closing"));
      }
    }
  }

  // One load, then back to the end of the device's queue (fair to the ordered path's reads).
  private void load(Device d) {
    long seen = epoch.get();
    ChunkRef ref = closed ? null : abm.nextLoad(d.id());
    if (ref == null) {
      loaders.get(d.id()).decrementAndGet();
      // Work that arrived between nextLoad and the decrement found this loader still counted.
      if (epoch.get() != seen && !closed) {
        spawn(d);
      }
      return;
    }
    read(d, ref);
    submit(d);
  }

  // Reads and checks one chunk the ABM reserved, and reports it loaded or failed.
  private void read(Device d, ChunkRef ref) {
    Source s = sources.get(ref);
    try {
      if (s == null) {
        throw new CancellationException("no scan needs " + ref + " any more");
      }
      byte[] bytes =
          ChunkReads.read(
              s.device(), s.file(), s.segment(), s.chunk(), s.group(), s.table(), s.version());
      synchronized (this) {
        bytesPerDevice.merge(d.id(), (long) bytes.length, Long::sum);
      }
      abm.loaded(ref, new Loaded(s, bytes));
    } catch (Exception | Error e) {
      Throwable failure =
          e instanceof CancellationException || e instanceof CorruptTableException
              ? e
              : new CorruptTableException(
                  "shared scan of table "
                      + (s == null ? "?" : s.table())
                      + " failed on column '"
                      + ref.column()
                      + "', device '"
                      + ref.device()
                      + "', file "
                      + ref.file()
                      + ": "
                      + e.getMessage(),
                  e);
      abm.failed(ref, failure);
    }
  }

  @Override
  public void close() {
    closed = true;
    kick();
  }
}
