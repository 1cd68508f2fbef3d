package io.mosaic.design;

import io.mosaic.MosaicException;

/**
 * The rate at which a transformation's steps copy bytes, by its shape: the background service asks
 * it before each chunk of a step, so the rate follows the working set and the query load.
 *
 * @param rate the configured rate in bytes per second (the gentle one)
 * @param fullRate the rate when nothing holds it back (the devices' own)
 * @param workingSetBytes the bytes of the steps that bring the working set's benefit ({@link
 *     DesignProposal#bytesFractionFor}), which {@code fast-start} writes at full rate
 */
public record MoveSchedule(
    ScheduleShape shape, double rate, double fullRate, long workingSetBytes) {
  public MoveSchedule {
    if (!(rate > 0) || !(fullRate >= rate)) {
      throw MosaicException.invalid(
          "move rate "
              + rate
              + " B/s with full rate "
              + fullRate
              + " B/s: give a rate above 0 and a full rate at least as high");
    }
  }

  /** The working set of a proposal: the bytes written until {@code share} of its benefit. */
  public static long workingSet(DesignProposal p, double share) {
    return Math.round(p.bytesFractionFor(share) * p.bytesToWrite());
  }

  /** Bytes per second for the next chunk, given the bytes already written and the query load. */
  public double rate(long bytesDone, boolean queriesRunning) {
    return switch (shape) {
      case FAST_START -> bytesDone < workingSetBytes ? fullRate : rate;
      case SLOW_START -> queriesRunning ? rate : fullRate;
      case CONSTANT -> rate;
    };
  }
}
