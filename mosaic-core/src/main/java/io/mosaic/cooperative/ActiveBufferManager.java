package io.mosaic.cooperative;

import io.mosaic.MosaicException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The Active Buffer Manager of Cooperative Scans (Zukowski et al., VLDB 2007, Section 4, DSM
 * variant of Section 6.2), one per retriever: concurrent scans register the row groups they still
 * need (each a {@link GroupNeed} of column chunks on their devices) and take them in whatever order
 * the buffer can give them; each device's reader threads ask {@link #nextLoad} which chunk to read
 * next, so chunks several scans need are read once. The buffer holds at most {@code budgetBytes} of
 * loaded and reserved chunks (a single row group larger than the budget is the one exception: it is
 * admitted alone, so no scan waits forever).
 *
 * <p>Decisions are made per row group (the paper's logical chunk): loading one reserves the bytes
 * of all its missing column chunks at once, each then read by its own device, so no device fills
 * the buffer with halves of row groups no scan can use. This class does no I/O: the caller reads
 * the chunk {@code nextLoad} names and reports {@link #loaded} or {@link #failed}.
 */
public final class ActiveBufferManager {
  // A scan with fewer row groups than this available (or on their way) is starved (paper Figure
  // 3, queryStarved: fewer than 2, the one being processed included).
  private static final int STARVED_BELOW = 2;

  /** What the buffer did: the figures of the paper's Tables 3 and 4. */
  public record Stats(
      long chunksLoaded,
      long bytesLoaded,
      long chunksDelivered,
      long chunksShared,
      long evictions,
      long peakBytes) {}

  private enum State {
    PENDING,
    LOADING,
    READY
  }

  private static final class Entry {
    final ChunkRef ref;
    final String loadedFor;
    final long reserved;
    // The decision that reserved it: chunks of earlier decisions are read first.
    final long decision;
    State state = State.PENDING;
    Object data;
    int pins;
    long lastUse;

    Entry(ChunkRef ref, String loadedFor, long reserved, long decision) {
      this.ref = ref;
      this.loadedFor = loadedFor;
      this.reserved = reserved;
      this.decision = decision;
    }
  }

  /** One row group handed to a scan: the data of its chunks, in the order of the need's list. */
  public record Delivery(GroupNeed need, List<Object> data) {}

  private final SharingPolicy policy;
  private final long budgetBytes;
  private final long starvationBoundNanos;
  private final LongSupplier clock;
  private final Runnable onWork;
  private final Map<ChunkRef, Entry> entries = new HashMap<>();
  private final List<Scan> scans = new ArrayList<>();
  private final Map<String, Integer> elevators = new HashMap<>();
  // The row group of every chunk a registered scan named (a chunk belongs to one row group).
  private final Map<ChunkRef, GroupNeed.GroupKey> groupOf = new HashMap<>();
  private long used;
  private long sequence;
  private long chunksLoaded;
  private long bytesLoaded;
  private long chunksDelivered;
  private long chunksShared;
  private long evictions;
  private long peak;

  /**
   * @param starvationBound a scan waiting longer than this gets the next load, whatever the
   *     policy's preference (fairness: no scan starves)
   * @param clock nanoseconds, for waiting times ({@code System::nanoTime}; tests pass their own)
   * @param onWork called, outside the lock, when a device may have something new to load
   */
  public ActiveBufferManager(
      SharingPolicy policy,
      long budgetBytes,
      long starvationBound,
      TimeUnit unit,
      LongSupplier clock,
      Runnable onWork) {
    if (budgetBytes <= 0) {
      throw MosaicException.invalid(
          "shared scan buffer of " + budgetBytes + " bytes: give a size above 0");
    }
    this.policy = policy;
    this.budgetBytes = budgetBytes;
    this.starvationBoundNanos = unit.toNanos(starvationBound);
    this.clock = clock;
    this.onWork = onWork;
  }

  public SharingPolicy policy() {
    return policy;
  }

  /** Scans registered and not closed. */
  public synchronized int scans() {
    return scans.size();
  }

  /** Chunks pinned by scans now (taken and not released). */
  public synchronized int pinnedChunks() {
    int n = 0;
    for (Entry e : entries.values()) {
      n += e.pins > 0 ? 1 : 0;
    }
    return n;
  }

  /** Bytes of chunks reserved or being loaded (not yet in memory). */
  public synchronized long inFlightBytes() {
    long n = 0;
    for (Entry e : entries.values()) {
      n += e.state == State.READY ? 0 : e.reserved;
    }
    return n;
  }

  public long budgetBytes() {
    return budgetBytes;
  }

  /** Bytes of chunks loaded, being loaded or reserved now. */
  public synchronized long usedBytes() {
    return used;
  }

  public synchronized Stats stats() {
    return new Stats(chunksLoaded, bytesLoaded, chunksDelivered, chunksShared, evictions, peak);
  }

  /**
   * Registers a scan (the paper's CScan) that needs {@code needs}, in its preferred order (the
   * order delivery falls back to, and the order normal follows).
   */
  public Scan register(String id, List<GroupNeed> needs) {
    Scan scan;
    synchronized (this) {
      List<GroupNeed> order = new ArrayList<>(needs);
      if (policy == SharingPolicy.ATTACH) {
        order = attach(order);
      }
      scan = new Scan(id, order);
      scans.add(scan);
      for (GroupNeed g : order) {
        g.chunks().forEach(c -> groupOf.put(c, g.key()));
      }
    }
    onWork.run();
    return scan;
  }

  // ATTACH (Section 3): start where the running scan of the table with most columns in common
  // reads now, then wrap around to the row groups it passed.
  private List<GroupNeed> attach(List<GroupNeed> order) {
    if (order.isEmpty()) {
      return order;
    }
    Set<String> mine = columnsOf(order.get(0));
    Scan best = null;
    int overlap = 0;
    for (Scan s : scans) {
      GroupNeed next = s.remaining.values().stream().findFirst().orElse(null);
      if (next == null || !next.table().equals(order.get(0).table())) {
        continue;
      }
      Set<String> common = new HashSet<>(columnsOf(next));
      common.retainAll(mine);
      if (common.size() > overlap) {
        overlap = common.size();
        best = s;
      }
    }
    if (best == null) {
      return order;
    }
    int at = best.remaining.values().iterator().next().group();
    List<GroupNeed> rotated = new ArrayList<>();
    order.stream().filter(g -> g.group() >= at).forEach(rotated::add);
    order.stream().filter(g -> g.group() < at).forEach(rotated::add);
    return rotated;
  }

  private static Set<String> columnsOf(GroupNeed g) {
    Set<String> columns = new HashSet<>();
    g.chunks().forEach(c -> columns.add(c.column()));
    return columns;
  }

  /**
   * The next chunk a reader thread of {@code device} should read, or null if there is none now (the
   * thread may wait for {@code onWork}). The chunk is reserved in the budget until evicted.
   */
  public ChunkRef nextLoad(String device) {
    ChunkRef chosen;
    synchronized (this) {
      chosen = pending(device);
      if (chosen == null && decide(device)) {
        chosen = pending(device);
      }
      if (chosen != null) {
        entries.get(chosen).state = State.LOADING;
      }
    }
    return chosen;
  }

  // A reserved chunk on the device: of the oldest decision, the smallest first (Section 6.2,
  // column loading order: the more columns arrive early, the sooner a scan can be woken).
  private ChunkRef pending(String device) {
    return entries.values().stream()
        .filter(e -> e.state == State.PENDING && e.ref.device().equals(device))
        .min(Comparator.comparingLong((Entry e) -> e.decision).thenComparing(e -> e.ref.bytes()))
        .map(e -> e.ref)
        .orElse(null);
  }

  /**
   * The id of the scan whose decision reserved {@code ref} (the scan a cold device's scheduler
   * files the load under), or null if it is not reserved.
   */
  public synchronized String loadedFor(ChunkRef ref) {
    Entry e = entries.get(ref);
    return e == null ? null : e.loadedFor;
  }

  /** The chunk's bytes (or what the caller keeps of them) are in memory now. */
  public void loaded(ChunkRef ref, Object data) {
    synchronized (this) {
      Entry e = entries.get(ref);
      if (e == null || e.state != State.LOADING) {
        throw new IllegalStateException(ref + " was not being loaded");
      }
      e.state = State.READY;
      e.data = data;
      e.lastUse = ++sequence;
      chunksLoaded++;
      bytesLoaded += ref.bytes();
      for (Scan s : scans) {
        if (s.id.equals(e.loadedFor)) {
          s.chunksRead++;
          s.bytesRead.merge(ref.device(), ref.bytes(), Long::sum);
        }
      }
      notifyAll();
    }
    onWork.run();
  }

  /** Loading the chunk failed: every scan that needs it gets the failure. */
  public void failed(ChunkRef ref, Throwable failure) {
    synchronized (this) {
      Entry e = entries.remove(ref);
      if (e != null) {
        used -= e.reserved;
      }
      for (Scan s : scans) {
        if (s.needs(ref) && s.failure == null) {
          s.failure = failure;
          s.remaining.clear(); // it needs nothing more loaded: its next take throws
        }
      }
      notifyAll();
    }
    onWork.run();
  }

  // ---- the decision: which row group to load next, for whom

  private record Decision(Scan scan, GroupNeed.GroupKey group, Set<ChunkRef> chunks) {}

  private boolean decide(String device) {
    Decision d =
        switch (policy) {
          case NORMAL, ATTACH -> inOrder(device);
          case ELEVATOR -> elevator(device);
          case RELEVANCE -> relevance(device);
        };
    if (d == null) {
      return false;
    }
    long bytes = d.chunks().stream().mapToLong(ChunkRef::bytes).sum();
    if (!makeRoom(bytes, d)) {
      // Nothing can be evicted now. If nothing is in flight and no scan has a row group to take,
      // nothing would ever free room: empty what no one holds (but the row group's own chunks)
      // and admit the row group past the budget (it is larger than the budget), so every scan
      // finishes.
      if (!stalled()) {
        return false;
      }
      for (Entry e : List.copyOf(entries.values())) {
        // Not the decided row group's own chunks: it is admitted to be completed.
        if (e.pins == 0 && e.state == State.READY && !d.group().equals(groupOf.get(e.ref))) {
          entries.remove(e.ref);
          used -= e.reserved;
          evictions++;
        }
      }
    }
    long decision = ++sequence;
    for (ChunkRef c : d.chunks()) {
      Entry e = new Entry(c, d.scan().id, c.bytes(), decision);
      e.lastUse = decision;
      entries.put(c, e);
      used += c.bytes();
    }
    peak = Math.max(peak, used);
    if (policy == SharingPolicy.ELEVATOR) {
      elevators.put(d.group().table(), d.group().group() + 1);
    }
    return true;
  }

  private boolean stalled() {
    for (Entry e : entries.values()) {
      if (e.state != State.READY || e.pins > 0) {
        return false;
      }
    }
    for (Scan s : scans) {
      if (s.available() > 0) {
        return false;
      }
    }
    return true;
  }

  // NORMAL and ATTACH: the starved scan that waited longest loads the next row group in its own
  // order; only its own columns.
  private Decision inOrder(String device) {
    Scan chosen = null;
    GroupNeed group = null;
    for (Scan s : byWaiting()) {
      if (!s.starved()) {
        continue;
      }
      for (GroupNeed g : s.remaining.values()) {
        if (s.coming(g)) {
          continue;
        }
        if (absent(g.chunks(), device).isEmpty()) {
          break; // its next row group needs nothing of this device: another device serves it
        }
        chosen = s;
        group = g;
        break;
      }
      if (chosen != null) {
        break;
      }
    }
    return chosen == null
        ? null
        : new Decision(chosen, group.key(), new HashSet<>(absent(group.chunks(), null)));
  }

  // ELEVATOR: per table a cursor moves through the row groups; at each, the union of what the
  // starved scans need is loaded, then the cursor moves on (wrapping around at the end).
  private Decision elevator(String device) {
    Map<GroupNeed.GroupKey, Set<ChunkRef>> wanted = new LinkedHashMap<>();
    Scan first = null;
    for (Scan s : byWaiting()) {
      if (!s.starved()) {
        continue;
      }
      for (GroupNeed g : s.remaining.values()) {
        if (!s.coming(g)) {
          wanted.computeIfAbsent(g.key(), k -> new HashSet<>()).addAll(absent(g.chunks(), null));
          first = first == null ? s : first;
        }
      }
    }
    GroupNeed.GroupKey best = null;
    long bestDistance = Long.MAX_VALUE;
    for (var w : wanted.entrySet()) {
      if (w.getValue().stream().noneMatch(c -> c.device().equals(device))) {
        continue;
      }
      int cursor = elevators.getOrDefault(w.getKey().table(), 0);
      long distance = Math.floorMod((long) w.getKey().group() - cursor, 1L << 31);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = w.getKey();
      }
    }
    if (best == null) {
      return null;
    }
    // Every scan needing the row group gets its columns, starved or not: the cursor passes once.
    Set<ChunkRef> chunks = new HashSet<>();
    for (Scan s : scans) {
      GroupNeed g = s.remaining.get(best);
      if (g != null) {
        chunks.addAll(absent(g.chunks(), null));
      }
    }
    return new Decision(first, best, chunks);
  }

  // RELEVANCE (Figures 3 and 11): the starved scan with the highest queryRelevance, and of its
  // row groups the one whose load serves the most starved scans per byte read (loadRelevance);
  // the chunks those scans need of it are loaded together.
  private Decision relevance(String device) {
    List<Scan> starved = scans.stream().filter(Scan::starved).toList();
    long now = clock.getAsLong();
    Scan chosen = null;
    double best = Double.NEGATIVE_INFINITY;
    for (Scan s : starved) {
      if (s.candidates(device).isEmpty()) {
        continue;
      }
      double r = queryRelevance(s, now, starved.size());
      if (chosen == null || r > best) {
        chosen = s;
        best = r;
      }
    }
    boolean prefetch = false;
    if (chosen == null) {
      // No starved scan: fill free room for the scan with the fewest row groups ready, evicting
      // nothing (the paper's ABM idles here; a device left idle is bandwidth lost).
      for (Scan s : byWaiting()) {
        if (!s.candidates(device).isEmpty()
            && (chosen == null || s.available() < chosen.available())) {
          chosen = s;
        }
      }
      prefetch = true;
    }
    if (chosen == null) {
      return null;
    }
    Set<String> columns = chosen.columns();
    GroupNeed bestGroup = null;
    Set<ChunkRef> bestChunks = null;
    double bestLoad = Double.NEGATIVE_INFINITY;
    for (GroupNeed g : chosen.candidates(device)) {
      Set<ChunkRef> chunks = new HashSet<>(absent(g.chunks(), null));
      int interested = 1;
      for (Scan s : starved) {
        GroupNeed other = s.remaining.get(g.key());
        if (s == chosen || other == null || s.coming(other) || !overlaps(columns, s.columns())) {
          continue;
        }
        interested++;
        chunks.addAll(absent(other.chunks(), null));
      }
      long toLoad = chunks.stream().mapToLong(ChunkRef::bytes).sum();
      double load = interested / (double) Math.max(1, toLoad);
      if (load > bestLoad) {
        bestLoad = load;
        bestGroup = g;
        bestChunks = chunks;
      }
    }
    if (prefetch) {
      long bytes = bestChunks.stream().mapToLong(ChunkRef::bytes).sum();
      if (used + bytes > budgetBytes) {
        return null;
      }
    }
    return new Decision(chosen, bestGroup.key(), bestChunks);
  }

  // Short scans first, long waits promoted (Figure 3, queryRelevance); past the starvation bound
  // a scan goes before all that have not waited that long.
  private double queryRelevance(Scan s, long now, int running) {
    long waited = s.blockedSince < 0 ? 0 : now - s.blockedSince;
    double r = -s.remaining.size() + (waited / 1e9) / Math.max(1, running);
    return waited > starvationBoundNanos ? 1e12 + waited : r;
  }

  private static boolean overlaps(Set<String> a, Set<String> b) {
    for (String x : a) {
      if (b.contains(x)) {
        return true;
      }
    }
    return false;
  }

  private List<Scan> byWaiting() {
    long now = clock.getAsLong();
    List<Scan> order = new ArrayList<>(scans);
    order.sort(
        Comparator.comparingLong((Scan s) -> s.blockedSince < 0 ? now : s.blockedSince)
            .thenComparingLong(s -> s.registered));
    return order;
  }

  /** The chunks of the list not loaded, loading or reserved; on {@code device} only if given. */
  private List<ChunkRef> absent(List<ChunkRef> chunks, String device) {
    List<ChunkRef> out = new ArrayList<>();
    for (ChunkRef c : chunks) {
      if (!entries.containsKey(c) && (device == null || c.device().equals(device))) {
        out.add(c);
      }
    }
    return out;
  }

  // ---- eviction

  // Frees room for {@code bytes} by evicting loaded chunks no one holds, least relevant first:
  // chunks no scan needs any more, then (relevance) keepRelevance, fewest almost-starved scans per
  // byte kept, or (the others) least recently used. Chunks the decision's scans need are kept, and
  // so are those of row groups a starved scan can take now.
  private boolean makeRoom(long bytes, Decision d) {
    if (used + bytes <= budgetBytes) {
      return true;
    }
    // Kept: the decided row group, and every row group on its way to or ready for a scan:
    // evicting part of one only makes its scan load it again (and two devices' decisions could
    // then evict each other's row groups for ever).
    Set<GroupNeed.GroupKey> protectedGroups = new HashSet<>();
    protectedGroups.add(d.group());
    for (Scan s : scans) {
      for (GroupNeed g : s.remaining.values()) {
        if (s.coming(g)) {
          protectedGroups.add(g.key());
        }
      }
    }
    List<Entry> victims = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (e.state == State.READY && e.pins == 0 && !protectedGroups.contains(groupOf.get(e.ref))) {
        victims.add(e);
      }
    }
    Map<ChunkRef, Double> keep = new HashMap<>();
    for (Entry e : victims) {
      keep.put(e.ref, keepRelevance(e));
    }
    victims.sort(
        Comparator.comparingDouble((Entry e) -> keep.get(e.ref)).thenComparingLong(e -> e.lastUse));
    long free = budgetBytes - used;
    List<Entry> chosen = new ArrayList<>();
    for (Entry e : victims) {
      if (free >= bytes) {
        break;
      }
      chosen.add(e);
      free += e.reserved;
    }
    if (free < bytes) {
      return false;
    }
    for (Entry e : chosen) {
      entries.remove(e.ref);
      used -= e.reserved;
      evictions++;
    }
    return true;
  }

  private double keepRelevance(Entry e) {
    int interested = 0;
    int almostStarved = 0;
    for (Scan s : scans) {
      if (s.needs(e.ref)) {
        interested++;
        if (s.available() <= STARVED_BELOW) {
          almostStarved++;
        }
      }
    }
    if (interested == 0) {
      return -1; // no scan needs it: first out
    }
    if (policy != SharingPolicy.RELEVANCE) {
      return 0; // then least recently used
    }
    return (almostStarved * (double) scans.size() + interested) / Math.max(1, e.ref.bytes());
  }

  // Drops the row groups of a closed scan from groupOf unless another scan still needs them.
  private void forget(List<GroupNeed> groups) {
    for (GroupNeed g : groups) {
      boolean needed = false;
      for (Scan s : scans) {
        needed |= s.remaining.containsKey(g.key()) || s.held.containsKey(g.key());
      }
      if (!needed) {
        g.chunks().forEach(groupOf::remove);
      }
    }
  }

  // ---- the scans

  /**
   * A registered scan: takes its row groups as they become available, each exactly once, and
   * releases each when done with its data. Closing it gives up the rest (a cancelled query).
   */
  public final class Scan implements AutoCloseable {
    private final String id;
    private final long registered;
    // Row groups not yet handed out, in the scan's preferred order.
    private final LinkedHashMap<GroupNeed.GroupKey, GroupNeed> remaining = new LinkedHashMap<>();
    private final List<GroupNeed> order;
    private final Map<GroupNeed.GroupKey, GroupNeed> held = new HashMap<>();
    private long blockedSince = -1;
    private Throwable failure;
    private boolean closed;
    private long chunksTaken;
    private long chunksShared;
    // Loads decided for this scan (what it cost the devices, whoever else used them).
    private long chunksRead;
    private final Map<String, Long> bytesRead = new LinkedHashMap<>();

    private Scan(String id, List<GroupNeed> order) {
      this.id = id;
      this.registered = ++sequence;
      this.order = order;
      for (GroupNeed g : order) {
        if (remaining.put(g.key(), g) != null) {
          throw new IllegalArgumentException("row group " + g.group() + " twice in scan " + id);
        }
      }
    }

    public String id() {
      return id;
    }

    /** Chunks this scan took, and of them those another scan's load brought in. */
    public long[] chunkCounts() {
      synchronized (ActiveBufferManager.this) {
        return new long[] {chunksTaken, chunksShared};
      }
    }

    /** Chunks loaded for this scan's decisions (read from a device on its behalf). */
    public long chunksRead() {
      synchronized (ActiveBufferManager.this) {
        return chunksRead;
      }
    }

    /** Bytes loaded for this scan's decisions, per device: what the devices read for it. */
    public Map<String, Long> bytesRead() {
      synchronized (ActiveBufferManager.this) {
        return new LinkedHashMap<>(bytesRead);
      }
    }

    /** Row groups not yet taken. */
    public int remainingGroups() {
      synchronized (ActiveBufferManager.this) {
        return remaining.size();
      }
    }

    /**
     * The next row group whose chunks are all loaded, waiting up to the timeout; null when the scan
     * has taken all it needs, or the time ran out (then {@link #remainingGroups()} is above 0).
     */
    public Delivery take(long timeout, TimeUnit unit) throws InterruptedException {
      long deadline = System.nanoTime() + unit.toNanos(timeout);
      Delivery d;
      synchronized (ActiveBufferManager.this) {
        while ((d = takeReady()) == null && !remaining.isEmpty()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return null;
          }
          TimeUnit.NANOSECONDS.timedWait(ActiveBufferManager.this, left);
        }
      }
      if (d != null) {
        onWork.run(); // one row group fewer ready: the scan may be starved now
      }
      return d;
    }

    /** A row group whose chunks are all loaded, without waiting; null if none is. */
    public Delivery poll() {
      Delivery d = takeReady();
      if (d != null) {
        onWork.run();
      }
      return d;
    }

    private Delivery takeReady() {
      synchronized (ActiveBufferManager.this) {
        if (failure != null) {
          throw new CompletionException(failure);
        }
        if (closed) {
          throw new IllegalStateException("scan " + id + " is closed");
        }
        GroupNeed chosen = null;
        double best = Double.NEGATIVE_INFINITY;
        for (GroupNeed g : remaining.values()) {
          if (!ready(g)) {
            if (policy == SharingPolicy.NORMAL || policy == SharingPolicy.ATTACH) {
              break; // these read in the scan's own order: only its next row group will do
            }
            continue;
          }
          if (policy != SharingPolicy.RELEVANCE) {
            chosen = g; // the first in the scan's order (elevator: as the cursor brought it)
            break;
          }
          // useRelevance (Figure 11): bytes it frees per scan still interested in it, so chunks
          // few others want go first and can be evicted.
          int interested = 0;
          for (Scan s : scans) {
            interested += s.remaining.containsKey(g.key()) ? 1 : 0;
          }
          double use = g.bytes() / (double) interested;
          if (use > best) {
            best = use;
            chosen = g;
          }
        }
        if (chosen == null) {
          if (!remaining.isEmpty() && blockedSince < 0) {
            blockedSince = clock.getAsLong(); // waiting from now: queryRelevance counts it
          }
          return null;
        }
        remaining.remove(chosen.key());
        held.put(chosen.key(), chosen);
        List<Object> data = new ArrayList<>();
        for (ChunkRef c : chosen.chunks()) {
          Entry e = entries.get(c);
          e.pins++;
          e.lastUse = ++sequence;
          data.add(e.data);
          chunksDelivered++;
          chunksTaken++;
          if (!e.loadedFor.equals(id)) {
            chunksShared++;
            ActiveBufferManager.this.chunksShared++;
          }
        }
        blockedSince = -1;
        return new Delivery(chosen, data);
      }
    }

    /** The scan is done with the row group's data: its chunks may be evicted. */
    public void release(Delivery d) {
      synchronized (ActiveBufferManager.this) {
        if (held.remove(d.need().key()) == null) {
          throw new IllegalStateException(
              "row group " + d.need().group() + " is not held by scan " + id);
        }
        unpin(d.need());
      }
      onWork.run();
    }

    private void unpin(GroupNeed g) {
      for (ChunkRef c : g.chunks()) {
        Entry e = entries.get(c);
        if (e != null) {
          e.pins--;
        }
      }
    }

    /** Gives up the row groups not taken, and releases those held. */
    @Override
    public void close() {
      synchronized (ActiveBufferManager.this) {
        if (closed) {
          return;
        }
        closed = true;
        held.values().forEach(this::unpin);
        held.clear();
        remaining.clear();
        scans.remove(this);
        // Reservations not started that no other scan needs are given back now (a cancelled
        // query frees its part of the budget); loaded chunks stay as a cache, first to evict.
        for (Entry e : List.copyOf(entries.values())) {
          if (e.state == State.PENDING && scans.stream().noneMatch(s -> s.needs(e.ref))) {
            entries.remove(e.ref);
            used -= e.reserved;
          }
        }
        forget(order);
        ActiveBufferManager.this.notifyAll();
      }
      onWork.run();
    }

    private boolean ready(GroupNeed g) {
      for (ChunkRef c : g.chunks()) {
        Entry e = entries.get(c);
        if (e == null || e.state != State.READY) {
          return false;
        }
      }
      return true;
    }

    // Every chunk loaded or on its way.
    private boolean coming(GroupNeed g) {
      for (ChunkRef c : g.chunks()) {
        if (!entries.containsKey(c)) {
          return false;
        }
      }
      return true;
    }

    // Row groups it can take next, loaded or on their way: for the policies that read in the
    // scan's own order only those at the front count.
    private int available() {
      boolean ordered = policy == SharingPolicy.NORMAL || policy == SharingPolicy.ATTACH;
      int n = 0;
      for (GroupNeed g : remaining.values()) {
        if (coming(g)) {
          n++;
        } else if (ordered) {
          break;
        }
      }
      return n;
    }

    private boolean starved() {
      return !remaining.isEmpty() && available() < STARVED_BELOW;
    }

    private boolean needs(ChunkRef ref) {
      GroupNeed g = remaining.get(groupOf.get(ref));
      return g != null && g.chunks().contains(ref);
    }

    // Row groups with a chunk of this scan not yet loaded or reserved, on the device.
    private List<GroupNeed> candidates(String device) {
      List<GroupNeed> out = new ArrayList<>();
      for (GroupNeed g : remaining.values()) {
        if (!absent(g.chunks(), device).isEmpty()) {
          out.add(g);
        }
      }
      return out;
    }

    private Set<String> columns() {
      return remaining.isEmpty() ? Set.of() : columnsOf(remaining.values().iterator().next());
    }
  }
}
