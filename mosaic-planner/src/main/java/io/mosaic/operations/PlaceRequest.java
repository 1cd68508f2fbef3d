package io.mosaic.operations;

import io.mosaic.MosaicException;
import io.mosaic.model.ColumnRef;
import io.mosaic.model.Placement;
import io.mosaic.placement.NoRegression;
import io.mosaic.placement.PlacementOptions;
import io.mosaic.placement.StrategyName;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * {@code place}: plan where the tables' columns should live on the installed pool (paper Section
 * 3.4, capacity mode) from their recorded scans, and with {@code apply} migrate them there. Every
 * front end builds this from its own syntax with {@link #builder}; the defaults are the same
 * everywhere (docs/operations.md): LOPT, {@link #DEFAULT_TIME_LIMIT}, a dry run, no constraints.
 *
 * @param tables the tables placed together, as the front end names them
 * @param strategy a {@link StrategyName#spelling()}, parsed when the plan is computed
 * @param timeLimit LOPT's solver limit, its polish included
 * @param apply migrate to the plan (and start a new trace epoch); false shows the plan only
 * @param pins {@code column -> device}, a column optionally qualified as {@code table.column}
 * @param minBytes per device, the least stored bytes it must hold
 * @param maxBytes per device, the most stored bytes it may hold
 * @param maxDevices how many devices may hold data; null for no limit
 * @param noRegression the per-scan bound of Section 5.4; null for none
 * @param sampleFraction fraction of the distinct scans solved on (Section 5.5), in (0, 1]
 * @param seed the sample's seed
 * @param ranges place row ranges of columns that the recorded scans read alike, not only whole
 *     columns (docs/row-ranges.md)
 */
public record PlaceRequest(
    List<String> tables,
    String strategy,
    Duration timeLimit,
    boolean apply,
    Map<String, String> pins,
    Map<String, Long> minBytes,
    Map<String, Long> maxBytes,
    Integer maxDevices,
    NoRegressionBound noRegression,
    double sampleFraction,
    long seed,
    boolean ranges) {

  public static final String DEFAULT_STRATEGY = StrategyName.DEFAULT.spelling();

  /**
   * 60 s, the CLI's and Spark's limit before (Trino's was 10 s). It only bounds the solve: LOPT
   * proves TPC-H-sized tables optimal in well under a second (paper Table 3) and returns then; a
   * shorter limit only cut large instances to worse plans.
   */
  public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(60);

  /** What the no-regression bound compares each scan against (paper Section 5.4). */
  public enum Reference {
    /** The tables' placement now: no recorded scan may get slower than it is today. */
    CURRENT;

    static Reference parse(String text) {
      if (text == null || text.isBlank()) {
        return CURRENT;
      }
      for (Reference r : values()) {
        if (r.name().equalsIgnoreCase(text.strip())) {
          return r;
        }
      }
      throw MosaicException.invalid(
          "no-regression reference '" + text.strip() + "' is unknown; use 'current'");
    }

    public String spelling() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * No recorded scan may take more than {@code (1 + slack)} times its time under {@code reference}.
   */
  public record NoRegressionBound(Reference reference, double slack) {
    public NoRegressionBound {
      Objects.requireNonNull(reference, "reference");
      if (!(slack >= 0) || Double.isInfinite(slack)) {
        throw MosaicException.invalid(
            "no-regression bound must be a fraction >= 0 (0 forbids any slowdown, 0.1 allows 10 %),"
                + " not "
                + slack);
      }
    }
  }

  public PlaceRequest {
    tables = List.copyOf(tables);
    if (tables.isEmpty()) {
      throw MosaicException.invalid("place needs a table");
    }
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(timeLimit, "timeLimit");
    if (timeLimit.isNegative() || timeLimit.isZero()) {
      throw MosaicException.invalid("time limit must be positive, not " + timeLimit);
    }
    // In the user's order, so that errors name the first bad entry.
    pins = Collections.unmodifiableMap(new LinkedHashMap<>(pins));
    minBytes = Collections.unmodifiableMap(new LinkedHashMap<>(minBytes));
    maxBytes = Collections.unmodifiableMap(new LinkedHashMap<>(maxBytes));
    if (maxDevices != null && maxDevices < 1) {
      throw MosaicException.invalid("max devices must be at least 1, not " + maxDevices);
    }
    if (!(sampleFraction > 0 && sampleFraction <= 1)) {
      throw MosaicException.invalid(
          "sample fraction must be in (0, 1] (0.6 solves on 60 % of the distinct scans), not "
              + sampleFraction);
    }
    if (ranges && !pins.isEmpty()) {
      throw MosaicException.invalid(
          "pins name whole columns, and a placement of row ranges (ranges) splits them: place"
              + " without ranges to pin columns, or drop the pins");
    }
  }

  public static Builder builder(String table) {
    return new Builder(List.of(table));
  }

  public static Builder builder(List<String> tables) {
    return new Builder(tables);
  }

  /**
   * The planner's options for these tables: pins resolved against their columns, and the
   * no-regression reference made concrete.
   */
  public PlacementOptions options(Collection<ColumnRef> columns, Placement current) {
    NoRegression bound =
        noRegression == null
            ? null
            : new NoRegression(
                switch (noRegression.reference()) {
                  case CURRENT -> current;
                },
                noRegression.slack());
    return new PlacementOptions(
        MaintenanceSyntax.resolvePins(pins, columns),
        minBytes,
        maxBytes,
        maxDevices,
        bound,
        sampleFraction,
        seed);
  }

  /** Null arguments keep the defaults, so SQL NULLs and absent CLI options map directly. */
  public static final class Builder {
    private final List<String> tables;
    private String strategy = DEFAULT_STRATEGY;
    private Duration timeLimit = DEFAULT_TIME_LIMIT;
    private boolean apply;
    private Map<String, String> pins = Map.of();
    private Map<String, Long> minBytes = Map.of();
    private Map<String, Long> maxBytes = Map.of();
    private Integer maxDevices;
    private NoRegressionBound noRegression;
    private double sampleFraction = 1.0;
    private long seed;
    private boolean ranges;

    private Builder(List<String> tables) {
      this.tables = tables;
    }

    public Builder strategy(String strategy) {
      if (strategy != null) {
        this.strategy = strategy.strip();
      }
      return this;
    }

    public Builder timeLimit(Duration timeLimit) {
      if (timeLimit != null) {
        this.timeLimit = timeLimit;
      }
      return this;
    }

    public Builder apply(Boolean apply) {
      if (apply != null) {
        this.apply = apply;
      }
      return this;
    }

    /** {@code 'l_comment=hdd, o_comment=hdd'} ({@link MaintenanceSyntax#pins}). */
    public Builder pins(String text) {
      this.pins = MaintenanceSyntax.pins(text);
      return this;
    }

    /** {@code 'ssd=1GB'}: the least each named device must hold. */
    public Builder minBytes(String text) {
      this.minBytes = MaintenanceSyntax.deviceBytes(text, "min bytes");
      return this;
    }

    /** {@code 'ssd=1GB'}: the most each named device may hold. */
    public Builder maxBytes(String text) {
      this.maxBytes = MaintenanceSyntax.deviceBytes(text, "max bytes");
      return this;
    }

    public Builder maxDevices(Integer maxDevices) {
      this.maxDevices = maxDevices;
      return this;
    }

    /**
     * The bound of Section 5.4; a null slack sets none.
     *
     * @param reference {@code 'current'} (also the default when null)
     */
    public Builder noRegression(Double slack, String reference) {
      Reference r = Reference.parse(reference);
      this.noRegression = slack == null ? null : new NoRegressionBound(r, slack);
      return this;
    }

    /** Section 5.5's sample; nulls keep all scans and seed 0. */
    public Builder sample(Double fraction, Long seed) {
      if (fraction != null) {
        this.sampleFraction = fraction;
      }
      if (seed != null) {
        this.seed = seed;
      }
      return this;
    }

    /** Row ranges as placement units (docs/row-ranges.md); null keeps whole columns. */
    public Builder ranges(Boolean ranges) {
      if (ranges != null) {
        this.ranges = ranges;
      }
      return this;
    }

    public PlaceRequest build() {
      return new PlaceRequest(
          tables,
          strategy,
          timeLimit,
          apply,
          pins,
          minBytes,
          maxBytes,
          maxDevices,
          noRegression,
          sampleFraction,
          seed,
          ranges);
    }
  }
}
