package io.mosaic.table;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.util.UUID;

/**
 * Marks a process that is creating segment files for a table (a task writer, a migration): the
 * files it creates start with its id, and while its {@link LockFile} in {@code _writers} is held,
 * gc leaves them alone. The operating system releases the lock when the process dies, even by
 * SIGKILL. On a lock-free table it is a writer {@link Lease} instead, which the writer renews
 * ({@link #renew}) and which expires when it dies (docs/format.md, "Commits without POSIX locks").
 */
public final class WriterLock implements AutoCloseable {
  /** The lock-free writers open in this JVM: their claims end when they close, not at a commit. */
  private static final java.util.Map<String, Lease> OPEN =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final String id;
  private final LockFile lock;
  private final Lease lease;
  private final VersionLog log; // a lock-free table's, or null

  public WriterLock(MosaicTable table, String prefix) {
    this.id = prefix + UUID.randomUUID().toString().replace("-", "");
    if (table.lockFree()) {
      this.log = table.log();
      this.lock = null;
      this.lease =
          Lease.acquire(
              log.storage(),
              io.mosaic.storage.StorageKeys.join(log.prefix(), Lease.WRITERS + "/" + id),
              log.retention(),
              log.clock());
      OPEN.put(id, lease);
      return;
    }
    this.lease = null;
    this.log = null;
    try {
      this.lock = LockFile.create(table.root().resolve(MosaicTable.WRITERS), id + ".lock");
    } catch (IOException e) {
      throw MosaicException.io("cannot register a writer in table " + table.name(), e);
    }
  }

  /**
   * Renews a writer lease when half of it is gone, and refuses to go on when it expired (gc may
   * have taken the files for a dead writer's); a lock needs nothing.
   */
  public void renew() {
    if (lease != null) {
      lease.ensureLive();
    }
  }

  public String id() {
    return id;
  }

  /** Whether a lock-free writer with this id is open in this JVM. */
  static boolean openHere(String id) {
    return OPEN.containsKey(id);
  }

  /**
   * Whether a lock-free writer with this id is open in this JVM under a lease that never lapsed: an
   * expired lease is never renewed, so one live now was live throughout, gc never took its writer
   * for dead, and its files are all there (a commit need not look them up).
   */
  static boolean liveHere(String id) {
    Lease lease = OPEN.get(id);
    return lease != null && lease.live();
  }

  /** The writer id a segment file name starts with ({@code <id>-<n>.parquet}). */
  public static String idOf(String name) {
    int dash = name.indexOf('-');
    return dash < 0 ? name : name.substring(0, dash);
  }

  @Override
  public void close() {
    if (lock != null) {
      lock.close();
    } else {
      lease.close();
      // The claim goes too, so what this writer's commits later dropped (a migration's sources)
      // is garbage from now, not only once the claim is old (WriterClaims).
      log.release(id);
      OPEN.remove(id);
    }
  }
}
