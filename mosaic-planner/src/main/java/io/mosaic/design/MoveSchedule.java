package io.mosaic.design;

import io.mosaic.MosaicException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rate at which a transformation's steps copy bytes, by its shape: the background service asks
 * it before each chunk of a step, so the rate follows the working set and the query load.
 *
 * @param rate the configured rate in bytes per second (the gentle one), for every device that
 *     {@code deviceRates} does not name
 * @param fullRate the rate when nothing holds it back (the devices' own)
 * @param workingSetBytes the bytes of the steps that bring the working set's benefit ({@link
 *     DesignProposal#bytesFractionFor}), which {@code fast-start} writes at full rate
 * @param deviceRates the gentle rate of a device by its id, where it differs from {@code rate}
 *     (Section IV: the moves share each device with the queries, and devices differ in how much
 *     they can spare)
 */
public record MoveSchedule(
    ScheduleShape shape,
    double rate,
    double fullRate,
    long workingSetBytes,
    Map<String, Double> deviceRates) {
  public MoveSchedule {
    if (!(rate > 0) || !(fullRate >= rate)) {
      throw MosaicException.invalid(
          "move rate "
              + rate
              + " B/s with full rate "
              + fullRate
              + " B/s: give a rate above 0 and a full rate at least as high");
    }
    deviceRates = java.util.Collections.unmodifiableMap(new TreeMap<>(deviceRates));
    deviceRates.forEach(
        (device, r) -> {
          if (!(r > 0) || !(fullRate >= r)) {
            throw MosaicException.invalid(
                "move rate "
                    + r
                    + " B/s of device "
                    + device
                    + " with full rate "
                    + fullRate
                    + " B/s: give the device a rate above 0 and a full rate at least as high");
          }
        });
  }

  /** The full rate when none is given: the moves are not paced at all. */
  public static final double UNPACED = 1e15;

  /** One rate for every device. */
  public MoveSchedule(ScheduleShape shape, double rate, double fullRate, long workingSetBytes) {
    this(shape, rate, fullRate, workingSetBytes, Map.of());
  }

  /** The working set of a proposal: the bytes written until {@code share} of its benefit. */
  public static long workingSet(DesignProposal p, double share) {
    return Math.round(p.bytesFractionFor(share) * p.bytesToWrite());
  }

  /** Bytes per second for the next chunk, given the bytes already written and the query load. */
  public double rate(long bytesDone, boolean queriesRunning) {
    return full(bytesDone, queriesRunning) ? fullRate : rate;
  }

  /**
   * Bytes per second a device gives the next chunk: the full rate when the shape says nothing holds
   * the moves back, else the device's own gentle rate ({@code rate} unless {@code deviceRates}
   * names it).
   */
  public double rate(String device, long bytesDone, boolean queriesRunning) {
    return full(bytesDone, queriesRunning) ? fullRate : deviceRates.getOrDefault(device, rate);
  }

  /**
   * What the schedule does, in a person's words: {@code fast-start} and {@code slow-start} move at
   * the full rate, not the given one, while nothing holds them back, which a person who gave only a
   * rate would not expect (docs/physical-design.md, "Schedules").
   */
  public String describe() {
    StringBuilder gentle = new StringBuilder(perSecond(rate));
    deviceRates.forEach((d, r) -> gentle.append(", ").append(d).append(' ').append(perSecond(r)));
    String full =
        fullRate >= UNPACED
            ? "the full rate (unpaced; --full-rate bounds it)"
            : "the full rate " + perSecond(fullRate) + " (--full-rate)";
    return "schedule "
        + shape.configName()
        + ": "
        + switch (shape) {
          case FAST_START ->
              "the working set (the first "
                  + io.mosaic.config.ByteSize.ofBytes(workingSetBytes)
                  + ") moves at "
                  + full
                  + ", the rest at "
                  + gentle
                  + " (--shape constant paces every byte at the rate)";
          case SLOW_START -> gentle + " while queries read the table, " + full + " while none does";
          case CONSTANT -> gentle + " throughout";
        };
  }

  private static String perSecond(double bytesPerSecond) {
    return io.mosaic.config.ByteSize.ofBytes(Math.round(bytesPerSecond)) + "/s";
  }

  private boolean full(long bytesDone, boolean queriesRunning) {
    return switch (shape) {
      case FAST_START -> bytesDone < workingSetBytes;
      case SLOW_START -> !queriesRunning;
      case CONSTANT -> false;
    };
  }
}
