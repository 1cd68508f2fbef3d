package io.mosaic.table;

import io.mosaic.MosaicException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A file locked by this process for as long as it is open: a reader's pin or a writer's mark
 * (docs/format.md, "Pins, writer locks and gc"). Two properties of POSIX record locks shape it:
 *
 * <ul>
 *   <li>They belong to the process, and closing <em>any</em> descriptor of the file drops them all.
 *       So this JVM never opens a lock file it holds to test it: {@link #isLocked} answers from a
 *       per-JVM registry for those, and opens only other processes' files.
 *   <li>A file that exists but is not yet locked looks abandoned, and another process's cleanup
 *       would delete it. So the lock is taken on a hidden temporary name and the locked file is
 *       then renamed into place (the lock follows the inode): a visible lock file is always locked
 *       by a live process or left by a dead one.
 * </ul>
 */
public final class LockFile implements AutoCloseable {
  private static final String TEMPORARY_PREFIX = ".tmp-";
  // Lock files held by this JVM, by real path (a table reached through a symlink is one table).
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();
  // A temporary file is locked and renamed within milliseconds; older unlocked ones are debris.
  private static final Duration TEMPORARY_DEBRIS_AGE = Duration.ofMinutes(1);

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private LockFile(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /** Creates {@code dir/name}, locked by this process, and registers it as held here. */
  static LockFile create(Path dir, String name) throws IOException {
    Path real;
    try {
      real = dir.toRealPath();
    } catch (NoSuchFileException e) {
      // Created on first use only: createDirectories on an existing directory fails and catches a
      // mkdir inside, a cost every scan's pin paid (docs/benchmarks.md, "Fixed cost per
      // scan").
      Files.createDirectories(dir);
      real = dir.toRealPath();
    }
    Path file = real.resolve(name);
    Path tmp = real.resolve(TEMPORARY_PREFIX + UUID.randomUUID());
    HELD.add(tmp);
    HELD.add(file);
    FileChannel channel = null;
    try {
      channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      FileLock lock = channel.lock();
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
      return new LockFile(file, channel, lock);
    } catch (IOException | RuntimeException e) {
      HELD.remove(file);
      if (channel != null) {
        channel.close();
      }
      Files.deleteIfExists(tmp);
      throw e;
    } finally {
      HELD.remove(tmp);
    }
  }

  Path file() {
    return file;
  }

  /**
   * Whether some live process (this one included) holds the lock of {@code file}. Public so that
   * the planner's own lock files test other processes' locks the same way rather than by a copy.
   */
  public static boolean isLocked(Path file) {
    if (HELD.contains(realPath(file))) {
      return true;
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      FileLock lock = ch.tryLock();
      if (lock == null) {
        return true;
      }
      lock.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static Path realPath(Path file) {
    try {
      return file.getParent().toRealPath().resolve(file.getFileName().toString());
    } catch (IOException e) {
      return file.toAbsolutePath().normalize();
    }
  }

  /** Deletes temporary lock files in {@code dir} that no live process can still be renaming. */
  public static void deleteTemporaryDebris(Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    Instant old = Instant.now().minus(TEMPORARY_DEBRIS_AGE);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (f.getFileName().toString().startsWith(TEMPORARY_PREFIX)) {
          FileTime modified = Files.getLastModifiedTime(f);
          if (modified.toInstant().isBefore(old) && !isLocked(f)) {
            Files.deleteIfExists(f);
          }
        }
      }
    } catch (IOException e) {
      // debris only; the next gc tries again
    }
  }

  @Override
  public void close() {
    if (!channel.isOpen()) {
      return;
    }
    try {
      // Deleted while still locked: a concurrent cleanup never sees it unlocked.
      Files.deleteIfExists(file);
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw MosaicException.io("cannot release lock file " + file, e);
    } finally {
      HELD.remove(file);
    }
  }
}
