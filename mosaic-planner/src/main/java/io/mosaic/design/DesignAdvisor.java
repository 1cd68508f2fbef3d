package io.mosaic.design;

import io.mosaic.config.Bandwidth;
import io.mosaic.config.Codec;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.DistinctScan;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Identifies a transformation from the current design to a target one (LOPT's placement for the
 * current trace epoch) and orders its steps for a schedule (Physical Design Management in Ceph,
 * Section IV): working set first, that is the move that saves the most predicted workload time per
 * byte written goes next, given the moves before it. A move into a device that is full now is
 * scored together with the moves out of that device that make room for it (its gain over the bytes
 * of all of them), and those evictions run right before it, so the evictions that unblock the
 * biggest gain go first rather than in the order they were found. It proposes the transformation
 * only when the benefit over the horizon exceeds its cost by the payoff factor, and says why not
 * otherwise.
 */
public final class DesignAdvisor {
  private DesignAdvisor() {}

  public static DesignProposal propose(
      CostModel model,
      Workload workload,
      Placement current,
      Placement target,
      DesignOptions options) {
    return propose(model, workload, new Current(current, Map.of()), target, options);
  }

  /**
   * As {@link #propose(CostModel, Workload, Placement, Placement, DesignOptions)}; besides the
   * moves to {@code target}, codec changes of the columns the workload reads on their devices are
   * candidates (docs/physical-design.md, "Codec changes"), ordered among the moves by the same
   * score, when the model has a CPU model (the decoding rate per codec that a codec change trades
   * against the bytes read, Eq. 3 of docs/cost-model.md); without one the model has no decoding
   * term and no codec change is proposed.
   *
   * @param current where each column is now, and the codecs of columns stored with another codec
   *     than their device's ({@code column.<name>.codec})
   */
  public static DesignProposal propose(
      CostModel model,
      Workload workload,
      Current current,
      Placement target,
      DesignOptions options) {
    return propose(model, workload, current, target, options, null);
  }

  /**
   * As {@link #propose(CostModel, Workload, Current, Placement, DesignOptions)}, with a re-sort
   * {@link SortAdvisor} identified from the trace: priced on the design the other steps leave and
   * proposed as the last step when it saves time (it rewrites every column where they put it).
   *
   * @param sort the identification, or null for none
   */
  public static DesignProposal propose(
      CostModel model,
      Workload workload,
      Current current,
      Placement target,
      DesignOptions options,
      SortAdvisor.Identification sort) {
    // Each device with another codec is a variant the model can price: same rates, capacity and
    // seek, the codec's ratio (measured for the column when it was stored so) and decoding rate.
    Priced priced = new Priced(model, workload);
    Map<ColumnRef, String> now = new LinkedHashMap<>(current.placement().deviceOf());
    current
        .codecs()
        .forEach(
            (c, codec) -> {
              String device = now.get(c);
              if (device != null && model.device(device).codec() != codec) {
                now.put(c, variant(device, codec));
              }
            });
    Placement start = new Placement(now);
    Map<ColumnRef, String> pending = new LinkedHashMap<>();
    target
        .deviceOf()
        .forEach(
            (c, d) -> {
              if (!d.equals(device(now.get(c)))) {
                pending.put(c, d);
              }
            });
    Set<ColumnRef> read = new LinkedHashSet<>();
    workload.scans().forEach(scan -> read.addAll(scan.sortedColumns()));
    Set<ColumnRef> recoded = new HashSet<>();
    // Columns whose best codec change, last priced, did not pay for itself.
    Set<ColumnRef> unpaid = new LinkedHashSet<>();
    double secondsNow = priced.time(start.deviceOf());
    Map<String, Long> usedAtStart = new HashMap<>();
    model.devices().forEach(d -> usedAtStart.put(d.id(), 0L));
    now.forEach(
        (c, d) -> usedAtStart.merge(device(d), model.storedBytes(priced.device(d), c), Long::sum));
    // The greedy pass: groups in the order of their gain per byte, each given the ones before it.
    Replay greedy = new Replay(model, priced, start.deviceOf(), usedAtStart, secondsNow);
    Map<String, Long> used = greedy.used;
    Map<ColumnRef, String> at = greedy.now;
    List<List<Map.Entry<ColumnRef, String>>> groups = new ArrayList<>();
    double seconds = secondsNow;
    while (true) {
      // The next group: a move or codec change that fits now, or a move into a full device
      // together with the evictions that make room for it, best gain per byte written first
      // (Section IV, "working set first": an eviction is worth what the move it unblocks gains).
      List<Map.Entry<ColumnRef, String>> best = null;
      double bestScore = Double.NEGATIVE_INFINITY;
      List<Map.Entry<ColumnRef, String>> candidates = new ArrayList<>(pending.entrySet());
      if (model.cpu().isPresent()) {
        // A codec change of a column the workload reads, on the device it is on: once per column,
        // after its move, and only when it saves time (a move in the target is made regardless).
        for (ColumnRef c : read) {
          if (pending.containsKey(c) || recoded.contains(c) || !at.containsKey(c)) {
            continue;
          }
          // Of the column's codecs, the one its scans are fastest with (not the cheapest to
          // write: the column is re-encoded once).
          String device = device(at.get(c));
          String fastest = null;
          double fastestSeconds = Double.POSITIVE_INFINITY;
          for (Codec codec : Codec.values()) {
            if (codec != model.device(device).codec()
                && !model.cpu().orElseThrow().decode().containsKey(codec)) {
              continue; // the CPU model has no decoding rate to price it with (not calibrated)
            }
            String v = codec == model.device(device).codec() ? device : variant(device, codec);
            Map<ColumnRef, String> tried = new LinkedHashMap<>(at);
            tried.put(c, v);
            double after = priced.time(tried);
            if (after < fastestSeconds - 1e-12 * Math.max(1, after)) {
              fastest = v;
              fastestSeconds = after;
            }
          }
          if (fastest != null && !fastest.equals(at.get(c))) {
            candidates.add(Map.entry(c, fastest));
          }
        }
      }
      for (var e : candidates) {
        DeviceProfile to = priced.device(e.getValue());
        long write = model.storedBytes(to, e.getKey());
        String toDevice = device(e.getValue());
        boolean move = pending.containsKey(e.getKey());
        List<Map.Entry<ColumnRef, String>> group;
        if (used.get(toDevice) + write <= to.capacityBytes()) {
          group = List.of(e);
        } else if (move) {
          group = withEvictions(e, write, to, model, priced, at, used, pending);
          if (group == null) {
            continue; // no room yet, and the moves out of its device cannot make it now
          }
        } else {
          continue; // a codec change waits for room like any write
        }
        Map<ColumnRef, String> tried = new LinkedHashMap<>(at);
        for (var m : group) {
          tried.put(m.getKey(), m.getValue());
        }
        double after = priced.time(tried);
        if (!move
            && (seconds - after) * options.horizonRuns()
                < options.payoffFactor()
                        * stepCost(model, priced.device(at.get(e.getKey())), to, e.getKey())
                    + 1e-12 * Math.max(1, seconds)) {
          // A codec change is optional (LOPT's target does not ask for it): it is a step only
          // when it pays for itself over the horizon by the payoff factor, as the whole
          // transformation must, not as a rider on the moves' benefit.
          unpaid.add(e.getKey());
          continue;
        }
        unpaid.remove(e.getKey());
        double score = (seconds - after) / Math.max(1, written(group, model, priced));
        if (best == null || score > bestScore) {
          best = group;
          bestScore = score;
        }
      }
      if (best == null && pending.isEmpty()) {
        break;
      }
      if (best == null) {
        // Every remaining move waits for room the others need first (a swap between full
        // devices): not a plan a schedule can run step by step.
        return new DesignProposal(
            greedy.steps,
            secondsNow,
            model.totalTime(workload, target),
            options,
            greedy.cost,
            false,
            "the remaining "
                + pending.size()
                + " moves need room on devices that only they would free (e.g. a swap between"
                + " full devices): free space on "
                + String.join(", ", pending.values().stream().distinct().toList())
                + " first");
      }
      for (var m : best) {
        if (pending.remove(m.getKey()) == null) {
          recoded.add(m.getKey());
          unpaid.remove(m.getKey());
        }
      }
      if (!greedy.apply(best)) {
        throw new IllegalStateException("a group chosen to fit does not: " + best);
      }
      groups.add(best);
      seconds = greedy.seconds;
    }
    // The working set first: the groups that reach its share of the benefit with the fewest bytes,
    // which the greedy order, looking one group ahead, can miss (a large move that alone brings
    // most of the benefit, then one more whose gain per byte is below that of small ones).
    Replay plan = greedy;
    List<List<Map.Entry<ColumnRef, String>>> ordered =
        workingSetFirst(
            groups,
            greedy.steps,
            model,
            priced,
            start.deviceOf(),
            usedAtStart,
            secondsNow,
            seconds);
    if (ordered != groups) {
      Replay reordered = new Replay(model, priced, start.deviceOf(), usedAtStart, secondsNow);
      if (ordered.stream().allMatch(reordered::apply)) {
        plan = reordered;
      }
    }
    List<MoveStep> steps = plan.steps;
    double cost = plan.cost;
    now.clear();
    now.putAll(plan.now);
    seconds = plan.seconds;
    Map<String, Long> usedAfter = plan.used;
    String sortWhy = "";
    if (sort != null && sort.candidate().isEmpty()) {
      sortWhy = "; no re-sort: " + sort.why();
    } else if (sort != null) {
      SortAdvisor.SortCandidate c = sort.candidate().get();
      double gain = 0;
      for (SortAdvisor.ScanSkip scan : c.scans()) {
        Set<ColumnRef> refs = new LinkedHashSet<>();
        scan.columns().forEach(col -> refs.add(new ColumnRef(c.table(), col)));
        gain +=
            model.scanTime(new DistinctScan(refs, 1), col -> priced.device(now.get(col)))
                * c.savedFraction(scan);
      }
      // The re-sort reads, decodes, encodes and writes every column of the table where it is, and
      // holds both copies until its commit.
      double sortCost = 0;
      long bytes = 0;
      Map<String, Long> in = new HashMap<>();
      for (var e : now.entrySet()) {
        if (e.getKey().table().equals(c.table())) {
          DeviceProfile d = priced.device(e.getValue());
          long stored = model.storedBytes(d, e.getKey());
          bytes += stored;
          in.merge(device(d.id()), stored, Long::sum);
          sortCost += 2 * d.raw().secondsFor(stored) + 2 * model.cpuTime(d, e.getKey());
        }
      }
      String full =
          in.entrySet().stream()
              .filter(
                  e ->
                      usedAfter.get(e.getKey()) + e.getValue()
                          > model.device(e.getKey()).capacityBytes())
              .map(Map.Entry::getKey)
              .findFirst()
              .orElse(null);
      if (gain <= 0) {
        sortWhy = "; no re-sort by " + c.column() + ": it saves nothing (" + sort.why() + ")";
      } else if (full != null) {
        sortWhy =
            "; no re-sort by "
                + c.column()
                + ": device "
                + full
                + " has no room for a second copy of its columns until the commit";
      } else {
        steps.add(
            new MoveStep(
                new ColumnRef(c.table(), c.column()),
                MoveStep.ALL_DEVICES,
                MoveStep.ALL_DEVICES,
                bytes,
                bytes,
                sortCost,
                gain,
                seconds - gain,
                List.of(),
                StepKind.SORT,
                null));
        seconds -= gain;
        cost += sortCost;
        sortWhy = "; re-sort by " + sort.why();
      }
    }
    double benefit = (secondsNow - seconds) * options.horizonRuns();
    boolean worthIt = benefit > 0 && benefit >= options.payoffFactor() * cost;
    long moves = steps.stream().filter(st -> st.kind() == StepKind.MOVE).count();
    long codecs = steps.stream().filter(st -> st.kind() == StepKind.CODEC).count();
    boolean sorts = steps.stream().anyMatch(st -> st.kind() == StepKind.SORT);
    String reason =
        String.format(
            Locale.ROOT,
            "%s: %d moves%s%s (%,d bytes written) cost %.3f s; they save %.3f s per workload run"
                + " (%.3f s -> %.3f s), %.3f s over %s runs, %s %.1fx the cost%s",
            worthIt ? "worth it" : "not worth it",
            moves,
            codecs == 0 ? "" : " and " + codecs + " codec changes",
            sorts ? " and a re-sort" : "",
            steps.stream().mapToLong(MoveStep::writeBytes).sum(),
            cost,
            secondsNow - seconds,
            secondsNow,
            seconds,
            benefit,
            fmt(options.horizonRuns()),
            worthIt ? "at least" : "less than",
            options.payoffFactor(),
            sortWhy);
    if (!unpaid.isEmpty()) {
      reason +=
          String.format(
              Locale.ROOT,
              "; %d codec changes left out (%s): each would save less than %.1fx its own cost over"
                  + " %s runs",
              unpaid.size(),
              String.join(", ", unpaid.stream().map(ColumnRef::toString).toList()),
              options.payoffFactor(),
              fmt(options.horizonRuns()));
    }
    return new DesignProposal(steps, secondsNow, seconds, options, cost, worthIt, reason);
  }

  /**
   * Where each column is now: its device, and for a column stored with another codec than its
   * device's (table property {@code column.<name>.codec}) that codec.
   */
  public record Current(Placement placement, Map<ColumnRef, Codec> codecs) {
    public Current {
      codecs = Map.copyOf(codecs);
    }
  }

  /**
   * The share of a transformation's benefit its working set brings (docs/physical-design.md,
   * "Identification": 90 %).
   */
  public static final double WORKING_SET_SHARE = 0.9;

  // Above this many groups the working set is the greedy order's prefix: the search below tries
  // every subset, 2^n of them.
  private static final int WORKING_SET_SEARCH_LIMIT = 16;

  /**
   * The groups with the working set first: of the subsets of groups that reach {@link
   * #WORKING_SET_SHARE} of the benefit, the one with the fewest bytes written, its groups in the
   * greedy order, then the others in that order; {@code groups} itself when its own prefix is no
   * larger. A subset counts only when each of its groups fits, run in order without the others, and
   * holds the groups it builds on (a codec change, the move of its column).
   *
   * @param greedySteps the steps of {@code groups} in their order, as the greedy pass made them
   */
  private static List<List<Map.Entry<ColumnRef, String>>> workingSetFirst(
      List<List<Map.Entry<ColumnRef, String>>> groups,
      List<MoveStep> greedySteps,
      CostModel model,
      Priced priced,
      Map<ColumnRef, String> start,
      Map<String, Long> usedAtStart,
      double secondsNow,
      double secondsAfter) {
    int n = groups.size();
    if (n < 2 || n > WORKING_SET_SEARCH_LIMIT || !(secondsNow > secondsAfter)) {
      return groups;
    }
    double goal = secondsNow - WORKING_SET_SHARE * (secondsNow - secondsAfter);
    // The greedy order's own working set: its steps' bytes until the goal (as bytesFractionFor).
    long greedyBytes = -1;
    long prefix = 0;
    for (MoveStep step : greedySteps) {
      prefix += step.writeBytes();
      if (step.secondsAfter() <= goal + 1e-12 * Math.max(1, goal)) {
        greedyBytes = prefix;
        break;
      }
    }
    long[] bytes = new long[n];
    int[] needs = new int[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = written(groups.get(i), model, priced);
      for (int j = 0; j < i; j++) {
        for (var m : groups.get(i)) {
          if (groups.get(j).stream().anyMatch(e -> e.getKey().equals(m.getKey()))) {
            needs[i] |= 1 << j;
          }
        }
      }
    }
    long[] subsetBytes = new long[1 << n];
    List<Integer> subsets = new ArrayList<>();
    for (int s = 1; s < 1 << n; s++) {
      subsetBytes[s] = subsetBytes[s & (s - 1)] + bytes[Integer.numberOfTrailingZeros(s)];
      if (subsetBytes[s] < greedyBytes) {
        subsets.add(s);
      }
    }
    subsets.sort((x, y) -> Long.compare(subsetBytes[x], subsetBytes[y]));
    for (int s : subsets) {
      Replay tried = new Replay(model, priced, start, usedAtStart, secondsNow);
      boolean ok = true;
      for (int i = 0; i < n && ok; i++) {
        if ((s & 1 << i) != 0) {
          ok = (needs[i] & ~s) == 0 && tried.fits(groups.get(i));
          if (ok) {
            tried.place(groups.get(i));
          }
        }
      }
      if (ok && priced.time(tried.now) <= goal + 1e-12 * Math.max(1, goal)) {
        List<List<Map.Entry<ColumnRef, String>>> ordered = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          if ((s & 1 << i) != 0) {
            ordered.add(groups.get(i));
          }
        }
        for (int i = 0; i < n; i++) {
          if ((s & 1 << i) == 0) {
            ordered.add(groups.get(i));
          }
        }
        return ordered;
      }
    }
    return groups;
  }

  // The modelled time of a step: the device model measures reads, so writes are costed at the
  // target's read rate, and a codec change at the CPU's decoding rate on both sides
  // (docs/physical-design.md).
  private static double stepCost(
      CostModel model, DeviceProfile from, DeviceProfile to, ColumnRef column) {
    double cost =
        from.raw().secondsFor(model.storedBytes(from, column))
            + to.raw().secondsFor(model.storedBytes(to, column));
    if (from.codec() != to.codec()) {
      cost += model.cpuTime(from, column) + model.cpuTime(to, column);
    }
    return cost;
  }

  // The bytes a group of moves writes.
  private static long written(
      List<Map.Entry<ColumnRef, String>> group, CostModel model, Priced priced) {
    long written = 0;
    for (var m : group) {
      written += model.storedBytes(priced.device(m.getValue()), m.getKey());
    }
    return written;
  }

  /**
   * Groups of moves run one after the other from a design, into the steps of a plan: each step's
   * predicted effect and cost, and the earlier steps it waits for.
   */
  private static final class Replay {
    private final CostModel model;
    private final Priced priced;
    private final Map<String, Long> usedAtStart;
    final Map<ColumnRef, String> now;
    final Map<String, Long> used;
    // The steps that moved a column out of each device so far (what a later move in waits for).
    private final Map<String, List<Integer>> freed = new HashMap<>();
    final List<MoveStep> steps = new ArrayList<>();
    double seconds;
    double cost;

    Replay(
        CostModel model,
        Priced priced,
        Map<ColumnRef, String> start,
        Map<String, Long> usedAtStart,
        double secondsNow) {
      this.model = model;
      this.priced = priced;
      this.usedAtStart = usedAtStart;
      this.now = new LinkedHashMap<>(start);
      this.used = new HashMap<>(usedAtStart);
      this.seconds = secondsNow;
    }

    /** Whether the group's moves fit, one after the other, from the room there is now. */
    boolean fits(List<Map.Entry<ColumnRef, String>> group) {
      return DesignAdvisor.fits(group, model, priced, used, now);
    }

    /** The group's moves in the placement and the devices' room, without steps. */
    void place(List<Map.Entry<ColumnRef, String>> group) {
      for (var m : group) {
        DeviceProfile from = priced.device(now.get(m.getKey()));
        DeviceProfile to = priced.device(m.getValue());
        used.merge(device(from.id()), -model.storedBytes(from, m.getKey()), Long::sum);
        used.merge(device(to.id()), model.storedBytes(to, m.getKey()), Long::sum);
        now.put(m.getKey(), m.getValue());
      }
    }

    /**
     * The group's steps, its evictions right before the move they make room for; false if it does
     * not fit.
     */
    boolean apply(List<Map.Entry<ColumnRef, String>> group) {
      if (!fits(group)) {
        return false;
      }
      for (var m : group) {
        ColumnRef column = m.getKey();
        String at = m.getValue();
        Map<ColumnRef, String> tried = new LinkedHashMap<>(now);
        tried.put(column, at);
        double stepSeconds = priced.time(tried);
        DeviceProfile from = priced.device(now.get(column));
        DeviceProfile to = priced.device(at);
        String fromId = device(from.id());
        String toId = device(to.id());
        boolean move = !fromId.equals(toId);
        long read0 = model.storedBytes(from, column);
        long write = model.storedBytes(to, column);
        double stepCost = stepCost(model, from, to, column);
        place(List.of(m));
        List<Integer> after = List.copyOf(freed.getOrDefault(toId, List.of()));
        freed.computeIfAbsent(fromId, k -> new ArrayList<>()).add(steps.size());
        steps.add(
            new MoveStep(
                column,
                fromId,
                toId,
                read0,
                write,
                stepCost,
                seconds - stepSeconds,
                stepSeconds,
                move
                    ? needed(after, steps, model.device(toId), write, usedAtStart.get(toId))
                    : List.of(),
                move ? StepKind.MOVE : StepKind.CODEC,
                move ? null : to.codec()));
        seconds = stepSeconds;
        cost += stepCost;
      }
      return true;
    }
  }

  private static final char VARIANT = '@';

  // The model's id of device d storing with codec k: d@k.
  private static String variant(String device, Codec codec) {
    return device + VARIANT + codec.configName();
  }

  // The device of a model id, variant or not.
  private static String device(String id) {
    if (id == null) {
      return null;
    }
    int at = id.indexOf(VARIANT);
    return at < 0 ? id : id.substring(0, at);
  }

  /**
   * The model over designs whose columns may be stored with another codec than their device's: a
   * variant id {@code d@k} is device d storing codec k (its rates, seek and capacity, codec k's
   * ratio, measured for the column when it was stored so, and decoding rate). A variant keeps its
   * device's id, so Eq. 3 sums its columns' I/O with the device's other columns.
   */
  private static final class Priced {
    private final CostModel model;
    private final Workload workload;
    private final Map<String, DeviceProfile> profiles = new HashMap<>();

    Priced(CostModel model, Workload workload) {
      this.model = model;
      this.workload = workload;
      for (DeviceProfile d : model.devices()) {
        profiles.put(d.id(), d);
        for (Codec codec : Codec.values()) {
          if (codec != d.codec()) {
            double ratio = DeviceProfile.defaultRatio(codec);
            profiles.put(
                variant(d.id(), codec),
                new DeviceProfile(
                    d.id(),
                    codec,
                    d.seek(),
                    d.raw(),
                    new Bandwidth(d.raw().bytesPerSecond() * ratio),
                    ratio,
                    d.capacityBytes(),
                    d.costPerGb(),
                    d.cold(),
                    d.access(),
                    d.link()));
          }
        }
      }
    }

    DeviceProfile device(String id) {
      DeviceProfile d = profiles.get(id);
      return d != null ? d : model.device(id);
    }

    /** Eq. 4 over the design: each column on the (variant) device {@code at} names. */
    double time(Map<ColumnRef, String> at) {
      double total = 0;
      for (DistinctScan scan : workload.scans()) {
        total += scan.weight() * model.scanTime(scan, c -> device(at.get(c)));
      }
      return total;
    }
  }

  /**
   * A move into a full device preceded by the pending moves out of that device that make room for
   * it (each fitting where it goes), or null when they cannot: the one that frees just enough with
   * the fewest bytes, else the largest first until there is room (fewest bytes written for the
   * room).
   */
  private static List<Map.Entry<ColumnRef, String>> withEvictions(
      Map.Entry<ColumnRef, String> move,
      long write,
      DeviceProfile to,
      CostModel model,
      Priced priced,
      Map<ColumnRef, String> now,
      Map<String, Long> used,
      Map<ColumnRef, String> pending) {
    String toDevice = device(to.id());
    long need = used.get(toDevice) + write - to.capacityBytes();
    List<Map.Entry<ColumnRef, String>> out = new ArrayList<>();
    Map<Map.Entry<ColumnRef, String>, Long> frees = new LinkedHashMap<>();
    for (var e : pending.entrySet()) {
      ColumnRef c = e.getKey();
      if (!c.equals(move.getKey()) && toDevice.equals(device(now.get(c)))) {
        out.add(e);
        frees.put(e, model.storedBytes(priced.device(now.get(c)), c));
      }
    }
    Map.Entry<ColumnRef, String> justEnough = null;
    for (var e : out) {
      long f = frees.get(e);
      if (f >= need
          && (justEnough == null || f < frees.get(justEnough))
          && fits(List.of(e), model, priced, used, now)) {
        justEnough = e;
      }
    }
    List<Map.Entry<ColumnRef, String>> group = new ArrayList<>();
    if (justEnough != null) {
      group.add(justEnough);
    } else {
      out.sort((x, y) -> Long.compare(frees.get(y), frees.get(x)));
      long freed = 0;
      for (var e : out) {
        if (freed >= need) {
          break;
        }
        group.add(e);
        if (fits(group, model, priced, used, now)) {
          freed += frees.get(e);
        } else {
          group.remove(group.size() - 1);
        }
      }
      if (freed < need) {
        return null;
      }
    }
    group.add(move);
    return group;
  }

  // Whether the moves fit where they go, one after the other, from the room there is now (each
  // frees its source once it is done; until then it holds both copies).
  private static boolean fits(
      List<Map.Entry<ColumnRef, String>> moves,
      CostModel model,
      Priced priced,
      Map<String, Long> used,
      Map<ColumnRef, String> now) {
    Map<String, Long> room = new HashMap<>(used);
    for (var e : moves) {
      DeviceProfile from = priced.device(now.get(e.getKey()));
      DeviceProfile to = priced.device(e.getValue());
      long write = model.storedBytes(to, e.getKey());
      String id = device(to.id());
      if (room.get(id) + write > to.capacityBytes()) {
        return false;
      }
      room.merge(id, write, Long::sum);
      room.merge(device(from.id()), -model.storedBytes(from, e.getKey()), Long::sum);
    }
    return true;
  }

  // Of the steps that freed room on the target, those without which it would not fit.
  private static List<Integer> needed(
      List<Integer> freedBefore,
      List<MoveStep> steps,
      DeviceProfile to,
      long write,
      long usedAtStart) {
    long in = 0;
    for (MoveStep s : steps) {
      if (s.to().equals(to.id())) {
        in += s.writeBytes();
      }
    }
    return usedAtStart + in + write > to.capacityBytes() ? freedBefore : List.of();
  }

  private static String fmt(double runs) {
    return runs == Math.rint(runs) ? String.valueOf((long) runs) : String.valueOf(runs);
  }
}
