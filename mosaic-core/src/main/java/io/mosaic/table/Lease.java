package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.storage.Storage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A writer's or reader's hold on a table where the storage has no POSIX locks (docs/format.md,
 * "Commits without POSIX locks"): a file holding the time it expires, renewed while its holder
 * lives. A dead holder stops renewing, so its lease expires; that replaces a lock the operating
 * system would release. A lease that expired is never renewed: gc may already have acted on its
 * expiry, so its holder must start again under a new lease.
 */
public final class Lease implements AutoCloseable {
  /** Writers' leases: {@code _leases/writers/<writer id>}; segment names start with the id. */
  public static final String WRITERS = "_leases/writers";

  /**
   * Readers' leases: {@code _leases/readers/v<20 digits>-<id>}, for queries longer than retention.
   */
  public static final String READERS = "_leases/readers";

  private static final int MAX_BYTES = 64;

  private final Storage storage;
  private final String key;
  private final Duration duration;
  private final Duration skew;
  private final Clock clock;
  private volatile long expiresAt;

  private Lease(
      Storage storage, String key, Duration duration, Duration skew, Clock clock, long expiresAt) {
    this.storage = storage;
    this.key = key;
    this.duration = duration;
    this.skew = skew;
    this.clock = clock;
    this.expiresAt = expiresAt;
  }

  /** Takes a new lease at {@code key}, which must not exist (ids are random). */
  public static Lease acquire(Storage storage, String key, Retention retention, Clock clock) {
    long expires = clock.millis() + retention.lease().toMillis();
    try {
      storage.createExclusive(key, encode(expires));
    } catch (FileAlreadyExistsException e) {
      throw new TableConflictException(
          "lease " + key + " on " + storage.root() + " exists already; take one with a new id");
    } catch (IOException e) {
      throw MosaicException.io("cannot take lease " + key + " on " + storage.root(), e);
    }
    return new Lease(storage, key, retention.lease(), retention.skew(), clock, expires);
  }

  public String key() {
    return key;
  }

  public long expiresAtMillis() {
    return expiresAt;
  }

  /**
   * Whether others still see this lease as live for at least the skew: what a holder checks before
   * an operation the lease guards (publishing its segments). Answered from memory: the holder wrote
   * the expiry itself.
   */
  public boolean live() {
    return clock.millis() < expiresAt - skew.toMillis();
  }

  /**
   * Renews the lease when less than half of it is left, and refuses when it is no longer {@link
   * #live}: gc may then take its files for a dead writer's.
   */
  public void ensureLive() {
    long now = clock.millis();
    if (!live()) {
      throw new TableConflictException(
          "lease "
              + key
              + " on "
              + storage.root()
              + " expired (or is within the clock skew of expiring) "
              + (now - expiresAt)
              + " ms ago, so gc may delete what was written under it; write again under a new"
              + " lease");
    }
    if (expiresAt - now < duration.toMillis() / 2) {
      long expires = now + duration.toMillis();
      try {
        storage.replace(key, encode(expires));
      } catch (IOException e) {
        throw MosaicException.io("cannot renew lease " + key + " on " + storage.root(), e);
      }
      expiresAt = expires;
      CrashPoints.reached("lease-renewed");
    }
  }

  /** Ends the lease: its files are now garbage unless a version refers to them. */
  @Override
  public void close() {
    try {
      storage.delete(key);
    } catch (IOException e) {
      // An undeleted lease expires by itself; gc removes it.
    }
  }

  /** When the lease at {@code key} expires, empty when there is none (or it is unreadable). */
  static Optional<Long> expiry(Storage storage, String key) throws IOException {
    try {
      byte[] bytes = VersionLog.readSmall(storage, key, MAX_BYTES);
      return Optional.of(Long.parseLong(new String(bytes, StandardCharsets.UTF_8).trim()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (NumberFormatException e) {
      // A lease is written whole (createExclusive, replace), so this is damage: expired.
      return Optional.of(0L);
    }
  }

  private static byte[] encode(long expires) {
    return (expires + "\n").getBytes(StandardCharsets.UTF_8);
  }
}
