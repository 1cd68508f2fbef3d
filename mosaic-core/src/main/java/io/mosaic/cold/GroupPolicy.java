package io.mosaic.cold;

import io.mosaic.MosaicException;
import java.util.Arrays;
import java.util.Locale;

/**
 * Which disk group a cold storage device switches to next (Skipper, Borovica-Gajic et al., VLDB
 * 2016, Section 4.4).
 */
public enum GroupPolicy {
  /** The group of the query that has waited longest (query-based first come, first served). */
  FCFS,
  /** The group with requests of the most queries (efficient; can starve a lonely query). */
  MAX_QUERIES,
  /** Skipper's Eq. 1: R(g) = N_g + K * sum of its queries' waiting times, in group switches. */
  RANK;

  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static GroupPolicy parse(String name) {
    for (GroupPolicy p : values()) {
      if (p.configName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw MosaicException.invalid(
        "group scheduling policy '"
            + name
            + "' is unknown; use one of "
            + String.join(", ", Arrays.stream(values()).map(GroupPolicy::configName).toList()));
  }
}
