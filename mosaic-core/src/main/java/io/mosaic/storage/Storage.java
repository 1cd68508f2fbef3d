package io.mosaic.storage;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Optional;

/**
 * The one way Mosaic reaches bytes: a place addressed by keys relative to a root URI (a local
 * directory, an HDFS directory, later an object-store prefix). Keys use {@code /} between parts,
 * never start with it and never hold {@code .} or {@code ..} parts ({@link StorageKeys#check}).
 *
 * <p>The operations are the ones every backend has (docs/format.md, "Storage backends"); what only
 * some have is declared in {@link #capabilities()} and callers choose their protocol by it: commits
 * use POSIX locks only where {@link StorageCapabilities#posixLocks()} holds, and otherwise need
 * {@link #createExclusive} alone.
 */
public interface Storage extends Closeable {
  /** Where key {@code ""} is: {@code file:/mnt/nvme/}, {@code hdfs://nn:8020/mosaic/fast/}. */
  URI root();

  /** What this backend guarantees beyond the common operations. */
  StorageCapabilities capabilities();

  /** Opens a file for positional reads; {@link NoSuchFileException} when it does not exist. */
  ReadFile open(String key) throws IOException;

  /**
   * Opens a file whose length the caller knows (a manifest records every segment's): an object
   * store then asks for no metadata first, and the first read is the first request (S3: no HEAD). A
   * wrong length makes reads past the real end fail or return short; a missing file fails at the
   * first read on such stores.
   */
  default ReadFile open(String key, long length) throws IOException {
    return open(key);
  }

  /**
   * The whole of a small file, empty when nothing is at {@code key}: one request on an object store
   * (a GET answered 404 when the key is missing, no HEAD first), one open on HDFS. For files read
   * whole and probed for existence, such as the versions of a {@code VersionLog} (docs/format.md,
   * "Commits without POSIX locks").
   *
   * @throws IOException also when the file holds more than {@code max} bytes
   */
  default Optional<byte[]> readIfExists(String key, long max) throws IOException {
    try (ReadFile file = open(key)) {
      long length = file.length();
      if (length > max) {
        throw new IOException(
            root() + key + " has " + length + " bytes, more than the " + max + " allowed");
      }
      ByteBuffer buf = ByteBuffer.allocate((int) length);
      file.readFully(buf, 0);
      return Optional.of(java.util.Arrays.copyOf(buf.array(), buf.position()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * Creates a new file for writing, creating missing parent folders; the bytes are durable once the
   * stream is closed (fsync, HDFS hsync). Fails with {@link FileAlreadyExistsException} when the
   * key exists. The name may be visible before the stream is closed, so a file that must appear
   * whole goes through {@link #createExclusive} instead.
   */
  OutputStream create(String key) throws IOException;

  /**
   * Publishes {@code content} under {@code key} atomically and only if the key does not exist:
   * readers see no file or the whole file, and of racing creators exactly one succeeds; the others
   * get {@link FileAlreadyExistsException}. The content is durable when this returns.
   */
  void createExclusive(String key, byte[] content) throws IOException;

  /**
   * Writes {@code content} under {@code key}, replacing what is there, atomically where the backend
   * can (readers see the old or the new file); for hints and other files any version of which is
   * valid.
   */
  void replace(String key, byte[] content) throws IOException;

  /**
   * Overwrites bytes of the closed file {@code key} at {@code position}, in place and durably (no
   * byte moves, the length stays); only where {@link StorageCapabilities#inPlaceWrite()} holds.
   */
  default void overwrite(String key, long position, byte[] bytes) throws IOException {
    throw new UnsupportedOperationException(root() + " cannot overwrite a file in place");
  }

  /** Stat of a file or folder, empty when nothing is at {@code key}. */
  Optional<FileStatus> stat(String key) throws IOException;

  /**
   * Whether a file (not a folder) is at {@code key}: where a name can only be a file, the cheaper
   * probe, as an object store answers it with one HEAD and no listing (docs/format.md, "Storage
   * backends").
   */
  default boolean isFile(String key) throws IOException {
    return stat(key).filter(f -> !f.folder()).isPresent();
  }

  /**
   * The direct children of folder {@code prefix} ({@code ""} for the root), by name; empty when the
   * folder does not exist.
   */
  List<FileStatus> list(String prefix) throws IOException;

  /** Deletes a file or an empty folder; false when nothing was there. */
  boolean delete(String key) throws IOException;

  /** Every file at any depth below folder {@code prefix}; folders are walked, not listed. */
  default List<FileStatus> walk(String prefix) throws IOException {
    List<FileStatus> files = new java.util.ArrayList<>();
    for (FileStatus f : list(prefix)) {
      if (f.folder()) {
        files.addAll(walk(f.key()));
      } else {
        files.add(f);
      }
    }
    return files;
  }

  /**
   * Deletes folder {@code prefix} ({@code ""} for the root) and everything below it, children
   * first; false when nothing was there.
   */
  default boolean deleteTree(String prefix) throws IOException {
    for (FileStatus f : list(prefix)) {
      if (f.folder()) {
        deleteTree(f.key());
      } else {
        delete(f.key());
      }
    }
    return delete(prefix);
  }

  /**
   * Sets the placement policy of a folder, which its new files inherit (an HDFS storage policy).
   * Only where {@link StorageCapabilities#placement()} holds.
   */
  default void setPlacement(String folder, String policy) throws IOException {
    throw new UnsupportedOperationException(root() + " has no placement policies");
  }

  /**
   * The storage type of every replica of every block of a file ({@code SSD}, {@code DISK}, ...), in
   * block order; only where {@link StorageCapabilities#placement()} holds.
   */
  default List<List<String>> blockStorageTypes(String key) throws IOException {
    throw new UnsupportedOperationException(root() + " has no placement policies");
  }

  /**
   * The hosts holding the first block of a file, for engines' locality (Spark's preferred
   * locations, Trino's split addresses); empty where the backend has no hosts.
   */
  default List<String> hosts(String key) throws IOException {
    return List.of();
  }

  /**
   * Every block of a file with the hosts holding a replica of it, in file order, for engines'
   * locality (docs/distributed-storage.md, "Locality"): one NameNode call on HDFS, from which a
   * planner finds the hosts of any byte range of the file. Empty where the backend has no hosts.
   */
  default List<BlockHosts> blockHosts(String key) throws IOException {
    return List.of();
  }

  /** Bytes this storage lets Mosaic use under {@code folder}, when it has a quota or a limit. */
  default Optional<Long> quota(String folder) throws IOException {
    return Optional.empty();
  }

  /** Bytes {@code [offset, offset + length)} of a file and the hosts holding a replica of them. */
  record BlockHosts(long offset, long length, List<String> hosts) {
    public BlockHosts {
      hosts = List.copyOf(hosts);
    }

    /** How many bytes of {@code [from, to)} this block holds. */
    public long overlap(long from, long to) {
      return Math.max(0, Math.min(to, offset + length) - Math.max(from, offset));
    }
  }

  /** A file or folder under the root. */
  record FileStatus(String key, String name, boolean folder, long length, long modifiedMillis) {}

  /** A file open for positional reads. Not safe for concurrent use unless a backend says so. */
  interface ReadFile extends Closeable {
    long length() throws IOException;

    /** Reads up to {@code dst.remaining()} bytes at {@code position}; -1 at the end. */
    int read(ByteBuffer dst, long position) throws IOException;

    /** Reads until {@code dst} is full or the file ends; the bytes read. */
    default int readFully(ByteBuffer dst, long position) throws IOException {
      int total = 0;
      while (dst.hasRemaining()) {
        int n = read(dst, position + total);
        if (n < 0) {
          break;
        }
        total += n;
      }
      return total;
    }
  }
}
