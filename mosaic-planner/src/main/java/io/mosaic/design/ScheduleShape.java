package io.mosaic.design;

import io.mosaic.ConfigNames;

/**
 * How fast a transformation runs over its life (Physical Design Management in Ceph, Section IV).
 */
public enum ScheduleShape {
  /** Full rate until the working set is placed, then the configured rate. */
  FAST_START,
  /** The configured rate while queries run, full rate when the devices are idle. */
  SLOW_START,
  /** The configured rate throughout. */
  CONSTANT;

  public String configName() {
    return ConfigNames.of(this);
  }

  public static ScheduleShape parse(String name) {
    return ConfigNames.parse(ScheduleShape.class, name, "schedule");
  }
}
