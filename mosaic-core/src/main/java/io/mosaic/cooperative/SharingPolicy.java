package io.mosaic.cooperative;

import io.mosaic.MosaicException;
import java.util.Arrays;
import java.util.Locale;

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

  /** The name used in configuration ({@code relevance}, ...). */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static SharingPolicy parse(String name) {
    for (SharingPolicy p : values()) {
      if (p.configName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return p;
      }
    }
    throw MosaicException.invalid(
        "sharing policy '"
            + name
            + "' is unknown; use one of "
            + String.join(", ", Arrays.stream(values()).map(SharingPolicy::configName).toList()));
  }
}
