package io.mosaic.cold;

import io.mosaic.MosaicException;
import io.mosaic.config.GroupPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The request queue of one cold storage device, whose disk groups spin one at a time (Skipper, VLDB
 * 2016, Section 4.4): requests of the active group are served first, all of them before any switch
 * (no preemption); when the active group has none left, the scheduler switches to the group its
 * policy ranks highest. Within a group, requests are returned round-robin across the queries'
 * relations. Not thread-safe: the device's owner serialises calls. It decides only; the caller
 * reads, and pays the switch latency when {@link Served#switched()} says so.
 */
public final class GroupScheduler {
  /** One request to serve now, and whether serving it starts with a group switch. */
  record Served(ColdRequest request, boolean switched) {}

  private final GroupPolicy policy;
  private final int groups;
  private final double k;
  // Pending requests per group, in arrival order.
  private final Map<Integer, List<Pending>> pending = new HashMap<>();
  // Per query: group switches since it was last served (Skipper's W_q), and when it arrived.
  private final Map<String, Integer> waiting = new HashMap<>();
  private final Map<String, Long> arrival = new HashMap<>();
  // Per (query, relation) of the active group: when it was last served, for round-robin.
  private final Map<String, Long> lastServed = new HashMap<>();
  private int active = -1;
  // The last request of the active group's round: later arrivals wait for the next round.
  private long roundEnd;
  private long sequence;
  private long switches;

  private record Pending(ColdRequest request, long seq) {}

  /**
   * @param groups the device's disk groups, numbered 0 to {@code groups - 1}
   * @param k Skipper's K (Eq. 1); 1 maximises fairness (its derivation), 0 is Max-Queries
   */
  public GroupScheduler(GroupPolicy policy, int groups, double k) {
    if (groups < 1) {
      throw MosaicException.invalid(
          "a cold device with " + groups + " disk groups: give at least 1");
    }
    this.policy = policy;
    this.groups = groups;
    this.k = k;
  }

  public GroupScheduler(GroupPolicy policy, int groups) {
    this(policy, groups, 1.0);
  }

  public void submit(ColdRequest r) {
    if (r.group() < 0 || r.group() >= groups) {
      throw MosaicException.invalid(
          "object of query "
              + r.query()
              + " in disk group "
              + r.group()
              + "; the device has groups 0 to "
              + (groups - 1));
    }
    pending.computeIfAbsent(r.group(), g -> new ArrayList<>()).add(new Pending(r, ++sequence));
    waiting.putIfAbsent(r.query(), 0);
    arrival.putIfAbsent(r.query(), sequence);
  }

  /** The active group, -1 before the first switch. */
  public int activeGroup() {
    return active;
  }

  public long switches() {
    return switches;
  }

  public boolean isEmpty() {
    return pending.values().stream().allMatch(List::isEmpty);
  }

  /**
   * Withdraws the pending requests {@code which} accepts (a closed scan's), returned in arrival
   * order; a query left with none waits for nothing.
   */
  public List<ColdRequest> withdraw(java.util.function.Predicate<ColdRequest> which) {
    List<Pending> out = new ArrayList<>();
    for (List<Pending> queue : pending.values()) {
      queue.removeIf(
          p -> {
            boolean drop = which.test(p.request());
            if (drop) {
              out.add(p);
            }
            return drop;
          });
    }
    out.sort(java.util.Comparator.comparingLong(Pending::seq));
    Set<String> queries = new HashSet<>();
    List<ColdRequest> requests = new ArrayList<>();
    for (Pending p : out) {
      requests.add(p.request());
      queries.add(p.request().query());
    }
    queries.forEach(this::forgetIdle);
    return requests;
  }

  /** The request to serve next, or null when none is pending. */
  public Served next() {
    boolean switched = false;
    if (!inRound(pending.getOrDefault(active, List.of()))) {
      int target = target();
      if (target < 0) {
        return null;
      }
      switched = target != active;
      startRound(target);
    }
    List<Pending> queue = pending.get(active);
    // Round-robin over the queries' relations (A.1, B.1, C.1, A.2, ...), oldest first on a tie.
    Pending chosen = null;
    long chosenLast = Long.MAX_VALUE;
    for (Pending p : queue) {
      long last = lastServed.getOrDefault(key(p.request()), 0L);
      if (p.seq() <= roundEnd && (chosen == null || last < chosenLast)) {
        chosen = p;
        chosenLast = last;
      }
    }
    queue.remove(chosen);
    lastServed.put(key(chosen.request()), ++sequence);
    waiting.put(chosen.request().query(), 0);
    forgetIdle(chosen.request().query());
    return new Served(chosen.request(), switched);
  }

  private boolean inRound(List<Pending> queue) {
    for (Pending p : queue) {
      if (p.seq() <= roundEnd) {
        return true;
      }
    }
    return false;
  }

  private static String key(ColdRequest r) {
    return r.query() + '\u0000' + r.relation();
  }

  // A query with no request pending any more waits for nothing.
  private void forgetIdle(String query) {
    for (List<Pending> queue : pending.values()) {
      for (Pending p : queue) {
        if (p.request().query().equals(query)) {
          return;
        }
      }
    }
    waiting.remove(query);
    arrival.remove(query);
  }

  private int target() {
    Map<Integer, Set<String>> queries = new LinkedHashMap<>();
    Map<Integer, Long> oldest = new HashMap<>();
    for (var e : pending.entrySet()) {
      for (Pending p : e.getValue()) {
        queries.computeIfAbsent(e.getKey(), g -> new HashSet<>()).add(p.request().query());
        oldest.merge(e.getKey(), arrival.get(p.request().query()), Math::min);
      }
    }
    int best = -1;
    double bestRank = Double.NEGATIVE_INFINITY;
    for (var e : queries.entrySet()) {
      int g = e.getKey();
      double rank =
          switch (policy) {
            // The query that came first: the smallest arrival ranks highest.
            case FCFS -> -oldest.get(g);
            case MAX_QUERIES -> e.getValue().size();
            case RANK -> {
              double w = 0;
              for (String q : e.getValue()) {
                w += waiting.get(q);
              }
              yield e.getValue().size() + k * w;
            }
          };
      // Ties: the active group (staying costs no switch), else the group whose oldest query came
      // first.
      boolean tieWins =
          rank == bestRank && best != active && (g == active || oldest.get(g) < oldest.get(best));
      if (best < 0 || rank > bestRank || tieWins) {
        best = g;
        bestRank = rank;
      }
    }
    return best;
  }

  // Every query with requests elsewhere waits one more round (W_q counts group switches, Eq. 1; a
  // round that stays on the active group counts too, or a popular group would never let go).
  private void startRound(int group) {
    if (group != active) {
      switches++;
      active = group;
    }
    roundEnd = sequence;
    lastServed.clear();
    Set<String> served = new HashSet<>();
    for (Pending p : pending.get(group)) {
      served.add(p.request().query());
    }
    for (String q : waiting.keySet()) {
      if (!served.contains(q)) {
        waiting.merge(q, 1, Integer::sum);
      }
    }
  }
}
