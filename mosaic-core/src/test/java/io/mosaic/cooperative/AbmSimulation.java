package io.mosaic.cooperative;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A discrete-event run of the {@link ActiveBufferManager} on virtual time: devices with reader
 * threads, a bandwidth and a latency per read; streams of queries, each query a scan of a range of
 * a table's row groups over some columns that processes its data at a CPU rate. No I/O and no
 * sleeping, so a run is exact and repeatable: it checks the manager's decisions (every scan gets
 * exactly its row groups, the budget holds, no scan waits past the bound) and counts what each
 * policy reads (the paper's Table 3 setting, scaled down).
 */
final class AbmSimulation {
  record Device(String id, int threads, double bytesPerSecond, long latencyNanos) {}

  /** A table: row groups of equal chunks, each column on one device. */
  record Table(String name, int groups, Map<String, Long> chunkBytes, Map<String, String> device) {
    GroupNeed need(int group, Set<String> columns) {
      List<ChunkRef> chunks = new ArrayList<>();
      for (String c : chunkBytes.keySet()) {
        if (columns.contains(c)) {
          long bytes = chunkBytes.get(c);
          chunks.add(new ChunkRef(c, device.get(c), name + "/" + c, group * bytes, bytes));
        }
      }
      return new GroupNeed(name, group, chunks);
    }
  }

  /**
   * One query: a scan of row groups {@code [from, to)} over {@code columns}, processing its bytes
   * at {@code cpuBytesPerSecond}; {@code cancelAfter} row groups taken, it is cancelled (-1:
   * never).
   */
  record Query(
      String type,
      Set<String> columns,
      int from,
      int to,
      double cpuBytesPerSecond,
      int cancelAfter) {}

  /** What a run measured. */
  record Result(
      ActiveBufferManager.Stats stats,
      List<Double> streamSeconds,
      List<QueryRun> queries,
      Map<String, List<Integer>> received,
      Map<String, List<Integer>> expected,
      long maxUsedBytes,
      long maxBlockedNanos) {}

  /** One query's time from registration to its last row group. */
  record QueryRun(Query query, double seconds) {}

  private final SharingPolicy policy;
  private final long budget;
  private final long starvationBoundNanos;
  private final List<Device> devices;
  private final Table table;
  private long now;

  AbmSimulation(
      SharingPolicy policy,
      long budget,
      long starvationBoundNanos,
      List<Device> devices,
      Table table) {
    this.policy = policy;
    this.budget = budget;
    this.starvationBoundNanos = starvationBoundNanos;
    this.devices = devices;
    this.table = table;
  }

  private record Event(long at, long seq, Runnable action) {}

  private final class Running {
    final Query query;
    final int stream;
    final ActiveBufferManager.Scan scan;
    final long started;
    boolean busy;
    int taken;
    long blockedFrom = -1;

    Running(Query query, int stream, ActiveBufferManager.Scan scan) {
      this.query = query;
      this.stream = stream;
      this.scan = scan;
      this.started = now;
    }
  }

  /** Runs the streams, stream {@code i} starting at {@code i * gapNanos}. */
  Result run(List<List<Query>> streams, long gapNanos) {
    ActiveBufferManager abm =
        new ActiveBufferManager(
            policy, budget, starvationBoundNanos, TimeUnit.NANOSECONDS, () -> now, () -> {});
    PriorityQueue<Event> events =
        new PriorityQueue<>(
            (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    long[] seq = {0};
    Map<String, Integer> freeThreads = new HashMap<>();
    devices.forEach(d -> freeThreads.put(d.id(), d.threads()));
    Map<String, Device> byId = new HashMap<>();
    devices.forEach(d -> byId.put(d.id(), d));
    List<Running> running = new ArrayList<>();
    int[] next = new int[streams.size()];
    long[] streamStart = new long[streams.size()];
    double[] streamSeconds = new double[streams.size()];
    List<QueryRun> querySeconds = new ArrayList<>();
    Map<String, List<Integer>> received = new HashMap<>();
    Map<String, List<Integer>> expected = new HashMap<>();
    long[] maxUsed = {0};
    long[] maxBlocked = {0};
    int[] ids = {0};

    Runnable[] startNext = new Runnable[1];
    java.util.function.IntConsumer start =
        s -> {
          Query q = streams.get(s).get(next[s]++);
          String id = "s" + s + "q" + next[s] + "#" + ids[0]++;
          List<GroupNeed> needs = new ArrayList<>();
          List<Integer> groups = new ArrayList<>();
          for (int g = q.from(); g < q.to(); g++) {
            needs.add(table.need(g, q.columns()));
            groups.add(g);
          }
          expected.put(id, q.cancelAfter() < 0 ? groups : null);
          received.put(id, new ArrayList<>());
          running.add(new Running(q, s, abm.register(id, needs)));
        };
    for (int s = 0; s < streams.size(); s++) {
      int stream = s;
      events.add(
          new Event(
              s * gapNanos,
              seq[0]++,
              () -> {
                streamStart[stream] = now;
                start.accept(stream);
              }));
    }
    long loads = 0;
    long needed = 0;
    for (List<Query> stream : streams) {
      for (Query q : stream) {
        needed += (long) (q.to() - q.from()) * q.columns().size();
      }
    }
    while (!events.isEmpty()) {
      Event e = events.poll();
      now = e.at;
      e.action.run();
      // Settle: every idle scan asks for a row group, every free reader thread for a load.
      boolean changed = true;
      while (changed) {
        changed = false;
        for (Running r : new ArrayList<>(running)) {
          if (r.busy) {
            continue;
          }
          if (r.query.cancelAfter() >= 0 && r.taken >= r.query.cancelAfter()) {
            r.scan.close();
            finish(r, running, querySeconds, streamSeconds, streamStart, next, streams, start);
            changed = true;
            continue;
          }
          if (r.scan.remainingGroups() == 0) {
            r.scan.close();
            finish(r, running, querySeconds, streamSeconds, streamStart, next, streams, start);
            changed = true;
            continue;
          }
          ActiveBufferManager.Delivery d = r.scan.poll();
          if (d == null) {
            if (r.blockedFrom < 0) {
              r.blockedFrom = now;
            }
            continue;
          }
          if (r.blockedFrom >= 0) {
            maxBlocked[0] = Math.max(maxBlocked[0], now - r.blockedFrom);
            r.blockedFrom = -1;
          }
          changed = true;
          r.busy = true;
          r.taken++;
          received.get(r.scan.id()).add(d.need().group());
          for (int i = 0; i < d.data().size(); i++) {
            if (!d.data().get(i).equals(d.need().chunks().get(i))) {
              throw new AssertionError("scan " + r.scan.id() + " got another chunk's data");
            }
          }
          long cpu = (long) (d.need().bytes() / r.query.cpuBytesPerSecond() * 1e9);
          events.add(
              new Event(
                  now + cpu,
                  seq[0]++,
                  () -> {
                    r.busy = false;
                    r.scan.release(d);
                  }));
        }
        for (Device d : devices) {
          while (freeThreads.get(d.id()) > 0) {
            ChunkRef c = abm.nextLoad(d.id());
            if (c == null) {
              break;
            }
            changed = true;
            if (++loads > 50 * needed) {
              throw new AssertionError(
                  policy
                      + ": "
                      + loads
                      + " loads for "
                      + needed
                      + " chunks needed: a livelock, at "
                      + now
                      + " ns, buffer "
                      + abm.usedBytes()
                      + " bytes; last "
                      + c);
            }
            freeThreads.merge(d.id(), -1, Integer::sum);
            long done = now + d.latencyNanos() + (long) (c.bytes() / d.bytesPerSecond() * 1e9);
            events.add(
                new Event(
                    done,
                    seq[0]++,
                    () -> {
                      abm.loaded(c, c);
                      freeThreads.merge(c.device(), 1, Integer::sum);
                    }));
          }
        }
        maxUsed[0] = Math.max(maxUsed[0], abm.usedBytes());
      }
    }
    if (!running.isEmpty()) {
      throw new AssertionError(
          policy
              + ": scans never finished (starved): "
              + running.stream().map(r -> r.scan.id()).toList());
    }
    List<Double> streamList = new ArrayList<>();
    for (double s : streamSeconds) {
      streamList.add(s);
    }
    return new Result(
        abm.stats(), streamList, querySeconds, received, expected, maxUsed[0], maxBlocked[0]);
  }

  private void finish(
      Running r,
      List<Running> running,
      List<QueryRun> querySeconds,
      double[] streamSeconds,
      long[] streamStart,
      int[] next,
      List<List<Query>> streams,
      java.util.function.IntConsumer start) {
    running.remove(r);
    querySeconds.add(new QueryRun(r.query, (now - r.started) / 1e9));
    if (next[r.stream] < streams.get(r.stream).size()) {
      start.accept(r.stream);
    } else {
      streamSeconds[r.stream] = (now - streamStart[r.stream]) / 1e9;
    }
  }

  /** Distinct groups check helper: the groups a scan received, as a set. */
  static Set<Integer> asSet(List<Integer> groups) {
    return new HashSet<>(groups);
  }
}
