package io.mosaic.table;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Keeps gc's deletions and commits apart (docs/format.md, "Pins, writer locks and gc"): a commit
 * checks that its new segments exist and publishes its manifest under a shared hold, gc decides
 * what is garbage and deletes it under an exclusive one. So gc never works from a latest version
 * that a commit is about to replace, and a commit never publishes a file gc has just deleted.
 *
 * <p>Across processes the hold is a POSIX lock on {@code _gc.lock} in the table root (shared or
 * exclusive); within this JVM a read-write lock, since one process cannot hold two POSIX locks on
 * one file apart, and closing a descriptor would drop them all. The operating system releases a
 * dead process's hold, even after SIGKILL.
 */
public final class CommitGate {
  public static final String FILE = "_gc.lock";
  private static final ConcurrentHashMap<Path, CommitGate> GATES = new ConcurrentHashMap<>();

  private final Path file;
  private final ReentrantReadWriteLock threads = new ReentrantReadWriteLock();
  // Guarded by this: the shared file lock taken by the first of this JVM's commits, and how many
  // commits use it.
  private FileChannel sharedChannel;
  private FileLock sharedLock;
  private int sharedHolders;

  private CommitGate(Path file) {
    this.file = file;
  }

  private static CommitGate of(Path tableRoot) {
    // One gate per file, however the root is spelled: two holds on one file through different
    // channels of this JVM would collide (OverlappingFileLockException).
    Path root;
    try {
      root = tableRoot.toRealPath();
    } catch (IOException e) {
      root = tableRoot.toAbsolutePath().normalize();
    }
    return GATES.computeIfAbsent(root.resolve(FILE), CommitGate::new);
  }

  /** A commit's hold: many at once, never beside gc. */
  static Hold shared(Path tableRoot) {
    CommitGate gate = of(tableRoot);
    gate.threads.readLock().lock();
    try {
      synchronized (gate) {
        if (gate.sharedHolders == 0) {
          gate.sharedChannel = gate.open();
          gate.sharedLock = gate.sharedChannel.lock(0, Long.MAX_VALUE, true);
        }
        gate.sharedHolders++;
      }
    } catch (IOException | RuntimeException e) {
      gate.closeSharedIfUnused();
      gate.threads.readLock().unlock();
      throw failure(gate, e);
    }
    return () -> {
      synchronized (gate) {
        gate.sharedHolders--;
        gate.closeSharedIfUnused();
      }
      gate.threads.readLock().unlock();
    };
  }

  /** gc's hold: waits for running commits, and commits wait for it. */
  public static Hold exclusive(Path tableRoot) {
    CommitGate gate = of(tableRoot);
    gate.threads.writeLock().lock();
    FileChannel channel = null;
    try {
      channel = gate.open();
      FileLock lock = channel.lock();
      FileChannel held = channel;
      return () -> {
        try {
          lock.release();
          held.close();
        } catch (IOException e) {
          throw MosaicException.io("cannot release " + gate.file, e);
        } finally {
          gate.threads.writeLock().unlock();
        }
      };
    } catch (IOException | RuntimeException e) {
      try {
        if (channel != null) {
          channel.close();
        }
      } catch (IOException ignored) {
        // the failure below says what went wrong
      }
      gate.threads.writeLock().unlock();
      throw failure(gate, e);
    }
  }

  private FileChannel open() throws IOException {
    return FileChannel.open(
        file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  private synchronized void closeSharedIfUnused() {
    if (sharedHolders == 0 && sharedChannel != null) {
      try {
        sharedChannel.close(); // releases the lock
      } catch (IOException e) {
        // nothing is held any more either way
      }
      sharedChannel = null;
      sharedLock = null;
    }
  }

  private static RuntimeException failure(CommitGate gate, Exception e) {
    return e instanceof RuntimeException r
        ? r
        : MosaicException.io("cannot lock " + gate.file, (IOException) e);
  }

  /** A hold on the gate; closing releases it. */
  public interface Hold extends AutoCloseable {
    @Override
    void close();
  }
}
