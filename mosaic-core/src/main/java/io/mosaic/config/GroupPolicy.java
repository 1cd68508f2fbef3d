package io.mosaic.config;

import io.mosaic.ConfigNames;

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
    return ConfigNames.of(this);
  }

  public static GroupPolicy parse(String name) {
    return ConfigNames.parse(GroupPolicy.class, name, "group scheduling policy");
  }
}
