package io.mosaic.cooperative;

import io.mosaic.ConfigNames;

/**
 * How the {@link ActiveBufferManager} orders the loads of concurrent scans (Cooperative Scans,
 * Zukowski et al., VLDB 2007, Sections 3 and 6.2, in their column-store (DSM) variants).
 */
public enum SharingPolicy {
  /** Each scan loads its own row groups in its order; the buffer is an LRU cache. */
  NORMAL,
  /** As normal, but a new scan starts where the running scan with most columns in common is. */
  ATTACH,
  /** One cursor per table moves through its row groups, loading what any scan needs there. */
  ELEVATOR,
  /** The paper's relevance functions (Figures 3 and 11): starved scans first, shared chunks. */
  RELEVANCE;

  /**
   * What Trino and Spark scans use unless configured: relevance met the goals of Table 3 through
   * both the retriever and Trino (docs/cooperative-scans.md). The CLI and experiments, which run
   * one scan at a time, keep {@link #NORMAL} (the ordered path with its decode-ahead).
   */
  public static final SharingPolicy ENGINE_DEFAULT = RELEVANCE;

  /** The name used in configuration ({@code relevance}, ...). */
  public String configName() {
    return ConfigNames.of(this);
  }

  public static SharingPolicy parse(String name) {
    return ConfigNames.parse(SharingPolicy.class, name, "sharing policy");
  }
}
