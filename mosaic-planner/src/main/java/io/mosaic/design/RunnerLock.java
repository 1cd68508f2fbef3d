package io.mosaic.design;

import io.mosaic.MosaicException;
import io.mosaic.table.LockFile;
import io.mosaic.table.MosaicTable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mark of the process running a table's move queue (docs/physical-design.md, "Running a
 * transformation"): an OS lock on {@value #FILE} in the table's root, held while {@link
 * DesignExecutor#run} runs and dropped by the OS when that process dies. A queue that says {@code
 * running} with no holder was left by a process that stopped, and a service may resume it; one with
 * a holder is running, and a second runner would copy the same step twice, so it waits. POSIX
 * record locks belong to the process and closing any descriptor of the file drops them, so this JVM
 * answers for the files it holds from a registry and never opens them to test; other processes'
 * files it tests with core's {@link LockFile#isLocked}.
 */
final class RunnerLock implements AutoCloseable {
  static final String FILE = "_design-moves.lock";

  /**
   * The mark of the process identifying a table's transformation, held from before the proposal
   * until its queue is written: a pause or cancel meanwhile is kept for it ({@link
   * MoveQueue#request}) rather than refused for want of a queue.
   */
  static final String IDENTIFYING = "_design-identify.lock";

  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private RunnerLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock, or empty when a live process (this one included) runs the queue. */
  static Optional<RunnerLock> tryAcquire(MosaicTable table) {
    return tryAcquire(table, FILE);
  }

  /** The lock on {@code name} in the table's root, or empty when a live process holds it. */
  static Optional<RunnerLock> tryAcquire(MosaicTable table, String name) {
    Path file = file(table, name);
    if (!HELD.add(file)) {
      return Optional.empty();
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        HELD.remove(file);
        return Optional.empty();
      }
      return Optional.of(new RunnerLock(file, channel, lock));
    } catch (IOException | RuntimeException e) {
      HELD.remove(file);
      try {
        if (channel != null) {
          channel.close();
        }
      } catch (IOException ignored) {
        // the failure below says what went wrong
      }
      throw MosaicException.io("cannot lock " + file + " to run the table's transformation", e);
    }
  }

  /** Whether a live process (this one included) runs the table's queue. */
  static boolean isHeld(MosaicTable table) {
    return isHeld(table, FILE);
  }

  /** Whether a live process (this one included) holds the lock on {@code name}. */
  static boolean isHeld(MosaicTable table, String name) {
    Path file = file(table, name);
    // Ours from the registry: LockFile.isLocked would open the file, and closing that descriptor
    // would drop our own lock (see the class comment).
    return HELD.contains(file) || LockFile.isLocked(file);
  }

  private static Path file(MosaicTable table, String name) {
    Path root = table.root();
    try {
      root = root.toRealPath();
    } catch (IOException e) {
      root = root.toAbsolutePath().normalize();
    }
    return root.resolve(name);
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the OS drops the lock with the descriptor or the process
    } finally {
      HELD.remove(file);
    }
  }
}
