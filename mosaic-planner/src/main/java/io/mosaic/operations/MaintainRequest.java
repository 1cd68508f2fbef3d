package io.mosaic.operations;

import io.mosaic.MosaicException;
import io.mosaic.config.Bandwidth;
import io.mosaic.design.DesignOptions;
import io.mosaic.design.ScheduleShape;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code maintain}: identify a table's transformation from its recorded scans and run it in steps
 * by a schedule, or show and steer one in progress (docs/physical-design.md). Every front end
 * builds this from its own syntax; nulls keep the defaults, the same everywhere: start, fast-start
 * at 50 MB/s, full rate unpaced, 10 runs, payoff 2.
 *
 * @param table the table, as the front end names it
 * @param action start (identify and run), status, pause, resume or cancel
 * @param shape the schedule's shape
 * @param rate the gentle rate, bytes per second
 * @param fullRate the rate when nothing holds the moves back, bytes per second
 * @param deviceRates the gentle rate of named devices, bytes per second ({@code rate} for the
 *     others): a step reading one device and writing another takes its bytes from both
 * @param options the cost-benefit check
 * @param force start even when the transformation does not pay off
 * @param dryRun identify and show the steps only
 * @param drift when not null, start only when the workload drifted: the new design beats the
 *     current one by more than this fraction of the workload's time ({@link
 *     io.mosaic.design.DesignProposal#drifted})
 * @param given which of the schedule's settings the user gave rather than left to the defaults:
 *     {@code resume} changes those of the transformation it resumes and keeps the others
 */
public record MaintainRequest(
    String table,
    Action action,
    ScheduleShape shape,
    double rate,
    double fullRate,
    Map<String, Double> deviceRates,
    DesignOptions options,
    boolean force,
    boolean dryRun,
    Double drift,
    Given given) {

  /** Which schedule settings a request gave (each false when the default stands in). */
  public record Given(boolean shape, boolean rate, boolean fullRate, boolean deviceRates) {
    public boolean any() {
      return shape || rate || fullRate || deviceRates;
    }
  }

  /** What to do. */
  public enum Action {
    START,
    STATUS,
    PAUSE,
    RESUME,
    CANCEL;

    static Action parse(String text) {
      if (text == null || text.isBlank()) {
        return START;
      }
      for (Action a : values()) {
        if (a.name().equalsIgnoreCase(text.strip())) {
          return a;
        }
      }
      throw MosaicException.invalid(
          "maintain action '"
              + text.strip()
              + "' is unknown; use start, status, pause, resume or cancel");
    }
  }

  /** 50 MB/s: a fraction of an HDD's rate, so queries keep most of the devices. */
  public static final String DEFAULT_RATE = "50 MB/s";

  /** "Unpaced": far above any device, so the pacing never waits. */
  static final double UNPACED = io.mosaic.design.MoveSchedule.UNPACED;

  public MaintainRequest {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(shape, "shape");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(given, "given");
    deviceRates = Map.copyOf(deviceRates);
    if (drift != null && !(drift >= 0 && drift < 1)) {
      throw MosaicException.invalid(
          "drift threshold "
              + drift
              + ": give a fraction of the workload's time from 0 to below 1 (0.2: the new design"
              + " must save more than 20 %)");
    }
  }

  /** The threshold {@code --watch} uses unless told: the new design saves more than 20 %. */
  public static final double DEFAULT_DRIFT = 0.2;

  /** This request with another action. */
  public MaintainRequest withAction(Action next) {
    return new MaintainRequest(
        table, next, shape, rate, fullRate, deviceRates, options, force, dryRun, drift, given);
  }

  /** This request, starting only when the workload drifted by more than {@code threshold}. */
  public MaintainRequest withDrift(Double threshold) {
    return new MaintainRequest(
        table,
        action,
        shape,
        rate,
        fullRate,
        deviceRates,
        options,
        force,
        dryRun,
        threshold,
        given);
  }

  /** The request from text as users type it; nulls keep the defaults. */
  public static MaintainRequest parse(
      String table,
      String action,
      String shape,
      String rate,
      String fullRate,
      Double horizon,
      Double payoff,
      Boolean force,
      Boolean dryRun) {
    return parse(table, action, shape, rate, fullRate, null, horizon, payoff, force, dryRun);
  }

  /**
   * The request from text as users type it, with rates per device ({@code 'hdd=20MB/s,
   * nvme=200MB/s'}, {@link MaintenanceSyntax#deviceRates}); nulls keep the defaults.
   */
  public static MaintainRequest parse(
      String table,
      String action,
      String shape,
      String rate,
      String fullRate,
      String deviceRates,
      Double horizon,
      Double payoff,
      Boolean force,
      Boolean dryRun) {
    double gentle = MaintenanceSyntax.rate(rate == null ? DEFAULT_RATE : rate, "rate");
    double full = fullRate == null ? UNPACED : MaintenanceSyntax.rate(fullRate, "full rate");
    if (full < gentle) {
      throw MosaicException.invalid(
          String.format(
              Locale.ROOT,
              "full rate %s is below the rate %s: give a full rate at least as high",
              fullRate,
              rate));
    }
    Map<String, Double> perDevice = MaintenanceSyntax.deviceRates(deviceRates, "device rate");
    perDevice.forEach(
        (device, r) -> {
          if (full < r) {
            throw MosaicException.invalid(
                String.format(
                    Locale.ROOT,
                    "full rate %s is below device %s's rate %s: give a full rate at least as high",
                    fullRate,
                    device,
                    new Bandwidth(r)));
          }
        });
    DesignOptions d = DesignOptions.DEFAULTS;
    return new MaintainRequest(
        table,
        Action.parse(action),
        ScheduleShape.parse(shape == null ? "fast-start" : shape),
        gentle,
        full,
        perDevice,
        new DesignOptions(
            horizon == null ? d.horizonRuns() : horizon,
            payoff == null ? d.payoffFactor() : payoff),
        force != null && force,
        dryRun != null && dryRun,
        null,
        new Given(
            shape != null,
            rate != null,
            fullRate != null,
            deviceRates != null && !deviceRates.isBlank()));
  }
}
