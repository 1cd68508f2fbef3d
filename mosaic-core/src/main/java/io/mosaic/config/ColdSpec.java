package io.mosaic.config;

import io.mosaic.ConfigNames;
import io.mosaic.MosaicException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * A cold storage device (Skipper, VLDB 2016, Section 2.2: Pelican, OpenVault Knox): its disks form
 * {@code groups} disk groups of which one is spun up at a time. Reading the active group runs at
 * {@code groupRead}; reading another group first costs a group switch of {@code switchLatency}
 * (Pelican: 8 s), during which the device serves nothing.
 *
 * @param groups disk groups, numbered 0 to {@code groups - 1}; at least 2
 * @param switchLatency spinning the active group down and another one up; above zero
 * @param groupRead throughput of the active group
 * @param scheduler the policy of the device's group scheduler (Section 4.4), through which every
 *     read of the device goes; empty: no scheduler, reads served in the order they arrive (the
 *     naive path Skipper compares with, {@code policy = "none"})
 * @param layout how the device puts files in groups ({@link #groupOf})
 */
public record ColdSpec(
    int groups,
    Latency switchLatency,
    Bandwidth groupRead,
    Optional<GroupPolicy> scheduler,
    Layout layout) {
  /** The scheduler's policy when devices.toml gives none. */
  public static final GroupPolicy DEFAULT_POLICY = GroupPolicy.RANK;

  /**
   * How a cold device spreads files over its disk groups. The device, not the database, decides
   * (Skipper, Section 2.2: a CSD behind an object interface may put a relation's objects in several
   * groups, or keep them together); Mosaic computes the same rule from a segment's manifest path.
   */
  public enum Layout {
    /** Every segment file in a group of its own: the CRC-32 of its whole path (the default). */
    SEGMENT,
    /**
     * Every table in one group: the CRC-32 of the path's first name, the table's id (segment paths
     * are {@code <table id>/...}), as an object store that keeps a bucket or prefix together does.
     * A scan of one table then visits one group.
     */
    TABLE;

    /** A {@code layout} of devices.toml's cold table; the error says what each choice does. */
    public static Layout parse(String name) {
      try {
        return ConfigNames.parse(Layout.class, name, "cold device layout");
      } catch (MosaicException e) {
        throw MosaicException.invalid(
            "cold device layout '"
                + name
                + "' is unknown; use segment (the default: each segment file in a group of its"
                + " own) or table (each table's files in one group)");
      }
    }
  }

  /** The {@code policy} value that turns the scheduler off. */
  static final String NO_SCHEDULER = "none";

  static final int MIN_GROUPS = 2;
  static final int MAX_GROUPS = 1024;

  /** The longest switch accepted: a group spins up in seconds, so minutes are surely a typo. */
  static final Latency MAX_SWITCH = Latency.ofMillis(600_000);

  /** A cold device with the default scheduler ({@link #DEFAULT_POLICY}). */
  public ColdSpec(int groups, Latency switchLatency, Bandwidth groupRead) {
    this(groups, switchLatency, groupRead, Optional.of(DEFAULT_POLICY));
  }

  /** A cold device that spreads segments over its groups ({@link Layout#SEGMENT}). */
  public ColdSpec(
      int groups, Latency switchLatency, Bandwidth groupRead, Optional<GroupPolicy> scheduler) {
    this(groups, switchLatency, groupRead, scheduler, Layout.SEGMENT);
  }

  public ColdSpec {
    java.util.Objects.requireNonNull(scheduler, "scheduler");
    java.util.Objects.requireNonNull(layout, "layout");
    if (groups < MIN_GROUPS || groups > MAX_GROUPS) {
      throw MosaicException.invalid(
          "a cold device needs "
              + MIN_GROUPS
              + " to "
              + MAX_GROUPS
              + " disk groups, not "
              + groups);
    }
    if (switchLatency.nanos() == 0 || switchLatency.compareTo(MAX_SWITCH) > 0) {
      throw MosaicException.invalid(
          "a cold device's group switch must be above 0 and at most "
              + MAX_SWITCH
              + ", not "
              + switchLatency);
    }
  }

  /**
   * A {@code policy} of devices.toml's cold table: a {@link GroupPolicy} name, or {@value
   * #NO_SCHEDULER}; the error lists every choice.
   */
  static Optional<GroupPolicy> parsePolicy(String name) {
    if (name.trim().equalsIgnoreCase(NO_SCHEDULER)) {
      return Optional.empty();
    }
    try {
      return Optional.of(GroupPolicy.parse(name));
    } catch (MosaicException e) {
      throw MosaicException.invalid(
          "group scheduling policy '"
              + name
              + "' is unknown; use one of rank (the default, Skipper's Eq. 1), max-queries, fcfs,"
              + " or none (no scheduler: reads in arrival order)");
    }
  }

  /** The policy as devices.toml spells it. */
  String policyName() {
    return scheduler.map(GroupPolicy::configName).orElse(NO_SCHEDULER);
  }

  /**
   * The disk group of a file on this device: the CRC-32 of its path relative to the device's
   * directory (UTF-8, '/' between names: a segment's {@code segments[].path} in the manifest), or
   * under {@link Layout#TABLE} of that path's first name, modulo {@link #groups}. Deterministic
   * across JVMs and runs, so the scheduler, the planner and the emulation agree on it from the
   * manifest alone; segment names are random (their writer's id) and so are table ids, so segments
   * (or tables) spread over the groups.
   */
  public int groupOf(String relativePath) {
    String key = relativePath;
    if (layout == Layout.TABLE) {
      int slash = relativePath.indexOf('/');
      key = slash < 0 ? relativePath : relativePath.substring(0, slash);
    }
    CRC32 crc = new CRC32();
    crc.update(key.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % groups);
  }

  /**
   * The expected number of disk groups a scan (of one table) visits when it reads {@code k}
   * segments of this device. Under {@link Layout#SEGMENT} each is in a group of its own drawn
   * uniformly and independently (the CRC rule of {@link #groupOf} spreads segments so): {@code E(k)
   * = G (1 - (1 - 1/G)^k)}, at most {@code min(k, G)}; under {@link Layout#TABLE} the table's one
   * group, {@code E(k) = 1} for any {@code k >= 1}. Under the group scheduler (Skipper Section 4.4)
   * a scan's reads of one group are served in one round, so this is the group switches the scan
   * costs (docs/cost-model.md, "Cold devices").
   */
  public double expectedSwitches(int k) {
    if (layout == Layout.TABLE) {
      if (k < 0) {
        throw new IllegalArgumentException("negative number of segments: " + k);
      }
      return Math.min(k, 1);
    }
    return expectedSwitches(groups, k);
  }

  /** {@link #expectedSwitches(int)} for a device of {@code groups} groups. */
  public static double expectedSwitches(int groups, int k) {
    if (k < 0) {
      throw new IllegalArgumentException("negative number of segments: " + k);
    }
    return groups * -Math.expm1(k * Math.log1p(-1.0 / groups));
  }

  /**
   * What the {@code j}-th segment (from 1) adds to {@link #expectedSwitches(int)}: {@code E(j) -
   * E(j - 1) = (1 - 1/G)^(j - 1)}, 1 for the first and decreasing, since {@code E} is concave
   * (under {@link Layout#TABLE}: 1 for the first, 0 after).
   */
  public double switchIncrement(int j) {
    if (j < 1) {
      throw new IllegalArgumentException("segments count from 1, not " + j);
    }
    if (layout == Layout.TABLE) {
      return j == 1 ? 1 : 0;
    }
    return Math.pow(1 - 1.0 / groups, j - 1);
  }

  /** Seconds of group switching a scan of {@code k} segments expects: {@code s * E(k)}. */
  public double switchSeconds(int k) {
    return switchLatency.seconds() * expectedSwitches(k);
  }

  /** How the active group's reads are paced: at {@link #groupRead}, without seeks. */
  public Emulation activeGroup() {
    return new Emulation(groupRead, Latency.ZERO);
  }
}
