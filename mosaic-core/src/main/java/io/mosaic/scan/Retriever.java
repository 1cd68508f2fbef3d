package io.mosaic.scan;

import io.mosaic.MosaicException;
import io.mosaic.cold.ColdDispatcher;
import io.mosaic.config.ColdSpec;
import io.mosaic.cooperative.ActiveBufferManager;
import io.mosaic.cooperative.SharingPolicy;
import io.mosaic.device.Device;
import io.mosaic.device.DevicePool;
import io.mosaic.table.MosaicTable;
import io.mosaic.table.TablePin;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The data retriever (paper Section 3.3, DESIGN section 5), one per device pool and process: every
 * device has its own reader pool of exactly its {@code threads} threads (an HDD gets one, so its
 * reads stay sequential), shared by all scans in FIFO order, and one decoding pool turns raw column
 * chunks into Arrow vectors. Scans read the columns of a row group from their devices in parallel
 * and deliver batches in row-group order; under a sharing policy other than {@code normal}
 * concurrent scans share their reads through an Active Buffer Manager and take row groups in
 * whatever order it loads them ({@link SharedBuffer}, docs/cooperative-scans.md).
 *
 * <p>A cold device with a group scheduler ({@code cold = { ..., policy = "rank" }}) has instead a
 * {@link ColdDispatcher}: every chunk read of it is tagged with its query, disk group and relation,
 * and its reader threads serve the reads in the order the scheduler gives (Skipper, VLDB 2016,
 * Section 4.4; docs/cold-storage.md).
 */
public final class Retriever implements AutoCloseable {
  private final DevicePool pool;
  private final Map<String, ExecutorService> readers = new LinkedHashMap<>();
  private final Map<String, ColdDispatcher> cold = new LinkedHashMap<>();
  private final ExecutorService decoders;
  private final FooterCache footers = new FooterCache();
  private final PageIndexCache pageIndexes = new PageIndexCache();
  private final BufferAllocator allocator = new RootAllocator();

  /**
   * Default memory for decoded vectors kept between scans: a few row groups of decoded columns
   * (lineitem SF 1: 16 MiB per decimal column and row group).
   */
  public static final long DEFAULT_POOLED_VECTOR_BYTES = 256L << 20;

  /**
   * Default memory of the shared scan buffer (docs/cooperative-scans.md): raw column chunks loaded
   * for concurrent scans under a sharing policy other than {@code normal}.
   */
  public static final long DEFAULT_SHARED_BUFFER_BYTES = 256L << 20;

  private final VectorPool vectors;
  private final SharingPolicy sharing;
  private final long sharedBufferBytes;
  // One shared buffer per policy a scan asked for (a session may choose its own), made on demand.
  private final Map<SharingPolicy, SharedBuffer> shared = new EnumMap<>(SharingPolicy.class);

  public Retriever(DevicePool pool) {
    this(pool, Runtime.getRuntime().availableProcessors(), DEFAULT_POOLED_VECTOR_BYTES);
  }

  public Retriever(DevicePool pool, int decodeThreads, long pooledVectorBytes) {
    this(pool, decodeThreads, pooledVectorBytes, SharingPolicy.NORMAL, DEFAULT_SHARED_BUFFER_BYTES);
  }

  /**
   * @param decodeThreads threads decompressing and decoding chunks (at least 1)
   * @param pooledVectorBytes memory for decoded vectors kept for later scans; 0 keeps none
   * @param sharing how scans that do not choose share their reads ({@link ScanRequest#sharing});
   *     {@code normal}: each reads its own, in row-group order
   * @param sharedBufferBytes memory of the shared scan buffer of each policy other than normal
   */
  public Retriever(
      DevicePool pool,
      int decodeThreads,
      long pooledVectorBytes,
      SharingPolicy sharing,
      long sharedBufferBytes) {
    if (decodeThreads < 1) {
      throw MosaicException.invalid(
          "decode threads = " + decodeThreads + ": a retriever needs at least 1");
    }
    if (pooledVectorBytes < 0) {
      throw MosaicException.invalid(
          "pooled vector memory = " + pooledVectorBytes + " bytes: give 0 or more");
    }
    if (sharedBufferBytes <= 0) {
      throw MosaicException.invalid(
          "shared scan buffer = "
              + sharedBufferBytes
              + " bytes: give a size above 0 (it holds the chunks concurrent scans share)");
    }
    this.sharing = java.util.Objects.requireNonNull(sharing, "sharing");
    this.sharedBufferBytes = sharedBufferBytes;
    this.pool = pool;
    this.vectors = new VectorPool(allocator, pooledVectorBytes);
    for (Device d : pool.devices()) {
      ColdSpec spec = d.spec().cold().orElse(null);
      if (spec != null && spec.scheduler().isPresent()) {
        cold.put(
            d.id(),
            new ColdDispatcher(
                d.id(),
                spec.scheduler().get(),
                spec.groups(),
                d.spec().threads(),
                e ->
                    Thread.currentThread()
                        .getUncaughtExceptionHandler()
                        .uncaughtException(Thread.currentThread(), e)));
      } else {
        readers.put(
            d.id(),
            Executors.newFixedThreadPool(d.spec().threads(), named("mosaic-read-" + d.id())));
      }
    }
    this.decoders = Executors.newFixedThreadPool(decodeThreads, named("mosaic-decode"));
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  public DevicePool pool() {
    return pool;
  }

  /** Scans the latest version of {@code table} (pinned for the scan's lifetime). */
  public Scan scan(MosaicTable table, ScanRequest request) {
    return new Scan(this, table, table.pin(), true, request);
  }

  /** Scans a version the caller has pinned (engines pin once per query, then split). */
  public Scan scan(MosaicTable table, TablePin pin, ScanRequest request) {
    return new Scan(this, table, pin, false, request);
  }

  /**
   * Scans a version the caller has pinned in chunk mode: row groups come as the raw, checked bytes
   * of their chunks ({@link Scan#nextChunks()}, {@link Scan#ready()}), read ahead on the devices'
   * reader pools within the request's byte budget, and the engine decodes them on its own threads
   * (Trino's driver threads, lazily, straight into its blocks). The request's {@code form} does not
   * apply.
   */
  public Scan chunks(MosaicTable table, TablePin pin, ScanRequest request) {
    return new Scan(this, table, pin, false, request, true);
  }

  /**
   * Where the scan of {@code state} takes its row groups from ({@code raw}: chunk mode): the shared
   * buffer of its sharing policy (the request's, else this retriever's), unless the policy is
   * normal, the request asks for table order, there is nothing to read, or a chunk-mode scan's page
   * pruning would rule out much of what it reads ({@link ScanState#prunesPages}); else its own
   * reads ({@link ReadAhead}).
   */
  RowGroupSource source(ScanState state, boolean raw) {
    ScanRequest request = state.request();
    SharingPolicy policy = request.sharing() != null ? request.sharing() : sharing;
    SharedBuffer buffer =
        request.ordered()
                || state.columns().isEmpty()
                || state.groups().isEmpty()
                || policy == SharingPolicy.NORMAL
                || (raw && state.prunesPages())
            ? null
            : shared(policy);
    return buffer != null ? new SharedReads(state, buffer, raw) : new ReadAhead(state, raw);
  }

  /** How scans that do not choose share their reads. */
  public SharingPolicy sharing() {
    return sharing;
  }

  public long sharedBufferBytes() {
    return sharedBufferBytes;
  }

  /** The shared buffer of {@code policy}, made on first use; null for normal (no sharing). */
  synchronized SharedBuffer shared(SharingPolicy policy) {
    if (policy == SharingPolicy.NORMAL) {
      return null;
    }
    return shared.computeIfAbsent(policy, p -> new SharedBuffer(this, p, sharedBufferBytes));
  }

  /**
   * What the shared buffer of {@code policy} did so far (loads, bytes, chunks shared, peak bytes),
   * or null if no scan used it.
   */
  public synchronized ActiveBufferManager.Stats sharedStats(SharingPolicy policy) {
    SharedBuffer b = shared.get(policy);
    return b == null ? null : b.abm().stats();
  }

  /** The shared buffer of {@code policy}'s manager, or null if no scan used it (tests). */
  synchronized ActiveBufferManager sharedManager(SharingPolicy policy) {
    SharedBuffer b = shared.get(policy);
    return b == null ? null : b.abm();
  }

  ExecutorService reader(String device) {
    return readers.get(device);
  }

  /**
   * Where a chunk read of the file {@code path} (relative to {@code device}'s directory) runs: the
   * device's reader pool, or for a scheduled cold device its dispatcher, which queues the read
   * under its query, disk group and relation ({@code table.column}) until the scheduler serves it.
   */
  Executor reader(Device device, String path, String query, String relation, Object owner) {
    ColdDispatcher d = cold.get(device.id());
    if (d == null) {
      return readers.get(device.id());
    }
    int group = device.spec().cold().orElseThrow().groupOf(path);
    return read -> d.execute(query, group, relation, owner, read);
  }

  /**
   * Runs at once the reads {@code owner} (a closed scan) still has queued at cold devices' group
   * schedulers: they see the scan closed and return without reading.
   */
  void withdraw(Object owner) {
    cold.values().forEach(d -> d.withdraw(owner));
  }

  /** Whether {@code device}'s reads go through a group scheduler ({@link #reader}). */
  boolean scheduled(Device device) {
    return cold.containsKey(device.id());
  }

  /** Group switches the scheduler of cold device {@code device} decided; 0 without one. */
  public long scheduledSwitches(String device) {
    ColdDispatcher d = cold.get(device);
    return d == null ? 0 : d.switches();
  }

  ExecutorService decoders() {
    return decoders;
  }

  FooterCache footers() {
    return footers;
  }

  PageIndexCache pageIndexes() {
    return pageIndexes;
  }

  BufferAllocator allocator() {
    return allocator;
  }

  VectorPool vectors() {
    return vectors;
  }

  /** Bytes of decoded vectors kept for later scans ({@link VectorPool}). */
  public long pooledBytes() {
    return vectors.bytes();
  }

  @Override
  public void close() {
    synchronized (this) {
      shared.values().forEach(SharedBuffer::close);
    }
    readers.values().forEach(ExecutorService::shutdownNow);
    cold.values().forEach(ColdDispatcher::close);
    decoders.shutdownNow();
    vectors.close();
    allocator.close();
  }
}
