package io.mosaic.design;

import io.mosaic.model.ColumnRef;
import io.mosaic.model.CostModel;
import io.mosaic.model.DeviceProfile;
import io.mosaic.model.Placement;
import io.mosaic.model.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Identifies a transformation from the current design to a target one (LOPT's placement for the
 * current trace epoch) and orders its steps for a schedule (Physical Design Management in Ceph,
 * Section IV): working set first, that is the move that saves the most predicted workload time per
 * byte written goes next, given the moves before it; a move into a device that is full now waits
 * for the moves that free room there. It proposes the transformation only when the benefit over the
 * horizon exceeds its cost by the payoff factor, and says why not otherwise.
 */
public final class DesignAdvisor {
  private DesignAdvisor() {}

  public static DesignProposal propose(
      CostModel model,
      Workload workload,
      Placement current,
      Placement target,
      DesignOptions options) {
    Map<ColumnRef, String> now = new LinkedHashMap<>(current.deviceOf());
    Map<ColumnRef, String> pending = new LinkedHashMap<>();
    target
        .deviceOf()
        .forEach(
            (c, d) -> {
              if (!d.equals(now.get(c))) {
                pending.put(c, d);
              }
            });
    double secondsNow = model.totalTime(workload, current);
    Map<String, Long> usedAtStart = model.usedBytes(current);
    Map<String, Long> used = new HashMap<>(usedAtStart);
    // The steps that moved a column out of each device so far (what a later move in waits for).
    Map<String, List<Integer>> freed = new HashMap<>();
    List<MoveStep> steps = new ArrayList<>();
    double seconds = secondsNow;
    double cost = 0;
    while (!pending.isEmpty()) {
      ColumnRef best = null;
      double bestScore = Double.NEGATIVE_INFINITY;
      double bestSeconds = 0;
      for (var e : pending.entrySet()) {
        DeviceProfile to = model.device(e.getValue());
        long write = model.storedBytes(to, e.getKey());
        if (used.get(to.id()) + write > to.capacityBytes()) {
          continue; // no room yet: another step must move something out first
        }
        Map<ColumnRef, String> tried = new LinkedHashMap<>(now);
        tried.put(e.getKey(), e.getValue());
        double after = model.totalTime(workload, new Placement(tried));
        double score = (seconds - after) / Math.max(1, write);
        if (best == null || score > bestScore) {
          best = e.getKey();
          bestScore = score;
          bestSeconds = after;
        }
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
      String toId = pending.remove(best);
      DeviceProfile from = model.device(now.get(best));
      DeviceProfile to = model.device(toId);
      long read = model.storedBytes(from, best);
      long write = model.storedBytes(to, best);
      // The device model measures reads; writes are costed at the target's read rate, and a
      // codec change at the CPU's decoding rate on both sides (docs/physical-design.md).
      double stepCost = from.raw().secondsFor(read) + to.raw().secondsFor(write);
      if (from.codec() != to.codec()) {
        stepCost += model.cpuTime(from, best) + model.cpuTime(to, best);
      }
      used.merge(from.id(), -read, Long::sum);
      used.merge(to.id(), write, Long::sum);
      now.put(best, toId);
      List<Integer> after = List.copyOf(freed.getOrDefault(toId, List.of()));
      freed.computeIfAbsent(from.id(), k -> new ArrayList<>()).add(steps.size());
      steps.add(
          new MoveStep(
              best,
              from.id(),
              toId,
              read,
              write,
              stepCost,
              seconds - bestSeconds,
              bestSeconds,
              needed(after, steps, to, write, usedAtStart.get(to.id()))));
      seconds = bestSeconds;
      cost += stepCost;
    }
    double benefit = (secondsNow - seconds) * options.horizonRuns();
    boolean worthIt = benefit > 0 && benefit >= options.payoffFactor() * cost;
    String reason =
        String.format(
            Locale.ROOT,
            "%s: %d moves (%,d bytes written) cost %.3f s; they save %.3f s per workload run"
                + " (%.3f s -> %.3f s), %.3f s over %s runs, %s %.1fx the cost",
            worthIt ? "worth it" : "not worth it",
            steps.size(),
            steps.stream().mapToLong(MoveStep::writeBytes).sum(),
            cost,
            secondsNow - seconds,
            secondsNow,
            seconds,
            benefit,
            fmt(options.horizonRuns()),
            worthIt ? "at least" : "less than",
            options.payoffFactor());
    return new DesignProposal(steps, secondsNow, seconds, options, cost, worthIt, reason);
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
