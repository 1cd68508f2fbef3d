package io.mosaic.table;

import io.mosaic.MosaicException;
import io.mosaic.format.Manifest;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A reader's hold on one manifest version: while it is open, no file that version refers to is
 * deleted (docs/format.md, "Pins, writer locks and gc"). It is a {@link LockFile} in the table's
 * {@code _pins} directory; the operating system drops the lock when the process dies, even by
 * {@code kill -9}, so a crashed reader never pins files forever, and nothing this JVM does (gc,
 * migrations listing the pins) releases it early. On a lock-free table the version is kept by time
 * instead, for the retention after it stops being the latest, and a pin open longer takes a reader
 * lease ({@link #byTime}).
 */
public final class TablePin implements AutoCloseable {
  private static final java.util.concurrent.ScheduledExecutorService LEASES =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "mosaic-reader-leases");
            t.setDaemon(true);
            return t;
          });

  private final Manifest manifest;
  private final LockFile lock;
  private final ReaderLease lease; // a lock-free pin's reader lease, or null

  /** A pin by {@code lock}; none (null) where versions are kept by time (a lock-free table). */
  TablePin(Manifest manifest, LockFile lock) {
    this(manifest, lock, null);
  }

  private TablePin(Manifest manifest, LockFile lock, ReaderLease lease) {
    this.manifest = manifest;
    this.lock = lock;
    this.lease = lease;
  }

  /**
   * A pin of a lock-free table's version read as the latest at {@code readAtMillis}: the version
   * retention keeps it, and a pin still open at half that retention takes a reader lease and renews
   * it until closed, so a query longer than the retention keeps its files too (docs/format.md,
   * "Commits without POSIX locks").
   */
  static TablePin byTime(Manifest manifest, VersionLog log, long readAtMillis) {
    return new TablePin(manifest, null, new ReaderLease(log, manifest.version(), readAtMillis));
  }

  /**
   * A pin of a lock-free table's superseded version (a time-travel read, or an executor reading a
   * version its driver planned before newer commits) by {@code lease}, taken before the version was
   * read and renewed until closed: gc keeps a leased version whatever its age.
   */
  static TablePin leased(Manifest manifest, VersionLog log, Lease lease) {
    return new TablePin(manifest, null, new ReaderLease(log, manifest.version(), lease));
  }

  /** The reader lease a long pin takes, on a daemon thread shared by all pins. */
  private static final class ReaderLease implements AutoCloseable, Runnable {
    private final VersionLog log;
    private final long version;
    private Lease lease; // guarded by this
    private boolean closed; // guarded by this
    private java.util.concurrent.ScheduledFuture<?> next; // guarded by this

    ReaderLease(VersionLog log, long version, long readAtMillis) {
      this.log = log;
      this.version = version;
      long half = log.retention().versions().toMillis() / 2;
      long delay = Math.max(0, readAtMillis + half - log.clock().millis());
      synchronized (this) {
        next = LEASES.schedule(this, delay, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
    }

    /** With a lease already taken: renewed from now on. */
    ReaderLease(VersionLog log, long version, Lease taken) {
      this.log = log;
      this.version = version;
      long every = Math.max(1, log.retention().lease().toMillis() / 4);
      synchronized (this) {
        lease = taken;
        next = LEASES.schedule(this, every, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
    }

    @Override
    public synchronized void run() {
      if (closed) {
        return;
      }
      try {
        if (lease == null) {
          lease = log.pin(version);
        } else {
          lease.ensureLive();
        }
      } catch (RuntimeException e) {
        // The lease is a safeguard: without it the query still has the retention it started with.
        return;
      }
      long every = Math.max(1, log.retention().lease().toMillis() / 4);
      next = LEASES.schedule(this, every, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    synchronized boolean holds() {
      return lease != null;
    }

    @Override
    public synchronized void close() {
      closed = true;
      next.cancel(false);
      if (lease != null) {
        lease.close();
      }
    }
  }

  static TablePin create(Path dir, long version, String id) {
    try {
      return new TablePin(null, LockFile.create(dir, version + "-" + id + ".pin"));
    } catch (IOException e) {
      throw MosaicException.io("cannot pin version " + version + " in " + dir, e);
    }
  }

  TablePin withManifest(Manifest m) {
    return new TablePin(m, lock, lease);
  }

  /** Whether this pin holds a reader lease now (taken after half the version retention). */
  boolean holdsLease() {
    return lease != null && lease.holds();
  }

  public Manifest manifest() {
    return manifest;
  }

  public long version() {
    return manifest.version();
  }

  /** Version number of a pin file's name. */
  static long versionOf(Path pinFile) {
    String name = pinFile.getFileName().toString();
    return Long.parseLong(name.substring(0, name.indexOf('-')));
  }

  @Override
  public void close() {
    if (lock != null) {
      lock.close();
    }
    if (lease != null) {
      lease.close();
    }
  }
}
