package io.mosaic.design;

import io.mosaic.device.Bandwidth;
import io.mosaic.device.Codec;
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
   * candidates (issue 25), ordered among the moves by the same score, when the model has a CPU
   * model (the decoding rate per codec that a codec change trades against the bytes read, Eq. 3 of
   * docs/cost-model.md); without one the model has no decoding term and no codec change is
   * proposed.
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
    double secondsNow = priced.time(start.deviceOf());
    Map<String, Long> usedAtStart = new HashMap<>();
    model.devices().forEach(d -> usedAtStart.put(d.id(), 0L));
    now.forEach(
        (c, d) -> usedAtStart.merge(device(d), model.storedBytes(priced.device(d), c), Long::sum));
    Map<String, Long> used = new HashMap<>(usedAtStart);
    // The steps that moved a column out of each device so far (what a later move in waits for).
    Map<String, List<Integer>> freed = new HashMap<>();
    List<MoveStep> steps = new ArrayList<>();
    double seconds = secondsNow;
    double cost = 0;
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
          if (pending.containsKey(c) || recoded.contains(c) || !now.containsKey(c)) {
            continue;
          }
          // Of the column's codecs, the one its scans are fastest with (not the cheapest to
          // write: the column is re-encoded once).
          String device = device(now.get(c));
          String fastest = null;
          double fastestSeconds = Double.POSITIVE_INFINITY;
          for (Codec codec : Codec.values()) {
            if (codec != model.device(device).codec()
                && !model.cpu().orElseThrow().decode().containsKey(codec)) {
              continue; // the CPU model has no decoding rate to price it with (not calibrated)
            }
            String v = codec == model.device(device).codec() ? device : variant(device, codec);
            Map<ColumnRef, String> tried = new LinkedHashMap<>(now);
            tried.put(c, v);
            double after = priced.time(tried);
            if (after < fastestSeconds - 1e-12 * Math.max(1, after)) {
              fastest = v;
              fastestSeconds = after;
            }
          }
          if (fastest != null && !fastest.equals(now.get(c))) {
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
          group = withEvictions(e, write, to, model, priced, now, used, pending);
          if (group == null) {
            continue; // no room yet, and the moves out of its device cannot make it now
          }
        } else {
          continue; // a codec change waits for room like any write
        }
        Map<ColumnRef, String> tried = new LinkedHashMap<>(now);
        long written = 0;
        for (var m : group) {
          tried.put(m.getKey(), m.getValue());
          written += model.storedBytes(priced.device(m.getValue()), m.getKey());
        }
        double after = priced.time(tried);
        if (!move && seconds - after <= 1e-12 * Math.max(1, seconds)) {
          continue; // a codec change that saves nothing is no step
        }
        double score = (seconds - after) / Math.max(1, written);
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
            steps,
            secondsNow,
            model.totalTime(workload, target),
            options,
            cost,
            false,
            "the remaining "
                + pending.size()
                + " moves need room on devices that only they would free (e.g. a swap between"
                + " full devices): free space on "
                + String.join(", ", pending.values().stream().distinct().toList())
                + " first");
      }
      // The group's evictions right before the move they make room for.
      for (var m : best) {
        ColumnRef column = m.getKey();
        String at = m.getValue();
        Map<ColumnRef, String> tried = new LinkedHashMap<>(now);
        tried.put(column, at);
        double stepSeconds = priced.time(tried);
        boolean move = pending.remove(column) != null;
        DeviceProfile from = priced.device(now.get(column));
        DeviceProfile to = priced.device(at);
        String fromId = device(from.id());
        String toId = device(to.id());
        long read0 = model.storedBytes(from, column);
        long write = model.storedBytes(to, column);
        // The device model measures reads; writes are costed at the target's read rate, and a
        // codec change at the CPU's decoding rate on both sides (docs/physical-design.md).
        double stepCost = from.raw().secondsFor(read0) + to.raw().secondsFor(write);
        if (from.codec() != to.codec()) {
          stepCost += model.cpuTime(from, column) + model.cpuTime(to, column);
        }
        used.merge(fromId, -read0, Long::sum);
        used.merge(toId, write, Long::sum);
        now.put(column, at);
        List<Integer> after = List.copyOf(freed.getOrDefault(toId, List.of()));
        freed.computeIfAbsent(fromId, k -> new ArrayList<>()).add(steps.size());
        if (!move) {
          recoded.add(column);
        }
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
    }
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
                      used.get(e.getKey()) + e.getValue()
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
                    d.cold()));
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
          && fits(List.of(e), model, priced, used)) {
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
        if (fits(group, model, priced, used)) {
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

  // Whether the moves fit where they go, one after the other, from the room there is now.
  private static boolean fits(
      List<Map.Entry<ColumnRef, String>> moves,
      CostModel model,
      Priced priced,
      Map<String, Long> used) {
    Map<String, Long> room = new HashMap<>(used);
    for (var e : moves) {
      DeviceProfile to = priced.device(e.getValue());
      long write = model.storedBytes(to, e.getKey());
      String id = device(to.id());
      if (room.get(id) + write > to.capacityBytes()) {
        return false;
      }
      room.merge(id, write, Long::sum);
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
