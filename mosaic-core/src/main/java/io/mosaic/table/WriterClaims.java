package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.storage.Storage;
import io.mosaic.storage.StorageKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;

/**
 * Who decided first about a writer's segments on a lock-free table, a commit or gc (docs/format.md,
 * "Commits without POSIX locks"): {@code _leases/claims/<writer id>}, created exclusively, says
 * {@code commit} or {@code reaped}. A commit claims the writers of its new segments before it
 * checks them and publishes; gc claims a dead writer before deleting its files. Exactly one of the
 * two creates the name, so a commit that paused past its writer's lease can never publish a segment
 * gc deleted: without the claim that rested on the pause being shorter than the clock skew.
 */
final class WriterClaims {
  static final String CLAIMS = "_leases/claims";

  private static final byte[] COMMIT = "commit\n".getBytes(StandardCharsets.UTF_8);
  private static final byte[] REAPED = "reaped\n".getBytes(StandardCharsets.UTF_8);

  private WriterClaims() {}

  static String key(VersionLog log, String writer) {
    return StorageKeys.join(log.prefix(), CLAIMS + "/" + writer);
  }

  /**
   * Claims {@code writer}'s segments for a commit; refuses when gc claimed them first (it may have
   * deleted some). A claim by an earlier commit stands: gc keeps a committing writer's files.
   *
   * @return whether this call created the claim (its age is then known to the caller)
   */
  static boolean forCommit(VersionLog log, String writer, String table) {
    Storage storage = log.storage();
    String key = key(log, writer);
    try {
      storage.createExclusive(key, COMMIT);
      return true;
    } catch (FileAlreadyExistsException e) {
      // claimed before, by a commit or by gc: see below
    } catch (IOException e) {
      throw MosaicException.io("cannot claim writer " + writer + " on " + storage.root(), e);
    }
    if (!claim(log, writer, COMMIT)) {
      throw new TableConflictException(
          "cannot commit to table "
              + table
              + ": gc took writer "
              + writer
              + " for dead (its lease expired or it had none for longer than the grace) and may"
              + " have deleted its segments; write them again");
    }
    return false;
  }

  /**
   * Claims a dead writer's files for gc: true when gc may delete them (this or an earlier gc
   * claimed them), false when a commit claimed them first.
   */
  static boolean forGc(VersionLog log, String writer) {
    return claim(log, writer, REAPED);
  }

  /**
   * Deletes {@code writer}'s claim if a commit made it; a {@code reaped} claim stays, so that a
   * later commit of the dead writer's segments is still refused. gc replaces a claim only after
   * deleting it for age, so the read and the delete meet the same claim but for a claim that old.
   */
  static void release(VersionLog log, String writer) {
    Storage storage = log.storage();
    String key = key(log, writer);
    try {
      if (says(storage, key, COMMIT).orElse(false)) {
        storage.delete(key);
      }
    } catch (IOException e) {
      // gc deletes it once it is older than the tombstone retention
    }
  }

  /** Creates the claim; true when it now says {@code as} (created here, or earlier by the same). */
  private static boolean claim(VersionLog log, String writer, byte[] as) {
    Storage storage = log.storage();
    String key = key(log, writer);
    try {
      while (true) {
        try {
          storage.createExclusive(key, as);
          return true;
        } catch (FileAlreadyExistsException e) {
          java.util.Optional<Boolean> says = says(storage, key, as);
          if (says.isPresent()) {
            return says.get();
          }
          // gc deleted an old claim between the create and the read: claim again.
        }
      }
    } catch (IOException e) {
      throw MosaicException.io("cannot claim writer " + writer + " on " + storage.root(), e);
    }
  }

  /** Whether the claim at {@code key} says {@code as}; empty when it is gone. */
  private static java.util.Optional<Boolean> says(Storage storage, String key, byte[] as)
      throws IOException {
    try {
      return java.util.Optional.of(
          java.util.Arrays.equals(VersionLog.readSmall(storage, key, 16), as));
    } catch (NoSuchFileException e) {
      return java.util.Optional.empty();
    }
  }
}
