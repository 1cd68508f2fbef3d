package io.mosaic.design;

import io.mosaic.MosaicException;
import java.util.Arrays;
import java.util.Locale;

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
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static ScheduleShape parse(String name) {
    for (ScheduleShape s : values()) {
      if (s.configName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw MosaicException.invalid(
        "schedule '"
            + name
            + "' is unknown; use one of "
            + String.join(", ", Arrays.stream(values()).map(ScheduleShape::configName).toList()));
  }
}
