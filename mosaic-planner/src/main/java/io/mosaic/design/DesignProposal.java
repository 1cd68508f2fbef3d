package io.mosaic.design;

import java.util.List;
import java.util.Locale;

/**
 * A transformation of a physical design, identified from the workload: the steps in the order the
 * schedule should run them (working set first), and whether it pays off.
 *
 * @param secondsNow the predicted time of one workload run with the design as it is
 * @param secondsAfter the same once every step is done
 * @param costSeconds the modelled time of all steps
 * @param worthIt whether the benefit over the horizon exceeds the cost by the payoff factor
 * @param reason why (or why not), in numbers a person can check
 */
public record DesignProposal(
    List<MoveStep> steps,
    double secondsNow,
    double secondsAfter,
    DesignOptions options,
    double costSeconds,
    boolean worthIt,
    String reason) {
  public DesignProposal {
    steps = List.copyOf(steps);
  }

  /** What one run of the workload saves once every step is done. */
  public double benefitPerRun() {
    return secondsNow - secondsAfter;
  }

  /** The fraction by which the target design beats the current one (drift, when large). */
  public double improvement() {
    return secondsNow > 0 ? benefitPerRun() / secondsNow : 0;
  }

  /**
   * Whether the workload drifted from the design (docs/physical-design.md, "Drift"): the target
   * beats the current design by more than {@code threshold}, a fraction of the workload's time now.
   */
  public boolean drifted(double threshold) {
    return improvement() > threshold;
  }

  /** {@link #drifted} in numbers a person can check, starting "drift:" or "no drift:". */
  public String driftReason(double threshold) {
    return String.format(
        Locale.ROOT,
        "%s: the trace epoch's workload takes %.3f s per run on the current design and %.3f s on"
            + " the new one, %.1f %% less, %s the %.1f %% threshold",
        drifted(threshold) ? "drift" : "no drift",
        secondsNow,
        secondsAfter,
        100 * improvement(),
        drifted(threshold) ? "above" : "not above",
        100 * threshold);
  }

  /** This proposal with another reason (the drift's said first). */
  public DesignProposal withReason(String why) {
    return new DesignProposal(steps, secondsNow, secondsAfter, options, costSeconds, worthIt, why);
  }

  public long bytesToWrite() {
    return steps.stream().mapToLong(MoveStep::writeBytes).sum();
  }

  /**
   * The fraction of the plan's bytes written once the workload has at least {@code share} of the
   * final benefit (the goal of docs/physical-design.md, "Status": 90 % of the benefit after at most
   * 50 % of the bytes).
   */
  public double bytesFractionFor(double share) {
    double benefit = benefitPerRun();
    long total = bytesToWrite();
    if (benefit <= 0 || total == 0) {
      return 0;
    }
    long written = 0;
    for (MoveStep s : steps) {
      written += s.writeBytes();
      if (secondsNow - s.secondsAfter() >= share * benefit - 1e-12) {
        return written / (double) total;
      }
    }
    return 1;
  }
}
