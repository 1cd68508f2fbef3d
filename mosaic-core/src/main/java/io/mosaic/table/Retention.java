package io.mosaic.table;

import io.mosaic.MosaicException;
import java.time.Duration;

/**
 * The times the lock-free commit protocol keeps things for (docs/format.md, "Commits without POSIX
 * locks"). Each replaces a lock of the local protocol by a promise in time.
 *
 * @param versions a version's files live at least this long after it stops being the latest
 *     (readers' pins by time, as Iceberg's snapshot expiry and Delta's vacuum retention)
 * @param tombstones a retired version's tombstone lives this long, so no version name is used
 *     twice; a commit whose base was read longer ago than this is refused
 * @param grace a segment whose writer has no lease file is kept this long after it was written
 * @param lease how long a writer or reader lease lasts from its last renewal
 * @param skew the most two clocks (processes', and the storage's modification times) may differ,
 *     plus the longest pause between a check and the operation it guards
 */
public record Retention(
    Duration versions, Duration tombstones, Duration grace, Duration lease, Duration skew) {
  public Retention {
    if (lease.compareTo(skew.multipliedBy(3)) < 0) {
      throw MosaicException.invalid(
          "a lease of "
              + lease
              + " is too short for a clock skew of "
              + skew
              + ": make the lease at least three times the skew");
    }
    if (tombstones.compareTo(skew.multipliedBy(2)) < 0) {
      throw MosaicException.invalid(
          "a tombstone retention of "
              + tombstones
              + " is too short for a clock skew of "
              + skew
              + ": make it at least twice the skew");
    }
  }

  /** One hour of versions (as gc's grace), a day of tombstones, 5-minute leases, 30 s of skew. */
  public static Retention defaults() {
    return new Retention(
        Duration.ofHours(1),
        Duration.ofDays(1),
        Duration.ofHours(1),
        Duration.ofMinutes(5),
        Duration.ofSeconds(30));
  }
}
